#pragma once
// Writing report files: whole files in one system call, streams through a large buffer.
#include <filesystem>
#include <string>
#include <string_view>

namespace kiln::report {

// Writes `content` to `path` (created or truncated). Throws ReportError on failure.
void write_file(const std::filesystem::path& path, std::string_view content);

// An append-only file written through a 1 MiB buffer (raw.jsonl, chromium_events.json).
class BufferedWriter {
 public:
  explicit BufferedWriter(const std::filesystem::path& path);
  ~BufferedWriter();
  BufferedWriter(const BufferedWriter&) = delete;
  BufferedWriter& operator=(const BufferedWriter&) = delete;

  void write(std::string_view text);
  // The buffer to append to directly; call maybe_flush() afterwards.
  std::string& buffer() { return buffer_; }
  void maybe_flush();
  void close();

 private:
  void flush();
  std::filesystem::path path_;
  int fd_ = -1;
  std::string buffer_;
};

}  // namespace kiln::report
