#include "libcompiler/python/interp/utf8_text.h"

namespace kiln::python {
namespace {
// Bytes of the code point whose first byte is `lead` (1 for stray continuation bytes).
size_t sequence_length(unsigned char lead) {
  if (lead < 0xC0) return 1;
  if (lead < 0xE0) return 2;
  if (lead < 0xF0) return 3;
  return 4;
}
}  // namespace

std::vector<std::string> utf8_characters(std::string_view text) {
  std::vector<std::string> out;
  for (size_t i = 0; i < text.size();) {
    size_t n = std::min(sequence_length(static_cast<unsigned char>(text[i])), text.size() - i);
    out.emplace_back(text.substr(i, n));
    i += n;
  }
  return out;
}

size_t utf8_length(std::string_view text) {
  size_t count = 0;
  for (unsigned char c : text)
    if ((c & 0xC0) != 0x80) ++count;
  return count;
}

}  // namespace kiln::python
