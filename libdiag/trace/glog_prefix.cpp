#include "libdiag/trace/glog_prefix.h"

#include <ctime>

#include <cstdio>
#include <cstring>
#include <limits>

namespace kiln::trace {
namespace {

constexpr size_t npos = std::string_view::npos;

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_level(char c) { return c == 'V' || c == 'I' || c == 'W' || c == 'E' || c == 'C'; }

// Length of the UTF-8 character starting with `lead` (the regex `.` matches one character).
size_t utf8_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xF0) return 4;
  if (lead >= 0xE0) return 3;
  if (lead >= 0xC0) return 2;
  return 1;
}

template <typename T>
T parse_saturating(std::string_view digits) {
  T value = 0;
  for (char c : digits) {
    const T digit = static_cast<T>(c - '0');
    if (value > (std::numeric_limits<T>::max() - digit) / 10) return std::numeric_limits<T>::max();
    value = static_cast<T>(value * 10 + digit);
  }
  return value;
}

// A hand-written equivalent of tlparse's unanchored search for
//   ([VIWEC])(\d{2})(\d{2}) (\d{2}):(\d{2}):(\d{2}).(\d{6}) (\d+)([^:]+):(\d+)\] (.)
// with leftmost-first semantics. `\d` is ASCII here (Rust's is Unicode, but tlparse then
// panics converting such digits). Linear time: the first colon after a position and the
// match of the tail after a colon are cached, since consecutive start positions share them.
class PrefixSearch {
 public:
  explicit PrefixSearch(std::string_view line) : line_(line) {}

  std::optional<GlogPrefix> find() {
    for (size_t start = 0; start < line_.size(); ++start) {
      if (!is_level(line_[start])) continue;
      if (auto prefix = match_at(start)) return prefix;
    }
    return std::nullopt;
  }

 private:
  bool digits_at(size_t pos, size_t count) const {
    if (pos + count > line_.size()) return false;
    for (size_t i = 0; i < count; ++i)
      if (!is_digit(line_[pos + i])) return false;
    return true;
  }
  bool char_at(size_t pos, char c) const { return pos < line_.size() && line_[pos] == c; }
  uint8_t two_digits(size_t pos) const { return static_cast<uint8_t>((line_[pos] - '0') * 10 + (line_[pos + 1] - '0')); }

  size_t first_colon_from(size_t pos) {
    if (colon_search_from_ == npos || pos < colon_search_from_ || (colon_at_ != npos && pos > colon_at_)) {
      const void* hit = pos < line_.size() ? std::memchr(line_.data() + pos, ':', line_.size() - pos) : nullptr;
      colon_at_ = hit ? static_cast<size_t>(static_cast<const char*>(hit) - line_.data()) : npos;
      colon_search_from_ = pos;
    }
    return colon_at_;
  }

  // ":(\d+)\] (.)" at `colon`: fills lineno and envelope_offset.
  bool match_tail(size_t colon, GlogPrefix& prefix) {
    if (colon != tail_colon_) {
      tail_colon_ = colon;
      size_t end = colon + 1;
      while (end < line_.size() && is_digit(line_[end])) ++end;
      tail_ok_ = end > colon + 1 && char_at(end, ']') && char_at(end + 1, ' ') && end + 2 < line_.size();
      if (tail_ok_) {
        tail_lineno_ = parse_saturating<uint32_t>(line_.substr(colon + 1, end - colon - 1));
        tail_envelope_offset_ = end + 2;
      }
    }
    prefix.lineno = tail_lineno_;
    prefix.envelope_offset = tail_envelope_offset_;
    return tail_ok_;
  }

  std::optional<GlogPrefix> match_at(size_t start) {
    // "L" "MMDD" " " "HH:MM:SS" <any char> "ffffff" " "
    size_t p = start + 1;
    if (!digits_at(p, 4) || !char_at(p + 4, ' ') || !digits_at(p + 5, 2) || !char_at(p + 7, ':') ||
        !digits_at(p + 8, 2) || !char_at(p + 10, ':') || !digits_at(p + 11, 2) || p + 13 >= line_.size())
      return std::nullopt;
    GlogPrefix prefix;
    prefix.level = line_[start];
    prefix.month = two_digits(p);
    prefix.day = two_digits(p + 2);
    prefix.hour = two_digits(p + 5);
    prefix.minute = two_digits(p + 8);
    prefix.second = two_digits(p + 11);
    p += 13;
    p += utf8_length(static_cast<unsigned char>(line_[p]));
    if (!digits_at(p, 6) || !char_at(p + 6, ' ')) return std::nullopt;
    prefix.microseconds = parse_saturating<uint32_t>(line_.substr(p, 6));
    // (\d+)([^:]+): the digit run gives back its last digit when a colon follows at once.
    const size_t thread_begin = p + 7;
    size_t thread_end = thread_begin;
    while (thread_end < line_.size() && is_digit(line_[thread_end])) ++thread_end;
    if (thread_end == thread_begin) return std::nullopt;
    const size_t colon = first_colon_from(thread_end);
    if (colon == npos) return std::nullopt;
    if (colon == thread_end) {
      if (thread_end - thread_begin < 2) return std::nullopt;
      --thread_end;
    }
    if (!match_tail(colon, prefix)) return std::nullopt;
    prefix.thread = parse_saturating<uint64_t>(line_.substr(thread_begin, thread_end - thread_begin));
    prefix.pathname = line_.substr(thread_end, colon - thread_end);
    return prefix;
  }

  std::string_view line_;
  size_t colon_search_from_ = npos;
  size_t colon_at_ = npos;
  size_t tail_colon_ = npos;
  bool tail_ok_ = false;
  uint32_t tail_lineno_ = 0;
  size_t tail_envelope_offset_ = 0;
};

}  // namespace

std::optional<GlogPrefix> parse_glog_prefix(std::string_view line) { return PrefixSearch(line).find(); }

GlogPrefix make_glog_prefix(char level, std::chrono::system_clock::time_point time, uint64_t process_id,
                            std::string_view pathname, uint32_t lineno) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
  std::tm local{};
  localtime_r(&seconds, &local);
  const auto micros =
      std::chrono::duration_cast<std::chrono::microseconds>(time.time_since_epoch()).count() % 1000000;
  GlogPrefix prefix;
  prefix.level = level;
  prefix.month = static_cast<uint8_t>(local.tm_mon + 1);
  prefix.day = static_cast<uint8_t>(local.tm_mday);
  prefix.hour = static_cast<uint8_t>(local.tm_hour);
  prefix.minute = static_cast<uint8_t>(local.tm_min);
  prefix.second = static_cast<uint8_t>(local.tm_sec);
  prefix.microseconds = static_cast<uint32_t>(micros);
  prefix.thread = process_id;
  prefix.pathname = pathname;
  prefix.lineno = lineno;
  return prefix;
}

std::string format_glog_prefix(const GlogPrefix& prefix) {
  char head[64];
  const int length = std::snprintf(head, sizeof head, "%c%02u%02u %02u:%02u:%02u.%06u %llu", prefix.level,
                                   unsigned{prefix.month}, unsigned{prefix.day}, unsigned{prefix.hour},
                                   unsigned{prefix.minute}, unsigned{prefix.second},
                                   static_cast<unsigned>(prefix.microseconds),
                                   static_cast<unsigned long long>(prefix.thread));
  std::string text(head, static_cast<size_t>(length));
  text += prefix.pathname;
  text += ':';
  text += std::to_string(prefix.lineno);
  text += "] ";
  return text;
}

}  // namespace kiln::trace
