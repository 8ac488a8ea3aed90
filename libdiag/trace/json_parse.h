#pragma once
// The one way text from a log is handed to simdjson: its parser copies the input with memcpy,
// which is undefined for the null data() of an empty string_view (UBSan reports it), so empty
// text is answered with simdjson's EMPTY error before the parser sees it.
#include <string_view>

#include <simdjson.h>

namespace kiln::trace {

inline simdjson::simdjson_result<simdjson::dom::element> parse_json(simdjson::dom::parser& parser,
                                                                    std::string_view text,
                                                                    bool realloc_if_needed = true) {
  if (text.empty()) return simdjson::EMPTY;
  return parser.parse(text.data(), text.size(), realloc_if_needed);
}

}  // namespace kiln::trace
