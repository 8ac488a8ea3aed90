#pragma once
// Opens a trace file for the streaming reader: a plain log, or a gzip-compressed one (known by
// its magic bytes 1f 8b, whatever its name says), inflated block by block as it is read so
// memory stays bounded. Concatenated gzip members are read one after the other, as gzip does.
#include <cstdint>
#include <filesystem>
#include <istream>
#include <memory>
#include <optional>
#include <string>

namespace kiln::trace {

// Whether the file starts with the gzip magic bytes.
bool is_gzip_file(const std::filesystem::path& path);
// Whether the file looks like a trace: gzip-compressed, or its first line has a glog prefix's
// level letter and date ("V1122 ..."). Used to pick logs out of a folder, never to reject input.
bool looks_like_trace_file(const std::filesystem::path& path);

class TraceInput {
 public:
  // Throws std::runtime_error when the file cannot be opened.
  explicit TraceInput(const std::filesystem::path& path);
  ~TraceInput();
  TraceInput(const TraceInput&) = delete;
  TraceInput& operator=(const TraceInput&) = delete;

  std::istream& stream() { return *stream_; }
  bool compressed() const { return compressed_; }
  // Why the compressed data ended early (corrupt or truncated), with where; the stream ends at
  // that point, so everything before it is still read.
  std::optional<std::string> error() const;

 private:
  class GzipBuffer;
  bool compressed_ = false;
  std::unique_ptr<std::istream> file_;
  std::unique_ptr<GzipBuffer> gzip_;
  std::unique_ptr<std::istream> inflated_;
  std::istream* stream_ = nullptr;
};

}  // namespace kiln::trace
