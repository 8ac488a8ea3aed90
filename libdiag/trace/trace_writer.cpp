#include "libdiag/trace/trace_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <random>

#include <simdjson.h>

#include "libdiag/trace/glog_prefix.h"

namespace kiln::trace {
namespace {

// The checkout's root as the compiler saw it, taken from this file's own path, so callers'
// std::source_location paths can be made relative without any build flag.
std::string_view source_root() {
  constexpr std::string_view self = __FILE__;
  constexpr std::string_view tail = "libdiag/trace/trace_writer.cpp";
  return self.ends_with(tail) ? self.substr(0, self.size() - tail.size()) : std::string_view();
}

// tlparse reads the path up to the first ':' and the line ends at '\n': neither may appear.
std::string prefix_path(std::string_view file) {
  const std::string_view root = source_root();
  if (!root.empty() && file.starts_with(root)) file.remove_prefix(root.size());
  std::string path(file);
  for (char& c : path)
    if (c == ':' || c == '\n' || c == '\r') c = '_';
  return path;
}

std::string glog_prefix(const CallSite& caller) {
  // PyTorch writes int(msecs * 1000): whole milliseconds.
  const auto now = std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
  std::string path = " ";  // tlparse's pathname starts right after the process id
  path += prefix_path(caller.file);
  // Trace records are logged at DEBUG, written 'V'.
  return format_glog_prefix(make_glog_prefix('V', now, static_cast<uint64_t>(getpid()), path, caller.line));
}

// Length of the valid UTF-8 sequence at text[i], or 0 if it is not one.
size_t utf8_sequence_length(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  size_t length;
  unsigned char low = 0x80, high = 0xBF;  // allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) length = 2;
  else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // no overlong forms
    if (lead == 0xED) high = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (i + length > text.size() || byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (size_t k = 2; k < length; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return length;
}

// Payload text as it will be read back: valid UTF-8 (bad bytes become U+FFFD) and no "\r"
// ending a line, which every reader strips.
std::string readable_payload(std::string_view payload) {
  const bool valid = simdjson::validate_utf8(payload.data(), payload.size());
  if (valid && payload.find('\r') == std::string_view::npos) return std::string(payload);
  std::string text;
  text.reserve(payload.size());
  for (size_t i = 0; i < payload.size();) {
    const size_t length = valid ? 1 : utf8_sequence_length(payload, i);
    if (length == 0) {
      text += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    if (payload[i] == '\r' && (i + 1 == payload.size() || payload[i + 1] == '\n')) {
      ++i;
      continue;
    }
    text.append(payload.substr(i, length));
    i += length;
  }
  return text;
}

std::string random_name_part() {
  static constexpr std::string_view kAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789_";
  thread_local std::mt19937 generator{std::random_device{}()};
  std::uniform_int_distribution<size_t> pick(0, kAlphabet.size() - 1);
  std::string part(8, 'a');
  for (char& c : part) c = kAlphabet[pick(generator)];
  return part;
}

void append_key(std::string& out, std::string_view key) {
  out += ", ";
  out += python_json_dumps(TraceJson(std::string(key)));
  out += ": ";
}

double epoch_microseconds() {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count()) / 1000.0;
}

}  // namespace

std::string list_payload(const TraceJson& items) {
  std::string text = "[\n";
  bool first = true;
  for (const auto& item : items) {
    if (!first) text += ",\n";
    first = false;
    text += python_json_dumps(item);
  }
  text += "\n]";
  return text;
}

std::string json_payload(const TraceJson& value) { return python_json_dumps(value, PythonJsonLayout::IndentZero); }

TraceWriter::TraceWriter(std::filesystem::path directory, std::optional<uint32_t> rank)
    : enabled_(!directory.empty()), directory_(std::move(directory)), rank_(rank) {}

TraceWriter::~TraceWriter() {
  if (fd_ >= 0) close(fd_);
}

TraceWriter& TraceWriter::from_environment() {
  static TraceWriter writer([] {
    for (const char* name : {"TORCH_TRACE", "TORCH_DTRACE"})
      if (const char* value = std::getenv(name); value && *value) return std::filesystem::path(value);
    return std::filesystem::path();
  }());
  return writer;
}

void TraceWriter::set_rank(std::optional<uint32_t> rank) {
  std::lock_guard lock(mutex_);
  rank_ = rank;
}

std::filesystem::path TraceWriter::file() const {
  std::lock_guard lock(mutex_);
  return file_;
}

void TraceWriter::disable_locked(const std::string& message) {
  std::cerr << "TORCH_TRACE: " << message << "; tracing disabled" << std::endl;
  enabled_ = false;
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
}

bool TraceWriter::open_locked() {
  if (!enabled_) return false;
  if (fd_ >= 0) return true;
  std::error_code error;
  std::filesystem::create_directories(directory_, error);
  if (error) {
    disable_locked("cannot create " + directory_.string() + ": " + error.message());
    return false;
  }
  const std::string stem = "dedicated_log_torch_trace_" + (rank_ ? "rank_" + std::to_string(*rank_) + "_" : "");
  for (int attempt = 0; attempt < 100; ++attempt) {
    const auto path = directory_ / (stem + random_name_part() + ".log");
    fd_ = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_APPEND, 0644);
    if (fd_ >= 0) {
      file_ = path;
      return true;
    }
    if (errno != EEXIST) {
      disable_locked("cannot create " + path.string() + ": " + std::strerror(errno));
      return false;
    }
  }
  disable_locked("cannot create a new log file in " + directory_.string());
  return false;
}

uint32_t TraceWriter::intern(std::string_view filename, CallSite caller) {
  if (!enabled()) return 0;
  std::lock_guard lock(mutex_);
  return intern_locked(filename, caller);
}

uint32_t TraceWriter::intern_locked(std::string_view filename, const CallSite& caller) {
  const std::string name(filename);
  if (auto it = interned_.find(name); it != interned_.end()) return it->second;
  const auto index = static_cast<uint32_t>(interned_.size());
  interned_.emplace(name, index);
  write_locked("str", python_json_dumps(TraceJson::array({name, index})), {}, std::nullopt, false, caller);
  return index;
}

TraceJson TraceWriter::frame_list(const std::vector<TraceFrame>& frames, CallSite caller) {
  if (!enabled()) return TraceJson::array();
  std::lock_guard lock(mutex_);
  return frame_list_locked(frames, caller);
}

// Interning writes the "str" records before the record that uses them, as PyTorch does while
// building metadata.
TraceJson TraceWriter::frame_list_locked(const std::vector<TraceFrame>& frames, const CallSite& caller) {
  TraceJson list = TraceJson::array();
  for (const TraceFrame& frame : frames) {
    TraceJson entry = {{"line", frame.line}, {"name", frame.name}, {"filename", intern_locked(frame.filename, caller)}};
    if (frame.loc) entry["loc"] = *frame.loc;
    list.push_back(std::move(entry));
  }
  return list;
}

void TraceWriter::record(std::string_view event_key, const TraceJson& metadata, const TraceContext& context,
                         std::optional<std::string_view> payload, CallSite caller) {
  if (!enabled()) return;
  const std::string metadata_text = python_json_dumps(metadata);
  std::lock_guard lock(mutex_);
  write_locked(event_key, metadata_text, context, payload, true, caller);
}

void TraceWriter::write_locked(std::string_view event_key, const std::string& metadata_text,
                               const TraceContext& context, std::optional<std::string_view> payload,
                               bool with_context, const CallSite& caller) {
  if (!open_locked()) return;
  std::string stack_text;
  if (with_context && !context.compile_id && !context.stack.empty())
    stack_text = python_json_dumps(frame_list_locked(context.stack, caller));
  std::string text = glog_prefix(caller);
  text += '{';
  text += python_json_dumps(TraceJson(std::string(event_key)));
  text += ": ";
  text += metadata_text;
  if (with_context) {
    if (rank_) {
      append_key(text, "rank");
      text += std::to_string(*rank_);
    }
    if (const auto& id = context.compile_id) {
      const std::pair<const char*, const std::optional<uint32_t>*> parts[] = {
          {"compiled_autograd_id", &id->compiled_autograd_id},
          {"frame_id", &id->frame_id},
          {"frame_compile_id", &id->frame_compile_id},
          {"attempt", &id->attempt}};
      for (const auto& [key, part] : parts) {
        if (!*part) continue;
        append_key(text, key);
        text += std::to_string(**part);
      }
    } else if (!stack_text.empty()) {
      append_key(text, "stack");
      text += stack_text;
    }
  }
  std::string payload_text;
  if (payload) {
    payload_text = readable_payload(*payload);
    append_key(text, "has_payload");
    text += '"';
    if (!md5_) md5_.emplace();
    text += md5_->hex(payload_text);
    text += '"';
  }
  text += '}';
  if (payload) {
    size_t begin = 0;
    for (;;) {
      const size_t end = payload_text.find('\n', begin);
      text += "\n\t";
      text.append(payload_text, begin, end == std::string::npos ? std::string::npos : end - begin);
      if (end == std::string::npos) break;
      begin = end + 1;
    }
  }
  text += '\n';
  for (size_t written = 0; written < text.size();) {
    const ssize_t n = ::write(fd_, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      disable_locked("cannot write " + file_.string() + ": " + std::strerror(errno));
      return;
    }
    written += static_cast<size_t>(n);
  }
}

void TraceWriter::artifact(std::string_view name, ArtifactEncoding encoding, std::string_view payload,
                           const TraceContext& context, CallSite caller) {
  record("artifact",
         TraceJson{{"name", std::string(name)}, {"encoding", encoding == ArtifactEncoding::Json ? "json" : "string"}},
         context, payload, caller);
}

void TraceWriter::chromium_event(std::string_view name, ChromiumPhase phase, const TraceContext& context,
                                 const TraceJson& args, CallSite caller) {
  if (!enabled()) return;
  TraceJson event_args = args.is_object() ? args : TraceJson::object();
  // The payload names the compilation, not its attempt ("0/0" all through a restart, as
  // PyTorch's); the record's header carries the attempt.
  std::optional<CompileId> compilation = context.compile_id;
  if (compilation) compilation->attempt.reset();
  event_args["compile_id"] = compilation ? compilation->pytorch_text() : "None";
  TraceJson event = {{"name", std::string(name)},
                     {"ts", epoch_microseconds()},
                     {"args", std::move(event_args)},
                     {"ph", phase == ChromiumPhase::Begin ? "B" : phase == ChromiumPhase::End ? "E" : "i"},
                     {"cat", "dynamo_timed"},
                     {"tid", 0},
                     {"pid", 0}};
  if (phase == ChromiumPhase::Instant) event["s"] = "p";
  // PyTorch logs chromium events without a stack even outside a compilation.
  TraceContext ids_only;
  ids_only.compile_id = context.compile_id;
  record("chromium_event", TraceJson::object(), ids_only, json_payload(event), caller);
}

void TraceWriter::compilation_metrics(const TraceJson& metrics, const TraceContext& context, CallSite caller) {
  record("compilation_metrics", metrics, context, std::nullopt, caller);
}

}  // namespace kiln::trace
