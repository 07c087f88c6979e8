// How fftgen puts an output into its folder (generator/output/write_output.cpp, docs/output.md):
// a failure or a kill at every step of the switch leaves the previous output whole (after the
// next run's recovery), stale files go and a user's files stay, a second writer waits for the
// folder's lock, and an input file is never overwritten.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "fftgen/write_output.hpp"

namespace {

namespace fs = std::filesystem;
using Files = std::map<std::string, std::string>;  // file name -> contents

// An output of kernels named `kernels`, each a forward .spv and a twiddle table, whose bytes
// depend on `version`; the manifest lists them as generate() does.
fftgen::GeneratedOutput make_output(const std::vector<std::string>& kernels, const std::string& version) {
  fftgen::GeneratedOutput out;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const std::string& k : kernels) {
    out.files.push_back({k + ".fwd0.spv", "spirv of " + k + " " + version});
    out.files.push_back({k + ".twiddles.bin", "twiddles of " + k + " " + version});
    list.push_back({{"name", k},
                    {"twiddles", {{"file", k + ".twiddles.bin"}}},
                    {"forward", {{{"name", "fwd0"}, {"files", {{"spirv", k + ".fwd0.spv"}}}}}}});
  }
  out.manifest = {{"format", "fftgen-manifest"}, {"version", version}, {"kernels", list}};
  out.files.push_back({"manifest.json", out.manifest.dump(2) + "\n"});
  return out;
}

Files files_of(const fftgen::GeneratedOutput& out) {
  Files files;
  for (const auto& f : out.files) files[f.name] = f.bytes;
  return files;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

Files folder_contents(const fs::path& dir) {
  Files files;
  for (const auto& e : fs::directory_iterator(dir)) files[e.path().filename().string()] = read(e.path());
  return files;
}

// Entries beside `dir` whose name starts with ".<dir name>.fftgen-" (temporary folders).
int temp_folders_beside(const fs::path& dir) {
  int n = 0;
  const std::string prefix = "." + dir.filename().string() + ".fftgen-";
  for (const auto& e : fs::directory_iterator(dir.parent_path()))
    n += e.path().filename().string().rfind(prefix, 0) == 0;
  return n;
}

// The consumer's contract: if manifest.json exists, it and every file it lists are exactly one
// of the given outputs.
void check_consistent(const fs::path& dir, const std::vector<fftgen::GeneratedOutput>& outputs) {
  if (!fs::exists(dir / "manifest.json")) return;
  const std::string manifest = read(dir / "manifest.json");
  for (const auto& out : outputs) {
    if (out.files.back().bytes != manifest) continue;
    for (const auto& f : out.files) {
      INFO(f.name);
      CHECK(read(dir / f.name) == f.bytes);
    }
    return;
  }
  FAIL("manifest.json is none of the outputs:\n" << manifest);
}

struct Scratch {
  fs::path root;
  explicit Scratch(const std::string& name) : root(fs::temp_directory_path() / ("fftgen_test_write_output_" + name)) {
    fs::remove_all(root);
    fs::create_directories(root);
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
};

// How many hook calls a switch from `from` to `to` makes (so that every step can be hit).
int switch_steps(const fftgen::GeneratedOutput& from, const fftgen::GeneratedOutput& to, const fs::path& dir) {
  fs::remove_all(dir);
  fftgen::write_output(from, dir);
  int steps = 0;
  fftgen::WriteOptions count;
  count.before_switch_step = [&](int) { ++steps; };
  fftgen::write_output(to, dir, count);
  return steps;
}

// The wait status of a child process that writes `output` into `dir` and sends itself `signal`
// before switch step `at`.
int write_signalled_at(const fftgen::GeneratedOutput& output, const fs::path& dir, int at, int signal) {
  const pid_t child = ::fork();
  if (child == 0) {
    std::signal(signal, SIG_DFL);  // not Catch's handler: the signal ends the process
    fftgen::WriteOptions options;
    options.before_switch_step = [&](int step) {
      if (step == at) ::kill(::getpid(), signal);
    };
    try {
      fftgen::write_output(output, dir, options);
    } catch (...) {
      ::_exit(3);
    }
    ::_exit(0);
  }
  int status = 0;
  if (child < 0 || ::waitpid(child, &status, 0) != child) throw std::runtime_error("fork or waitpid failed");
  return status;
}

}  // namespace

TEST_CASE("write_output writes, leaves unchanged files alone, removes stale files and keeps a user's", "[output]") {
  Scratch s("stale");
  const fs::path dir = s.root / "out";
  const auto old_output = make_output({"a", "b"}, "1");
  auto summary = fftgen::write_output(old_output, dir);
  CHECK(summary.written == 5);
  CHECK(folder_contents(dir) == files_of(old_output));
  std::ofstream(dir / "notes.txt") << "mine";
  std::ofstream(dir / "stamp") << "build stamp";

  struct stat before;
  REQUIRE(::stat((dir / "a.fwd0.spv").c_str(), &before) == 0);
  summary = fftgen::write_output(old_output, dir);  // the same output again: nothing touched
  CHECK(summary.written == 0);
  CHECK(summary.unchanged == 5);
  struct stat after;
  REQUIRE(::stat((dir / "a.fwd0.spv").c_str(), &after) == 0);
  CHECK(after.st_ino == before.st_ino);
  CHECK(after.st_mtim.tv_nsec == before.st_mtim.tv_nsec);

  // --headers' header of a listed file goes with it; a file of that name that is not fftgen's stays.
  std::ofstream(dir / "b.fwd0.spv.hpp") << "// Generated by fftgen 0.1.0 from plan.json; do not edit: b.fwd0.spv\n";
  std::ofstream(dir / "b.twiddles.bin.hpp") << "// my own header\n";
  // What an earlier fftgen's killed run left: <file>.fftgen-tmp beside a listed and a new file.
  std::ofstream(dir / "b.fwd0.spv.fftgen-tmp") << "half";
  std::ofstream(dir / "c.fwd0.spv.fftgen-tmp") << "half";
  // b goes, c comes; a's files keep their bytes but the manifest changes.
  auto new_output = make_output({"a", "c"}, "2");
  new_output.files[0].bytes = old_output.files[0].bytes;
  summary = fftgen::write_output(new_output, dir);
  CHECK(summary.removed == 5);
  Files expected = files_of(new_output);
  expected["notes.txt"] = "mine";
  expected["stamp"] = "build stamp";
  expected["b.twiddles.bin.hpp"] = "// my own header\n";
  CHECK(folder_contents(dir) == expected);
  CHECK(temp_folders_beside(dir) == 0);
}

TEST_CASE("a manifest's names never lead out of the folder", "[output]") {
  Scratch s("escape");
  const fs::path dir = s.root / "out";
  fs::create_directories(dir);
  std::ofstream(s.root / "precious.txt") << "keep";
  // A hand-edited manifest that lists a file outside the folder and the folder itself.
  nlohmann::json hostile = {{"format", "fftgen-manifest"},
                            {"kernels",
                             {{{"twiddles", {{"file", "../precious.txt"}}},
                               {"forward", {{{"files", {{"spirv", "/etc/hostname"}, {"glsl", ".."}}}}}}}}}};
  std::ofstream(dir / "manifest.json") << hostile.dump();
  fftgen::write_output(make_output({"a"}, "1"), dir);
  CHECK(read(s.root / "precious.txt") == "keep");
  CHECK(folder_contents(dir) == files_of(make_output({"a"}, "1")));

  // A manifest that is not fftgen's (or not even an object, or with a "format" of another type)
  // lists nothing: only manifest.json itself is replaced.
  for (const char* foreign : {R"({"format": 2, "kernels": [{"twiddles": {"file": "x"}}]})", "[1, 2]", "not json"}) {
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / "manifest.json") << foreign;
    std::ofstream(dir / "x") << "kept";
    fftgen::write_output(make_output({"a"}, "1"), dir);
    CHECK(read(dir / "x") == "kept");
  }
}

TEST_CASE("a failure at any step of the switch restores the previous output", "[output]") {
  Scratch s("fail");
  const fs::path dir = s.root / "out";
  const auto old_output = make_output({"a", "b"}, "1");
  const auto new_output = make_output({"a", "c", "d"}, "2");
  const int steps = switch_steps(old_output, new_output, dir);
  // manifest aside, a's 2 files (aside + in), c's and d's 4 in, b's 2 aside, manifest in; after it
  REQUIRE(steps == 13);
  for (int fail_at = 0; fail_at < steps - 1; ++fail_at) {
    INFO("failing before step " << fail_at);
    fs::remove_all(dir);
    fftgen::write_output(old_output, dir);
    std::ofstream(dir / "notes.txt") << "mine";
    Files expected = files_of(old_output);
    expected["notes.txt"] = "mine";
    fftgen::WriteOptions options;
    options.before_switch_step = [&](int step) {
      if (step == fail_at) throw std::runtime_error("injected failure");
    };
    CHECK_THROWS_WITH(fftgen::write_output(new_output, dir, options),
                      Catch::Contains("injected failure") && Catch::Contains("still holds the previous output"));
    CHECK(folder_contents(dir) == expected);
    CHECK(temp_folders_beside(dir) == 0);
  }
}

TEST_CASE("a kill at any step of the switch leaves no mixed output, and the next run restores the previous one",
          "[output]") {
  Scratch s("kill");
  const fs::path dir = s.root / "out";
  const auto old_output = make_output({"a", "b"}, "1");
  const auto new_output = make_output({"a", "c", "d"}, "2");
  const int steps = switch_steps(old_output, new_output, dir);
  // The hook's last call comes after the new manifest is in place.
  for (int kill_at = 0; kill_at < steps; ++kill_at) {
    INFO("killed before step " << kill_at);
    fs::remove_all(dir);
    fftgen::write_output(old_output, dir);
    std::ofstream(dir / "notes.txt") << "mine";
    const int status = write_signalled_at(new_output, dir, kill_at, SIGKILL);
    const bool killed = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
    CHECK(killed);
    CHECK(read(dir / "notes.txt") == "mine");
    check_consistent(dir, {old_output, new_output});
    const bool committed = fs::exists(dir / "manifest.json") && read(dir / "manifest.json") == new_output.files.back().bytes;
    CHECK(fftgen::recover_output(dir) == 1);
    CHECK(temp_folders_beside(dir) == 0);
    Files expected = files_of(committed ? new_output : old_output);
    expected["notes.txt"] = "mine";
    CHECK(folder_contents(dir) == expected);
    CHECK(committed == (kill_at == steps - 1));
  }
}

TEST_CASE("SIGINT or SIGTERM during the switch takes effect once the new output is whole", "[output]") {
  Scratch s("interrupt");
  const fs::path dir = s.root / "out";
  const auto old_output = make_output({"a", "b"}, "1");
  const auto new_output = make_output({"a", "c", "d"}, "2");
  const int steps = switch_steps(old_output, new_output, dir);
  for (int signal : {SIGINT, SIGTERM})
    for (int at = 0; at < steps; ++at) {
      INFO("signal " << signal << " before step " << at);
      fs::remove_all(dir);
      fftgen::write_output(old_output, dir);
      const int status = write_signalled_at(new_output, dir, at, signal);
      CHECK((WIFSIGNALED(status) && WTERMSIG(status) == signal));
      CHECK(folder_contents(dir) == files_of(new_output));
      CHECK(temp_folders_beside(dir) == 0);
    }
}

TEST_CASE("a temporary folder that cannot be removed is a warning, the output whole", "[output]") {
  Scratch s("cleanup");
  const fs::path dir = s.root / "out";
  const auto old_output = make_output({"a", "b"}, "1");
  const auto new_output = make_output({"a", "c"}, "2");
  const int steps = switch_steps(old_output, new_output, dir);
  fftgen::write_output(old_output, dir);
  // An immutable file (chattr +i: root on ext4, say) in the temporary folder once the new output is in.
  fs::path pinned;
  fftgen::WriteOptions options;
  options.before_switch_step = [&](int step) {
    if (step != steps - 1) return;
    for (const auto& e : fs::directory_iterator(dir.parent_path()))
      if (e.path().filename().string().rfind(".out.fftgen-", 0) == 0) pinned = e.path() / "pinned";
    std::ofstream(pinned) << "x";
    if (std::system(("chattr +i '" + pinned.string() + "' 2>/dev/null").c_str()) != 0) pinned.clear();
  };
  const fftgen::WriteSummary summary = fftgen::write_output(new_output, dir, options);
  if (pinned.empty()) {
    WARN("chattr +i is not available here: the cleanup failure is not tested");
    CHECK(summary.warning.empty());
    return;
  }
  std::system(("chattr -i '" + pinned.string() + "'").c_str());
  CHECK_THAT(summary.warning, Catch::Contains("is complete, but its temporary folder") &&
                                  Catch::Contains("could not be removed") && Catch::Contains("the next fftgen run"));
  CHECK(folder_contents(dir) == files_of(new_output));
  CHECK(fftgen::recover_output(dir) == 1);
  CHECK(temp_folders_beside(dir) == 0);
}

TEST_CASE("a second writer waits for the folder's lock; the folder ends whole", "[output]") {
  Scratch s("lock");
  const fs::path dir = s.root / "out";
  const auto first = make_output({"a", "b"}, "1");
  const auto second = make_output({"c"}, "2");
  fftgen::write_output(make_output({"z"}, "0"), dir);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {  // holds the lock for a while in the middle of its switch
    fftgen::WriteOptions slow;
    slow.before_switch_step = [](int step) {
      if (step == 1) std::this_thread::sleep_for(std::chrono::milliseconds(800));
    };
    try {
      fftgen::write_output(first, dir, slow);
    } catch (...) {
      ::_exit(3);
    }
    ::_exit(0);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  bool waited = false;
  fftgen::WriteOptions options;
  options.on_wait = [&] { waited = true; };
  const auto summary = fftgen::write_output(second, dir, options);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
  CHECK(waited);
  CHECK(summary.removed == 4);  // the first writer's files, which it had finished
  CHECK(folder_contents(dir) == files_of(second));
}

TEST_CASE("write_output refuses to overwrite an input, a dangling link or a file as the folder", "[output]") {
  Scratch s("refuse");
  const fs::path dir = s.root / "out";
  fs::create_directories(dir);
  std::ofstream(dir / "manifest.json") << "{\"kernels\": []}";  // a plan saved under the manifest's name
  fftgen::WriteOptions options;
  options.inputs = {dir / "manifest.json"};
  CHECK_THROWS_WITH(fftgen::write_output(make_output({"a"}, "1"), dir, options),
                    Catch::Contains("would replace or remove") && Catch::Contains("which this run reads"));
  CHECK(read(dir / "manifest.json") == "{\"kernels\": []}");
  CHECK(folder_contents(dir).size() == 1);

  fs::create_symlink(s.root / "nowhere", s.root / "dangling");
  CHECK_THROWS_WITH(fftgen::write_output(make_output({"a"}, "1"), s.root / "dangling"),
                    Catch::Contains("is a symbolic link to") && Catch::Contains("which does not exist"));
  CHECK(fs::is_symlink(fs::symlink_status(s.root / "dangling")));
  CHECK(!fs::exists(s.root / "nowhere"));

  std::ofstream(s.root / "file") << "x";
  CHECK_THROWS_WITH(fftgen::write_output(make_output({"a"}, "1"), s.root / "file"),
                    Catch::Contains("exists and is not a folder"));
}

TEST_CASE("a stale temporary folder is cleaned; another folder's is not", "[output]") {
  Scratch s("temps");
  const fs::path dir = s.root / "out";
  fs::create_directories(s.root / ".out.fftgen-abc123" / "new");  // a run killed while writing
  fs::create_directories(s.root / ".out.fftgen-x.fftgen-abc123");  // the temporary folder of "out.fftgen-x"
  fftgen::write_output(make_output({"a"}, "1"), dir);
  CHECK(!fs::exists(s.root / ".out.fftgen-abc123"));
  CHECK(fs::exists(s.root / ".out.fftgen-x.fftgen-abc123"));
}

TEST_CASE("a stamp or depfile is replaced whole, or left as it was", "[output]") {
  Scratch s("single_file");
  const fs::path stamp = s.root / "sub" / "kernels.stamp";
  fftgen::write_file_replacing(stamp, "first\n");  // creates the missing folder too
  CHECK(read(stamp) == "first\n");
  fftgen::write_file_replacing(stamp, "second, longer\n");
  CHECK(read(stamp) == "second, longer\n");
  CHECK(folder_contents(stamp.parent_path()) == Files{{"kernels.stamp", "second, longer\n"}});

  // A folder or a FIFO under the name is refused, not renamed over: the error names it, and no
  // temporary file is left.
  const fs::path blocked = stamp.parent_path() / "blocked";
  fs::create_directories(blocked / "inside");
  CHECK_THROWS_WITH(fftgen::write_file_replacing(blocked, "third\n"),
                    Catch::Contains("'" + blocked.string() + "' is not a regular file"));
  CHECK(fs::is_directory(blocked / "inside"));
  fs::remove_all(blocked);
  REQUIRE(::mkfifo(blocked.c_str(), 0600) == 0);
  CHECK_THROWS_WITH(fftgen::write_file_replacing(blocked, "third\n"), Catch::Contains("is not a regular file"));
  CHECK(fs::is_fifo(blocked));
  fs::remove(blocked);
  CHECK(folder_contents(stamp.parent_path()) == Files{{"kernels.stamp", "second, longer\n"}});
}
