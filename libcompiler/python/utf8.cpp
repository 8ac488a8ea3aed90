#include "libcompiler/python/utf8.h"

namespace kiln::python {

namespace {

struct Range {
  uint32_t first, last;
};

bool in_ranges(uint32_t cp, const Range* ranges, size_t count) {
  for (size_t i = 0; i < count; ++i)
    if (cp >= ranges[i].first && cp <= ranges[i].last) return true;
  return false;
}

// Blocks of punctuation, symbols, spaces and controls: never part of an identifier.
constexpr Range kNotIdentifier[] = {
    {0x80, 0xA9},     {0xAB, 0xB4},     {0xB6, 0xB9},     {0xBB, 0xBF},     {0xD7, 0xD7},
    {0xF7, 0xF7},     {0x2000, 0x206F}, {0x20A0, 0x20CF}, {0x2190, 0x2BFF}, {0x2E00, 0x2E7F},
    {0x3000, 0x3004}, {0x3008, 0x3020}, {0xD800, 0xF8FF}, {0xFE30, 0xFE4F}, {0xFF00, 0xFF0F},
    {0xFF1A, 0xFF20}, {0xFF3B, 0xFF3E}, {0xFF40, 0xFF40}, {0xFF5B, 0xFF65}, {0xFFF0, 0xFFFF},
    {0x1F000, 0x1FAFF}, {0xE0000, 0x10FFFF},
};

// Controls, format characters, separators and private use: escaped by repr().
constexpr Range kNotPrintable[] = {
    {0x00, 0x1F},     {0x7F, 0xA0},     {0xAD, 0xAD},     {0x1680, 0x1680}, {0x180E, 0x180E},
    {0x2000, 0x200F}, {0x2028, 0x202F}, {0x205F, 0x206F}, {0x3000, 0x3000}, {0xD800, 0xF8FF},
    {0xFEFF, 0xFEFF}, {0xFFF9, 0xFFFB}, {0xFFFE, 0xFFFF}, {0xE0000, 0xE0FFF}, {0xF0000, 0x10FFFF},
};

}  // namespace

int32_t decode_utf8(std::string_view text, size_t& pos) {
  auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  unsigned char lead = byte(pos);
  if (lead < 0x80) {
    ++pos;
    return lead;
  }
  int length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
  if (length == 0 || lead > 0xF4 || pos + length > text.size()) {
    ++pos;
    return -1;
  }
  uint32_t cp = lead & (0x7F >> length);
  for (int i = 1; i < length; ++i) {
    if ((byte(pos + i) & 0xC0) != 0x80) {
      ++pos;
      return -1;
    }
    cp = (cp << 6) | (byte(pos + i) & 0x3F);
  }
  static constexpr uint32_t kMinimum[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMinimum[length] || cp > 0x10FFFF) {
    ++pos;
    return -1;
  }
  pos += length;
  return static_cast<int32_t>(cp);
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

bool is_valid_utf8(std::string_view text, Utf8Problem& problem) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t start = pos;
    int32_t cp = decode_utf8(text, pos);
    if (cp >= 0 && !(cp >= 0xD800 && cp <= 0xDFFF)) continue;
    unsigned char lead = static_cast<unsigned char>(text[start]);
    problem.offset = start;
    if (lead >= 0x80 && lead < 0xC2) {
      problem.reason = "invalid start byte";
    } else if (lead > 0xF4) {
      problem.reason = "invalid start byte";
    } else {
      size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
      bool truncated = true;
      for (size_t i = 1; i < length && start + i < text.size(); ++i)
        if ((static_cast<unsigned char>(text[start + i]) & 0xC0) != 0x80) truncated = false;
      problem.reason = (truncated && start + length > text.size()) ? "unexpected end of data" : "invalid continuation byte";
    }
    return false;
  }
  return true;
}

bool is_identifier_start(uint32_t cp) {
  if (cp < 0x80) return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || cp == '_';
  // Controls, format characters and separators (a byte-order mark past the start, say) are never
  // identifier characters.
  return !in_ranges(cp, kNotIdentifier, std::size(kNotIdentifier)) && is_printable(cp);
}

bool is_identifier_continue(uint32_t cp) {
  if (cp < 0x80) return is_identifier_start(cp) || (cp >= '0' && cp <= '9');
  return cp == 0xB7 || cp == 0x203F || cp == 0x2040 || is_identifier_start(cp);
}

bool is_printable(uint32_t cp) { return !in_ranges(cp, kNotPrintable, std::size(kNotPrintable)); }

}  // namespace kiln::python
