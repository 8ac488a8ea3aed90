#pragma once
// Emitting TORCH_LOGS messages through the active settings. The test is cheap (one comparison),
// so a caller checks before building an expensive message:
//
//   if (log::is_enabled(log::Artifact::guards))
//     log::emit(log::Artifact::guards, log::Level::Debug, {"torch/_dynamo/guards.py", 3911},
//               compile_id, guard_tree_text);
//
// A site's path is shown in the prefix. A "torch/<module>.py" path also names the Python
// logger the message goes through (torch/_dynamo/guards.py: torch._dynamo.guards), so that
// module-qualified TORCH_LOGS names act as in PyTorch; it should then be one of the given
// component's (or artifact parent's) modules. Any other path uses the component's own logger.
//
// Everything here is thread-safe; each message is written whole, with one trailing newline.
#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "libdiag/log/level.h"
#include "libdiag/log/log_settings.h"
#include "libdiag/log/python_log_format.h"
#include "libdiag/log/registry.h"

namespace kiln::log {

struct SourceSite {
  std::string_view path;  // repo-relative: "torch/_dynamo/guards.py"
  int line = 0;
};

// Whether a message of this level may be shown (a message from a module with a finer
// module-qualified setting is decided exactly by emit).
bool is_enabled(Component component, Level level);
bool is_enabled(Artifact artifact, Level level = Level::Debug);

// compile_id: the text inside the brackets ("0/0", "1/0_1"), empty outside a compilation.
void emit(Component component, Level level, SourceSite site, std::string_view compile_id,
          std::string_view message);
void emit(Artifact artifact, Level level, SourceSite site, std::string_view compile_id,
          std::string_view message);

// Replaces the levels and artifacts in force (before any call: everything at WARNING).
void apply_log_settings(LogSettings settings);

struct LogOutputOptions {
  std::optional<PythonLogFormat> format;  // TORCH_LOGS_FORMAT; glog prefixes when unset
  // TORCH_LOGS_TRACE_ID_FILTER: only records whose "[<compile id>]" is listed; all when empty.
  std::set<std::string, std::less<>> trace_id_filter;
  std::optional<std::filesystem::path> file;  // TORCH_LOGS_OUT: also appended to this file
};
// Throws std::runtime_error when the file cannot be opened for appending.
void set_log_output(LogOutputOptions options);

// TORCH_COMPILE_DEBUG's torchdynamo/debug.log (PyTorch's add_file_handler): the messages, alone,
// of the records that loggers under `logger_prefix` ("torch._dynamo") write from now on are also
// appended to `path`. Throws std::runtime_error when the file cannot be opened.
void add_debug_log(const std::string& logger_prefix, const std::filesystem::path& path);

// The rank records carry from now on (torch.distributed's default group's, set as it is
// initialized and cleared as it is destroyed).
void set_log_rank(std::optional<uint32_t> rank);

// Where formatted text goes instead of stderr (tests); returns the previous sink. An empty
// sink restores stderr. The TORCH_LOGS_OUT file is written either way.
using LogSink = std::function<void(std::string_view text)>;
LogSink set_log_sink(LogSink sink);

}  // namespace kiln::log
