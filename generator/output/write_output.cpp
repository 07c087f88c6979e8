#include "fftgen/write_output.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace fftgen {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

constexpr std::string_view kManifest = "manifest.json";
// Inside a temporary folder: the new files, the previous versions moved aside during the switch,
// and the journal that makes an interrupted switch undoable.
constexpr std::string_view kNewFolder = "new";
constexpr std::string_view kOldFolder = "old";
constexpr std::string_view kJournal = "journal.json";
constexpr std::string_view kTempMarker = ".fftgen-";
constexpr std::size_t kTempSuffixLength = 6;  // mkdtemp's XXXXXX
constexpr std::string_view kOldTempSuffix = ".fftgen-tmp";

std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }

[[noreturn]] void fail_errno(const std::string& what) { throw OutputError(what + ": " + std::strerror(errno)); }

// Owns a file descriptor.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

// A name fftgen may write or remove in the output folder: one path component, no way out of it.
bool is_plain_name(std::string_view name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string_view::npos &&
         name.find('\0') == std::string_view::npos;
}

bool exists_no_follow(const fs::path& p) {
  struct stat st;
  return ::lstat(p.c_str(), &st) == 0;
}

// Makes renames and new names in `dir` durable (some file systems refuse fsync on a folder: EINVAL).
void sync_folder(const fs::path& dir) {
  Fd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0 || (::fsync(fd.get()) != 0 && errno != EINVAL)) fail_errno("cannot sync folder " + quoted(dir));
}

// Writes all of `bytes` to the open file `fd` (named `path` in errors), syncs and closes it.
void write_all_synced(Fd& fd, const fs::path& path, const std::string& bytes) {
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::write(fd.get(), bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail_errno("cannot write " + quoted(path));
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd.get()) != 0 || ::close(fd.release()) != 0) fail_errno("cannot write " + quoted(path));
}

void write_synced(const fs::path& path, const std::string& bytes) {
  Fd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666));
  if (fd.get() < 0) fail_errno("cannot create " + quoted(path));
  write_all_synced(fd, path, bytes);
}

void rename_or_fail(const fs::path& from, const fs::path& to) {
  if (::rename(from.c_str(), to.c_str()) != 0) fail_errno("cannot rename " + quoted(from) + " to " + quoted(to));
}

bool same_contents(const fs::path& path, const std::string& bytes) {
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(path, ec)) || fs::file_size(path, ec) != bytes.size() || ec)
    return false;
  std::ifstream in(path, std::ios::binary);
  const std::string current((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return in.good() || in.eof() ? current == bytes : false;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }
bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The files a previous manifest.json lists (plain names only: a hand-edited "../x" is never
// followed), itself included, and the headers `--headers` wrote for them (<file>.hpp, recognised
// by their first line). An unreadable or foreign manifest lists nothing.
std::set<std::string> files_listed_by(const fs::path& folder) {
  std::set<std::string> names;
  std::ifstream in(folder / kManifest, std::ios::binary);
  if (!in) return names;
  const json doc = json::parse(in, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("format") || doc.at("format") != "fftgen-manifest")
    return names;
  auto add = [&](const json& v) {
    if (v.is_string() && is_plain_name(v.get_ref<const std::string&>())) names.insert(v.get<std::string>());
  };
  names.insert(std::string(kManifest));
  const auto kernels = doc.find("kernels");
  if (kernels != doc.end() && kernels->is_array())
    for (const json& kernel : *kernels) {
      if (!kernel.is_object()) continue;
      const auto twiddles = kernel.find("twiddles");
      if (twiddles != kernel.end() && twiddles->is_object() && twiddles->contains("file")) add(twiddles->at("file"));
      for (const char* direction : {"forward", "inverse"}) {
        const auto passes = kernel.find(direction);
        if (passes == kernel.end() || !passes->is_array()) continue;
        for (const json& pass : *passes) {
          if (!pass.is_object() || !pass.contains("files") || !pass.at("files").is_object()) continue;
          for (const auto& item : pass.at("files").items()) add(item.value());
        }
      }
    }
  std::set<std::string> headers;
  for (const std::string& name : names) {
    if (!(name == kManifest || ends_with(name, ".spv") || ends_with(name, ".twiddles.bin"))) continue;
    std::ifstream header(folder / (name + ".hpp"));
    std::string first_line;
    if (header && std::getline(header, first_line) && starts_with(first_line, "// Generated by fftgen"))
      headers.insert(name + ".hpp");
  }
  names.insert(headers.begin(), headers.end());
  return names;
}

// Exclusive flock on the output folder itself, held while its contents change: a second fftgen
// into the same folder waits. (A lock on the folder leaves no lock file behind.)
class FolderLock {
 public:
  FolderLock(const fs::path& folder, const std::function<void()>& on_wait)
      : fd_(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
    if (fd_.get() < 0) fail_errno("cannot open output folder " + quoted(folder));
    if (::flock(fd_.get(), LOCK_EX | LOCK_NB) == 0) return;
    if (errno != EWOULDBLOCK) fail_errno("cannot lock output folder " + quoted(folder));
    if (on_wait) on_wait();
    while (::flock(fd_.get(), LOCK_EX) != 0)
      if (errno != EINTR) fail_errno("cannot lock output folder " + quoted(folder));
  }

 private:
  Fd fd_;  // closing it releases the lock
};

// The temporary folders of write_output into `folder`: `.<name>.fftgen-XXXXXX` beside it. The
// exact length keeps another folder's (".<name>.fftgen-x.fftgen-XXXXXX") out.
std::vector<fs::path> temp_folders_of(const fs::path& folder) {
  const std::string prefix = "." + folder.filename().string() + std::string(kTempMarker);
  std::vector<fs::path> found;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(folder.parent_path(), ec)) {
    const std::string name = e.path().filename().string();
    if (name.size() == prefix.size() + kTempSuffixLength && starts_with(name, prefix) &&
        fs::is_directory(e.symlink_status(ec)))
      found.push_back(e.path());
  }
  return found;
}

// Settles a temporary folder of write_output into `folder`, then removes it. If its journal says a
// switch began and the new manifest.json never left it, the switch did not complete: the files
// it added are removed and the previous versions it moved aside go back, the manifest last.
void settle(const fs::path& temp, const fs::path& folder) {
  const fs::path journal = temp / kJournal;
  if (exists_no_follow(journal) && exists_no_follow(temp / kNewFolder / kManifest)) {
    std::ifstream in(journal);
    const json record = json::parse(in, nullptr, false);
    if (record.is_discarded() || !record.contains("added") || !record.at("added").is_array())
      throw OutputError("the journal " + quoted(journal) + " is unreadable; restore " + quoted(folder) +
                        " from the files in " + quoted(temp / kOldFolder) + " by hand");
    for (const json& name : record.at("added")) {
      if (!name.is_string() || !is_plain_name(name.get_ref<const std::string&>())) continue;
      const fs::path added = folder / name.get<std::string>();
      if (exists_no_follow(added) && ::unlink(added.c_str()) != 0) fail_errno("cannot remove " + quoted(added));
    }
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(temp / kOldFolder, ec))
      if (e.path().filename() != kManifest) rename_or_fail(e.path(), folder / e.path().filename());
    if (ec) throw OutputError("cannot read " + quoted(temp / kOldFolder) + ": " + ec.message());
    const fs::path old_manifest = temp / kOldFolder / kManifest;
    if (exists_no_follow(old_manifest)) rename_or_fail(old_manifest, folder / kManifest);
    sync_folder(folder);
    // Settled: without its journal the folder is never undone a second time.
    if (::unlink(journal.c_str()) != 0) fail_errno("cannot remove " + quoted(journal));
  }
  std::error_code ec;
  fs::remove_all(temp, ec);
}

std::size_t settle_all(const fs::path& folder) {
  const std::vector<fs::path> temps = temp_folders_of(folder);
  for (const fs::path& temp : temps) settle(temp, folder);
  return temps.size();
}

// The output folder, created if missing, as a canonical path (a symbolic link to a folder is
// followed, so that the temporary folder lies beside the real one, on the same file system).
struct Folder {
  fs::path path;
  bool created = false;
};

// A dangling symbolic link or a file where the output folder should be.
void check_folder_path(const fs::path& dir) {
  std::error_code ec;
  if (fs::is_symlink(fs::symlink_status(dir, ec)) && !fs::exists(dir, ec))
    throw OutputError(fmt::format("output folder {} is a symbolic link to {}, which does not exist; create that "
                                  "folder or give another output folder",
                                  quoted(dir), quoted(fs::read_symlink(dir, ec))));
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    throw OutputError("output folder " + quoted(dir) + " exists and is not a folder; give a folder");
}

Folder prepare_folder(const fs::path& dir) {
  check_folder_path(dir);
  std::error_code ec;
  Folder folder;
  folder.created = fs::create_directories(dir, ec);
  if (ec) throw OutputError("cannot create output folder " + quoted(dir) + ": " + ec.message());
  folder.path = fs::canonical(dir, ec);
  if (ec) throw OutputError("cannot resolve output folder " + quoted(dir) + ": " + ec.message());
  if (folder.path == folder.path.root_path())
    throw OutputError("cannot write into the root folder: fftgen prepares its output in a temporary folder beside "
                      "the output folder, which needs a parent; give another output folder");
  return folder;
}

// Refuses to replace or remove a file this run reads (a plan saved as DIR/manifest.json).
void check_inputs_kept(const fs::path& folder, const std::vector<std::string>& names,
                       const std::vector<fs::path>& inputs) {
  for (const std::string& name : names)
    for (const fs::path& input : inputs) {
      std::error_code ec;
      if (!input.empty() && fs::equivalent(folder / name, input, ec))
        throw OutputError(fmt::format("writing the output would replace or remove {}, which this run reads; give "
                                      "another output folder or move that file",
                                      quoted(input)));
    }
}

WriteSummary write_locked(const GeneratedOutput& output, const fs::path& folder, const WriteOptions& options) {
  WriteSummary summary;
  std::set<std::string> new_names;
  std::vector<std::string> changed;  // manifest.json last
  for (const OutputFile& file : output.files) {
    new_names.insert(file.name);
    if (file.name == kManifest) continue;
    if (same_contents(folder / file.name, file.bytes)) ++summary.unchanged;
    else changed.push_back(file.name);
  }
  std::vector<std::string> stale;
  const std::set<std::string> listed = files_listed_by(folder);
  for (const std::string& name : listed)
    if (!new_names.count(name) && exists_no_follow(folder / name)) stale.push_back(name);
  // Earlier fftgen versions wrote <file>.fftgen-tmp beside each file; a killed run left them behind.
  std::set<std::string> old_temps;
  for (const std::set<std::string>& names : {listed, new_names})
    for (const std::string& name : names)
      if (exists_no_follow(folder / (name + std::string(kOldTempSuffix))))
        old_temps.insert(name + std::string(kOldTempSuffix));
  stale.insert(stale.end(), old_temps.begin(), old_temps.end());
  const OutputFile& manifest = output.files.back();
  if (changed.empty() && stale.empty() && same_contents(folder / kManifest, manifest.bytes)) {
    ++summary.unchanged;
    return summary;
  }
  // The manifest goes aside first and comes back last whenever anything changes.
  changed.push_back(std::string(kManifest));
  std::vector<std::string> touched = changed;
  touched.insert(touched.end(), stale.begin(), stale.end());
  check_inputs_kept(folder, touched, options.inputs);
  for (const std::string& name : touched)
    if (fs::is_directory(fs::symlink_status(folder / name)))
      throw OutputError(fmt::format("{} is a folder where fftgen writes or removes a file; move it away",
                                    quoted(folder / name)));

  std::string temp_template =
      (folder.parent_path() / ("." + folder.filename().string() + std::string(kTempMarker) + "XXXXXX")).string();
  if (::mkdtemp(temp_template.data()) == nullptr)
    fail_errno(fmt::format("cannot create a temporary folder beside {} (the new output is written there first, "
                           "then switched into place); nothing was written",
                           quoted(folder)));
  const fs::path temp = temp_template;
  const std::string kept = fmt::format("{} was not changed: it still holds the previous output (none of the {} "
                                       "files of this plan were written)",
                                       quoted(folder), output.files.size());
  try {
    for (std::string_view sub : {kNewFolder, kOldFolder})
      if (::mkdir((temp / sub).c_str(), 0700) != 0) fail_errno("cannot create " + quoted(temp / sub));
    json added = json::array();
    for (const OutputFile& file : output.files) {
      if (std::find(changed.begin(), changed.end(), file.name) == changed.end()) continue;
      write_synced(temp / kNewFolder / file.name, file.bytes);
      if (!exists_no_follow(folder / file.name)) added.push_back(file.name);
    }
    sync_folder(temp / kNewFolder);
    write_synced(temp / kJournal, json{{"folder", folder.filename().string()}, {"added", added}}.dump(1) + "\n");
    sync_folder(temp);
  } catch (const std::exception& e) {
    std::error_code ec;
    fs::remove_all(temp, ec);
    throw OutputError(std::string(e.what()) + "; " + kept);
  }

  int step = 0;
  auto before_step = [&] {
    if (options.before_switch_step) options.before_switch_step(step++);
  };
  auto move_aside = [&](const std::string& name) {
    before_step();
    rename_or_fail(folder / name, temp / kOldFolder / name);
  };
  try {
    if (exists_no_follow(folder / kManifest)) move_aside(std::string(kManifest));
    for (const std::string& name : changed) {
      if (name == kManifest) continue;
      if (exists_no_follow(folder / name)) move_aside(name);
      before_step();
      rename_or_fail(temp / kNewFolder / name, folder / name);
    }
    for (const std::string& name : stale)
      if (name != kManifest) move_aside(name);
    sync_folder(folder);
    before_step();
    rename_or_fail(temp / kNewFolder / kManifest, folder / kManifest);
  } catch (const std::exception& e) {
    try {
      settle(temp, folder);
    } catch (const std::exception& restore) {
      throw OutputError(fmt::format("{}; restoring the previous output failed too ({}); the next fftgen run into "
                                    "{} restores it from {}",
                                    e.what(), restore.what(), quoted(folder), quoted(temp)));
    }
    throw OutputError(std::string(e.what()) + "; " + kept);
  }
  sync_folder(folder);
  before_step();  // the new output is in place; the temporary folder is not yet removed
  std::error_code ec;
  fs::remove_all(temp, ec);
  summary.written = changed.size();
  summary.removed = stale.size();
  return summary;
}

}  // namespace

WriteSummary write_output(const GeneratedOutput& output, const fs::path& dir, const WriteOptions& options) {
  if (output.files.empty() || output.files.back().name != kManifest)
    throw OutputError("internal error: an output's last file must be manifest.json");
  for (const OutputFile& file : output.files)
    if (!is_plain_name(file.name) || starts_with(file.name, "."))
      throw OutputError("internal error: output file name '" + file.name + "' is not a plain file name");
  const Folder folder = prepare_folder(dir);
  try {
    FolderLock lock(folder.path, options.on_wait);
    settle_all(folder.path);
    return write_locked(output, folder.path, options);
  } catch (...) {
    std::error_code ec;
    if (folder.created) fs::remove(folder.path, ec);  // only if still empty
    throw;
  }
}

void check_output_folder(const fs::path& dir, const std::vector<fs::path>& inputs) {
  check_folder_path(dir);
  check_inputs_kept(dir, {std::string(kManifest)}, inputs);
}

std::size_t recover_output(const fs::path& dir) {
  std::error_code ec;
  const fs::path folder = fs::canonical(dir, ec);
  if (ec || !fs::is_directory(folder)) return 0;
  FolderLock lock(folder, {});
  return settle_all(folder);
}

void write_file_replacing(const fs::path& path, const std::string& bytes) {
  const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) throw OutputError("cannot create folder " + quoted(folder) + ": " + ec.message());
  // A name of this process's own, created exclusively (O_EXCL) with the usual mode and umask.
  fs::path temp;
  int raw_fd = -1;
  for (int attempt = 0; raw_fd < 0; ++attempt) {
    temp = folder / fmt::format(".{}.fftgen-file-{}-{}", path.filename().string(), ::getpid(), attempt);
    raw_fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (raw_fd < 0 && (errno != EEXIST || attempt == 99))
      fail_errno("cannot create a temporary file beside " + quoted(path));
  }
  Fd fd(raw_fd);
  try {
    write_all_synced(fd, temp, bytes);
    rename_or_fail(temp, path);
  } catch (...) {
    ::unlink(temp.c_str());
    throw;
  }
  sync_folder(folder);
}

}  // namespace fftgen
