#pragma once
// Physical lines of a trace, read in large blocks (reference §5: lines split at "\n", a "\r"
// before it dropped, every line checked for valid UTF-8). Memory holds one block, or the
// longest line if that is longer; never the whole input.
#include <cstdint>
#include <istream>
#include <string_view>
#include <vector>

namespace kiln::trace {

struct TraceLine {
  std::string_view text;  // without the "\n" or "\r\n" that ended it
  uint64_t number = 0;    // 1-based physical line number
  bool valid_utf8 = true;
};

class LineSource {
 public:
  static constexpr size_t kDefaultBlockSize = size_t{8} << 20;

  explicit LineSource(std::istream& input, size_t block_size = kDefaultBlockSize);

  // The next line; its text stays valid until the next call. False at the end of the input.
  // Throws std::runtime_error when reading fails.
  bool next(TraceLine& line);
  // Makes the next call of next() return the line just returned once more.
  void unread() { unread_ = true; }

  uint64_t bytes_read() const { return bytes_read_; }
  uint64_t lines_read() const { return line_number_; }

 private:
  bool refill();
  bool utf8_valid(size_t begin, size_t end);

  std::istream& input_;
  std::vector<char> buffer_;
  size_t begin_ = 0;          // first unconsumed byte
  size_t end_ = 0;            // end of the data in buffer_
  size_t scanned_ = 0;        // [begin_, scanned_) holds no "\n"
  size_t utf8_valid_end_ = 0;   // [begin_, utf8_valid_end_) is known to be valid UTF-8
  size_t utf8_invalid_end_ = 0; // lines before this are checked one by one (their block failed)
  bool at_eof_ = false;
  bool unread_ = false;
  TraceLine last_;
  uint64_t line_number_ = 0;
  uint64_t bytes_read_ = 0;
};

}  // namespace kiln::trace
