#include "libdiag/trace/trace_input.h"

#include <zlib.h>

#include <fstream>
#include <stdexcept>
#include <streambuf>
#include <string_view>
#include <vector>

namespace kiln::trace {
namespace {

constexpr unsigned char kGzipMagic[] = {0x1f, 0x8b};
constexpr size_t kCompressedBlock = size_t{1} << 18;
constexpr size_t kInflatedBlock = size_t{1} << 20;

}  // namespace

bool is_gzip_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  char magic[2] = {};
  return file.read(magic, 2) && static_cast<unsigned char>(magic[0]) == kGzipMagic[0] &&
         static_cast<unsigned char>(magic[1]) == kGzipMagic[1];
}

bool looks_like_trace_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  char start[5] = {};
  if (!file.read(start, sizeof start)) return false;
  if (static_cast<unsigned char>(start[0]) == kGzipMagic[0] && static_cast<unsigned char>(start[1]) == kGzipMagic[1])
    return true;
  if (std::string_view("VIWEF").find(start[0]) == std::string_view::npos) return false;
  for (int i = 1; i < 5; ++i)
    if (start[i] < '0' || start[i] > '9') return false;
  return true;
}

// A read-only stream buffer that inflates `source`. On corrupt or truncated data it records why
// and reports the end of the stream, so the reader keeps every line before the damage.
class TraceInput::GzipBuffer : public std::streambuf {
 public:
  explicit GzipBuffer(std::istream& source) : source_(source), compressed_(kCompressedBlock), inflated_(kInflatedBlock) {
    if (inflateInit2(&zstream_, 15 + 16) != Z_OK) throw std::runtime_error("cannot initialise zlib");
    setg(inflated_.data(), inflated_.data(), inflated_.data());
  }
  ~GzipBuffer() override { inflateEnd(&zstream_); }

  const std::optional<std::string>& error() const { return error_; }

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    while (!finished_) {
      if (zstream_.avail_in == 0 && !refill()) {
        // The file ended inside a member (or right after its header).
        if (member_started_) fail("truncated gzip data: the file ends before the end of its compressed stream");
        finished_ = true;
        break;
      }
      zstream_.next_out = reinterpret_cast<Bytef*>(inflated_.data());
      zstream_.avail_out = static_cast<uInt>(inflated_.size());
      const uInt before = zstream_.avail_in;
      const int status = inflate(&zstream_, Z_NO_FLUSH);
      consumed_ += before - zstream_.avail_in;
      member_started_ = true;
      const size_t produced = inflated_.size() - zstream_.avail_out;
      if (status == Z_STREAM_END) {
        // Another gzip member may follow (concatenated files), as `gzip -d` reads them.
        inflateReset(&zstream_);
        member_started_ = false;
      } else if (status != Z_OK && status != Z_BUF_ERROR) {
        fail(std::string("corrupt gzip data at compressed byte ") + std::to_string(consumed_) + ": " +
             (zstream_.msg ? zstream_.msg : "inflate failed"));
      }
      if (produced > 0) {
        setg(inflated_.data(), inflated_.data(), inflated_.data() + produced);
        return traits_type::to_int_type(*gptr());
      }
    }
    return traits_type::eof();
  }

 private:
  bool refill() {
    source_.read(compressed_.data(), static_cast<std::streamsize>(compressed_.size()));
    const auto got = static_cast<uInt>(source_.gcount());
    if (source_.bad()) {
      fail("error while reading the compressed file");
      return false;
    }
    zstream_.next_in = reinterpret_cast<Bytef*>(compressed_.data());
    zstream_.avail_in = got;
    return got > 0;
  }

  void fail(std::string message) {
    if (!error_) error_ = std::move(message);
    finished_ = true;
  }

  std::istream& source_;
  std::vector<char> compressed_, inflated_;
  z_stream zstream_{};
  uint64_t consumed_ = 0;  // compressed bytes inflate has taken
  bool member_started_ = false;
  bool finished_ = false;
  std::optional<std::string> error_;
};

TraceInput::TraceInput(const std::filesystem::path& path) {
  compressed_ = is_gzip_file(path);
  file_ = std::make_unique<std::ifstream>(path, std::ios::binary);
  if (!*file_) throw std::runtime_error("cannot open " + path.string());
  stream_ = file_.get();
  if (compressed_) {
    gzip_ = std::make_unique<GzipBuffer>(*file_);
    inflated_ = std::make_unique<std::istream>(gzip_.get());
    stream_ = inflated_.get();
  }
}

TraceInput::~TraceInput() = default;

std::optional<std::string> TraceInput::error() const { return gzip_ ? gzip_->error() : std::nullopt; }

}  // namespace kiln::trace
