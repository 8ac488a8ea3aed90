#pragma once
// str is UTF-8 inside the interpreter; len(), indexing and iteration count code points.
#include <string>
#include <string_view>
#include <vector>

namespace kiln::python {

// Each code point as its own UTF-8 string.
std::vector<std::string> utf8_characters(std::string_view text);
size_t utf8_length(std::string_view text);

}  // namespace kiln::python
