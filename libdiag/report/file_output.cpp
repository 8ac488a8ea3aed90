#include "libdiag/report/file_output.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "libdiag/report/report.h"

namespace kiln::report {
namespace {

constexpr size_t kBufferSize = 1 << 20;

[[noreturn]] void fail(const std::filesystem::path& path, const char* what) {
  throw ReportError(std::string(what) + " " + path.string() + ": " + std::strerror(errno));
}

int open_for_writing(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail(path, "cannot create");
  return fd;
}

void write_all(int fd, std::string_view data, const std::filesystem::path& path) {
  while (!data.empty()) {
    ssize_t written = ::write(fd, data.data(), data.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      fail(path, "cannot write");
    }
    data.remove_prefix(static_cast<size_t>(written));
  }
}

}  // namespace

void write_file(const std::filesystem::path& path, std::string_view content) {
  int fd = open_for_writing(path);
  try {
    write_all(fd, content, path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0) fail(path, "cannot close");
}

BufferedWriter::BufferedWriter(const std::filesystem::path& path) : path_(path), fd_(open_for_writing(path)) {
  buffer_.reserve(kBufferSize + kBufferSize / 4);
}

BufferedWriter::~BufferedWriter() {
  if (fd_ >= 0) ::close(fd_);  // an error path: close() was not reached, the report is abandoned
}

void BufferedWriter::write(std::string_view text) {
  buffer_ += text;
  maybe_flush();
}

void BufferedWriter::maybe_flush() {
  if (buffer_.size() >= kBufferSize) flush();
}

void BufferedWriter::flush() {
  write_all(fd_, buffer_, path_);
  buffer_.clear();
}

void BufferedWriter::close() {
  if (fd_ < 0) return;
  flush();
  int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail(path_, "cannot close");
}

}  // namespace kiln::report
