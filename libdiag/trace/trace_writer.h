#pragma once
// Writer of TORCH_TRACE logs in PyTorch's exact format (reference trace_format.md §1.1, §2,
// §11), so that tlparse (PyTorch's and Kiln's) reads Kiln's traces like PyTorch's.
//
// Nothing is created before the first record; then <dir>/dedicated_log_torch_trace_
// [rank_<R>_]<8 random chars>.log is opened for the life of the writer. Every record is
// written whole by one write(2), so a crash loses nothing written before it. A folder that
// cannot be created disables the writer with one message on stderr; no method ever throws.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <source_location>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "libdiag/trace/compile_id.h"
#include "libdiag/trace/payload_md5.h"
#include "libdiag/trace/python_json.h"

namespace kiln::trace {

// The source position written in a record's prefix: the C++ caller, as a path relative to the
// checkout ("libcompiler/capture/guards.cpp").
struct CallSite {
  CallSite(const std::source_location& where) : file(where.file_name()), line(where.line()) {}  // NOLINT: implicit on purpose
  CallSite(std::string_view file_, uint32_t line_) : file(file_), line(line_) {}
  std::string_view file;
  uint32_t line;
};

// One frame of a stack written into a record (§2.4); the writer interns `filename`.
struct TraceFrame {
  std::string filename;
  int32_t line = 0;
  std::string name;
  std::optional<std::string> loc;
};

// Where a record belongs: its compile id (parts that are absent are omitted), or, outside any
// compilation, optionally the stack of the call that logged it (the "stack" key).
struct TraceContext {
  std::optional<CompileId> compile_id;
  std::vector<TraceFrame> stack;
};

enum class ArtifactEncoding { String, Json };
enum class ChromiumPhase { Begin, End, Instant };

// PyTorch's rendering of non-string payloads (§2.3): a list as "[\n" + one JSON element per
// line + "\n]", anything else as json.dumps(value, indent=0).
std::string list_payload(const TraceJson& items);
std::string json_payload(const TraceJson& value);

class TraceWriter {
 public:
  // `directory` empty: a disabled writer. `rank`: written into each record and, if set when
  // the file is opened, into its name.
  explicit TraceWriter(std::filesystem::path directory, std::optional<uint32_t> rank = std::nullopt);
  ~TraceWriter();
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  // The process-wide writer; TORCH_TRACE (or TORCH_DTRACE) names its folder, unset: disabled.
  static TraceWriter& from_environment();

  // False when there is no folder, or it could not be written: callers may skip building
  // metadata then.
  bool enabled() const { return enabled_.load(std::memory_order_relaxed); }
  void set_rank(std::optional<uint32_t> rank);
  // The log file; empty before the first record.
  std::filesystem::path file() const;

  // The index of `filename` in the string table, emitting {"str": [filename, index]} the first time.
  uint32_t intern(std::string_view filename, CallSite caller = std::source_location::current());

  // A frame list for metadata (dynamo_start's "stack", ...): filenames interned first.
  TraceJson frame_list(const std::vector<TraceFrame>& frames, CallSite caller = std::source_location::current());

  // One record: {"<event_key>": metadata, "rank", compile-id keys or "stack", "has_payload"}
  // followed by the payload lines when `payload` is given.
  void record(std::string_view event_key, const TraceJson& metadata, const TraceContext& context = {},
              std::optional<std::string_view> payload = std::nullopt,
              CallSite caller = std::source_location::current());

  // {"artifact": {"name": name, "encoding": "string"|"json"}} with the payload (§4.6).
  void artifact(std::string_view name, ArtifactEncoding encoding, std::string_view payload,
                const TraceContext& context = {}, CallSite caller = std::source_location::current());

  // A Chrome trace "B"/"E" (or process-scoped "i") event of category dynamo_timed (§4.7). `args` come first in the
  // payload's args, then "compile_id" (PyTorch's text form without the attempt, "None" outside a
  // compilation). Compiler phases write theirs through TimedPhase (timed_phase.h).
  void chromium_event(std::string_view name, ChromiumPhase phase, const TraceContext& context = {},
                      const TraceJson& args = TraceJson::object(),
                      CallSite caller = std::source_location::current());

  // {"compilation_metrics": metrics} (§4.5), no payload.
  void compilation_metrics(const TraceJson& metrics, const TraceContext& context = {},
                           CallSite caller = std::source_location::current());

 private:
  bool open_locked();
  uint32_t intern_locked(std::string_view filename, const CallSite& caller);
  TraceJson frame_list_locked(const std::vector<TraceFrame>& frames, const CallSite& caller);
  void write_locked(std::string_view event_key, const std::string& metadata_text, const TraceContext& context,
                    std::optional<std::string_view> payload, bool with_context, const CallSite& caller);
  void disable_locked(const std::string& message);

  mutable std::mutex mutex_;
  std::atomic<bool> enabled_;
  std::filesystem::path directory_;
  std::filesystem::path file_;
  int fd_ = -1;
  std::optional<uint32_t> rank_;
  std::unordered_map<std::string, uint32_t> interned_;
  // Made at the first payload: OpenSSL's first MD5 costs about a millisecond, which a process
  // that writes no trace should not pay.
  std::optional<PayloadMd5> md5_;
};

}  // namespace kiln::trace
