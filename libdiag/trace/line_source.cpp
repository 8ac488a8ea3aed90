#include "libdiag/trace/line_source.h"

#include <cstring>
#include <stdexcept>

#include <simdjson.h>

namespace kiln::trace {

LineSource::LineSource(std::istream& input, size_t block_size)
    : input_(input), buffer_(block_size > 0 ? block_size : 1) {}

bool LineSource::refill() {
  if (at_eof_) return false;
  // Keep the unfinished line: move it to the front, and grow only if it fills the buffer.
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    scanned_ -= begin_;
    utf8_valid_end_ = utf8_valid_end_ > begin_ ? utf8_valid_end_ - begin_ : 0;
    utf8_invalid_end_ = utf8_invalid_end_ > begin_ ? utf8_invalid_end_ - begin_ : 0;
    begin_ = 0;
  }
  if (end_ == buffer_.size()) buffer_.resize(buffer_.size() * 2);
  input_.read(buffer_.data() + end_, static_cast<std::streamsize>(buffer_.size() - end_));
  const auto got = static_cast<size_t>(input_.gcount());
  if (input_.bad()) throw std::runtime_error("error while reading the trace");
  if (got == 0) at_eof_ = true;
  end_ += got;
  bytes_read_ += got;
  return got > 0;
}

// Validates whole blocks at once; once a block fails, its lines are checked one by one so a
// single bad byte costs one re-check per line, not per block.
bool LineSource::utf8_valid(size_t begin, size_t end) {
  if (end <= utf8_valid_end_) return true;
  if (end > utf8_invalid_end_) {
    const char* last_newline = static_cast<const char*>(memrchr(buffer_.data() + begin, '\n', end_ - begin));
    const size_t block_end = last_newline && static_cast<size_t>(last_newline - buffer_.data()) >= end
                                 ? static_cast<size_t>(last_newline - buffer_.data()) + 1
                                 : end;
    if (simdjson::validate_utf8(buffer_.data() + begin, block_end - begin)) {
      utf8_valid_end_ = block_end;
      return true;
    }
    utf8_invalid_end_ = block_end;
  }
  return simdjson::validate_utf8(buffer_.data() + begin, end - begin);
}

bool LineSource::next(TraceLine& line) {
  if (unread_) {
    unread_ = false;
    line = last_;
    return true;
  }
  for (;;) {
    const void* newline = scanned_ < end_ ? std::memchr(buffer_.data() + scanned_, '\n', end_ - scanned_) : nullptr;
    size_t line_end;      // end of the text
    size_t next_begin;    // first byte of the following line
    if (newline) {
      line_end = static_cast<size_t>(static_cast<const char*>(newline) - buffer_.data());
      next_begin = line_end + 1;
      // Like Rust's lines(): "\r" is dropped only before "\n".
      if (line_end > begin_ && buffer_[line_end - 1] == '\r') --line_end;
    } else {
      scanned_ = end_;
      if (refill()) continue;
      if (begin_ == end_) return false;
      line_end = next_begin = end_;  // last line without "\n"
    }
    last_.text = std::string_view(buffer_.data() + begin_, line_end - begin_);
    last_.number = ++line_number_;
    last_.valid_utf8 = utf8_valid(begin_, line_end);
    begin_ = scanned_ = next_begin;
    line = last_;
    return true;
  }
}

}  // namespace kiln::trace
