// generator/output: puts a generated output into its folder so that a build can trust the folder:
// whenever DIR/manifest.json exists, every file it lists is there with the contents that manifest
// was generated with. docs/output.md states the rules and what happens on each failure.
#pragma once
#include <cstddef>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "fftgen/generate.hpp"

namespace fftgen {

/// A folder could not be written (or restored). The message names the folder, the file and the
/// system's reason, and says what the folder holds now.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct WriteOptions {
  /// Files this run reads (the plan, the wisdom table): a run that would replace or remove one of
  /// them is refused before anything is written.
  std::vector<std::filesystem::path> inputs;
  /// Called once when another fftgen holds the folder's lock and this run starts waiting for it.
  std::function<void()> on_wait;
  /// Fault injection for tests: called with 0, 1, 2, ... before each rename of the switch into
  /// place, and once more after the new manifest.json is in place. Before that last call it may
  /// throw (a failure: the previous output is restored); at any call it may end the process (a
  /// kill: the next write_output or recover_output into the folder settles it).
  std::function<void(int step)> before_switch_step;
};

/// What write_output changed.
struct WriteSummary {
  std::size_t written = 0;    ///< files replaced or added
  std::size_t unchanged = 0;  ///< files whose contents were already right (left untouched)
  std::size_t removed = 0;    ///< files the previous manifest listed that this output does not write
  /// Set when the output is complete but its temporary folder could not be removed (the next
  /// write_output into the folder removes it): what to tell the user.
  std::string warning;
};

/// Writes `output` into `dir` (created if missing):
///  - the new files go to a fresh temporary folder beside `dir` (`.<dir name>.fftgen-XXXXXX`) and
///    are synced to disk there; nothing in `dir` changes until they all are;
///  - then, holding an exclusive lock (flock) on `dir` itself, the old manifest.json is moved
///    aside, each changed file is renamed over its old version, files the old manifest listed
///    that this output lacks are moved aside, and the new manifest.json is renamed in last;
///  - files with unchanged contents are not touched (build systems see no change), nor is any
///    file the old manifest does not list (a user's files, a stamp).
/// A failure at any point restores the previous output and throws OutputError; a killed run
/// leaves a journal in its temporary folder from which the next write_output (or
/// recover_output) into `dir` restores the previous output before doing anything else.
WriteSummary write_output(const GeneratedOutput& output, const std::filesystem::path& dir,
                          const WriteOptions& options = {});

/// The refusals of write_output that need no generated output, for a caller to make before the
/// work of generating: `dir` is a dangling symbolic link or not a folder, or one of `inputs` is
/// `dir`/manifest.json. Throws OutputError.
void check_output_folder(const std::filesystem::path& dir, const std::vector<std::filesystem::path>& inputs);

/// Refuses (OutputError) a `path` that write_file_replacing must not rename a file over: one that
/// exists and is neither a regular file nor a symbolic link (a folder, a device node, a FIFO, a
/// socket). `what` names it in the message ("--stamp").
void check_replaceable_file(const std::filesystem::path& path, const std::string& what);

/// Replaces the single file `path` (a build step's stamp or depfile) so that it always holds either
/// its previous contents or `bytes`: they go to a synced temporary file beside it
/// (`.<name>.fftgen-file-XXXXXX`), which is then renamed over it. A `path` check_replaceable_file
/// refuses is left alone. Throws OutputError.
void write_file_replacing(const std::filesystem::path& path, const std::string& bytes);

/// Restores `dir` after an interrupted write_output (or finishes removing the temporary folder
/// of one that completed), under the folder's lock. Returns how many temporary folders it found.
/// write_output does this itself first; this is for tools and tests.
std::size_t recover_output(const std::filesystem::path& dir);

}  // namespace fftgen
