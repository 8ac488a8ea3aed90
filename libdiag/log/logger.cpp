#include "libdiag/log/logger.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "libdiag/log/glog_format.h"
#include "libdiag/log/log_record.h"

namespace kiln::log {
namespace {

constexpr int kNever = INT_MAX;

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

// The process-wide state PyTorch keeps in its loggers and handlers.
class ActiveLogs {
 public:
  ActiveLogs() { publish_floors(); }

  std::mutex mutex;  // guards everything below but the floors
  LogSettings settings;
  LogOutputOptions output;
  std::unique_ptr<std::FILE, FileCloser> file;
  LogSink sink;
  std::vector<std::pair<std::string, std::unique_ptr<std::FILE, FileCloser>>> debug_logs;  // logger prefix, file
  std::optional<uint32_t> rank;

  // The lowest level that may be shown, read without the mutex by is_enabled.
  std::array<std::atomic<int>, kComponentCount> component_floor;
  std::array<std::atomic<int>, kArtifactCount> artifact_floor;

  void publish_floors() {
    for (size_t c = 0; c < kComponentCount; ++c) {
      int floor = kNever;
      for (std::string_view logger : info(static_cast<Component>(c)).loggers)
        floor = std::min(floor, settings.lowest_level_below(logger));
      component_floor[c].store(floor, std::memory_order_relaxed);
    }
    for (size_t a = 0; a < kArtifactCount; ++a) {
      const auto artifact = static_cast<Artifact>(a);
      int floor = static_cast<int>(Level::Debug);  // a named artifact's logger is set to DEBUG
      if (!settings.artifact_enabled(artifact))
        floor = info(artifact).off_by_default
                    ? kNever
                    : component_floor[static_cast<size_t>(info(artifact).parent)].load(
                          std::memory_order_relaxed);
      artifact_floor[a].store(floor, std::memory_order_relaxed);
    }
  }
};

ActiveLogs& active() {
  static ActiveLogs logs;
  return logs;
}

// The Python logger a message from `path` goes through: the module's own for torch sources
// (torch/_dynamo/guards.py: torch._dynamo.guards), else the component's.
std::string module_logger(std::string_view path, Component component) {
  if (!path.starts_with("torch/") || !path.ends_with(".py"))
    return std::string(info(component).loggers.front());
  path.remove_suffix(3);
  if (path.ends_with("/__init__")) path.remove_suffix(9);
  std::string logger(path);
  std::replace(logger.begin(), logger.end(), '/', '.');
  return logger;
}

// Formats and writes one record; the caller holds the mutex.
void write(ActiveLogs& logs, const LogRecord& record, bool bare_format) {
  std::string text;
  if (logs.output.format) {
    text = logs.output.format->format(record);
  } else if (bare_format) {
    text = record.message;
  } else {
    if (!logs.output.trace_id_filter.empty()) {
      // PyTorch compares the bracketed tag: "[0/0]", or "" outside a compilation.
      std::string tag;
      if (!record.compile_id.empty()) tag.append("[").append(record.compile_id).append("]");
      if (!logs.output.trace_id_filter.contains(tag)) return;
    }
    text = format_glog(record);
  }
  text += '\n';
  if (logs.sink) {
    logs.sink(text);
  } else {
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
  }
  if (logs.file) {
    std::fwrite(text.data(), 1, text.size(), logs.file.get());
    std::fflush(logs.file.get());
  }
  for (const auto& [prefix, file] : logs.debug_logs)
    if (record.logger_name.starts_with(prefix)) {
      const std::string line = std::string(record.message) + "\n";
      std::fwrite(line.data(), 1, line.size(), file.get());
      std::fflush(file.get());
    }
}

// The caller holds the mutex.
LogRecord make_record(const ActiveLogs& logs, Level level, SourceSite site, std::string_view logger_name,
                      std::string_view compile_id, std::string_view artifact, std::string_view message) {
  // Whole milliseconds, as PyTorch's records carry them (LogRecord.msecs).
  const auto now = std::chrono::floor<std::chrono::milliseconds>(std::chrono::system_clock::now());
  return LogRecord{level,     now,        getpid(), logger_name, site.path, site.line,
                   compile_id, artifact, message,     logs.rank};
}

}  // namespace

bool is_enabled(Component component, Level level) {
  return static_cast<int>(level) >=
         active().component_floor[static_cast<size_t>(component)].load(std::memory_order_relaxed);
}

bool is_enabled(Artifact artifact, Level level) {
  return static_cast<int>(level) >=
         active().artifact_floor[static_cast<size_t>(artifact)].load(std::memory_order_relaxed);
}

void emit(Component component, Level level, SourceSite site, std::string_view compile_id,
          std::string_view message) {
  if (!is_enabled(component, level)) return;
  ActiveLogs& logs = active();
  std::lock_guard lock(logs.mutex);
  const std::string logger = module_logger(site.path, component);
  if (static_cast<int>(level) < logs.settings.effective_level(logger)) return;
  write(logs, make_record(logs, level, site, logger, compile_id, "", message), false);
}

void emit(Artifact artifact, Level level, SourceSite site, std::string_view compile_id,
          std::string_view message) {
  if (!is_enabled(artifact, level)) return;
  ActiveLogs& logs = active();
  std::lock_guard lock(logs.mutex);
  const ArtifactInfo& about = info(artifact);
  const std::string module = module_logger(site.path, about.parent);
  // Not named explicitly (and, past is_enabled, not off by default): the module's level decides.
  if (!logs.settings.artifact_enabled(artifact) &&
      static_cast<int>(level) < logs.settings.effective_level(module))
    return;
  const std::string logger = module + ".__" + std::string(about.name);
  write(logs, make_record(logs, level, site, logger, compile_id, about.name, message), about.bare_format);
}

void add_debug_log(const std::string& logger_prefix, const std::filesystem::path& path) {
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "a"));
  if (!file) throw std::runtime_error("cannot open " + path.string() + ": " + std::strerror(errno));
  ActiveLogs& logs = active();
  std::lock_guard lock(logs.mutex);
  logs.debug_logs.emplace_back(logger_prefix, std::move(file));
}

void apply_log_settings(LogSettings settings) {
  ActiveLogs& logs = active();
  std::lock_guard lock(logs.mutex);
  logs.settings = std::move(settings);
  logs.publish_floors();
}

void set_log_output(LogOutputOptions options) {
  std::unique_ptr<std::FILE, FileCloser> file;
  if (options.file) {
    file.reset(std::fopen(options.file->c_str(), "a"));  // Python's FileHandler appends
    if (!file)
      throw std::runtime_error("cannot open TORCH_LOGS_OUT file " + options.file->string() + ": " +
                               std::strerror(errno));
  }
  ActiveLogs& logs = active();
  std::lock_guard lock(logs.mutex);
  logs.output = std::move(options);
  logs.file = std::move(file);
}

void set_log_rank(std::optional<uint32_t> rank) {
  ActiveLogs& logs = active();
  std::lock_guard lock(logs.mutex);
  logs.rank = rank;
}

LogSink set_log_sink(LogSink sink) {
  ActiveLogs& logs = active();
  std::lock_guard lock(logs.mutex);
  std::swap(logs.sink, sink);
  return sink;
}

}  // namespace kiln::log
