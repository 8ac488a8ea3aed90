// `dynamo_guards` (reference §4.4): a JSON list of {code, stack, user_stack} rendered as a list
// of guard expressions. The raw payload also goes to payloads/ (this page is a rendering).
#include "libdiag/report/html_escape.h"
#include "libdiag/report/page_templates.h"
#include "libdiag/report/parser.h"
#include "libdiag/trace/json_parse.h"

namespace kiln::report {

void parse_dynamo_guards(ParseContext& context) {
  const std::string_view payload = context.payload();
  simdjson::dom::element value;
  if (auto error = trace::parse_json(context.state.payload_parser, payload).get(value))
    throw ParserFailure(std::string("Failed to parse guards json: ") + simdjson::error_message(error), true);
  simdjson::dom::array guards;
  if (value.get_array().get(guards)) throw ParserFailure("Failed to parse guards json: expected a list", true);
  mstch::array codes;
  for (simdjson::dom::element guard : guards) {
    std::string_view code;
    if (guard["code"].get_string().get(code))
      throw ParserFailure("Failed to parse guards json: missing field `code`", true);
    codes.push_back(html_escape(code));
  }
  context.emit({ParserOutput::Kind::File, "dynamo_guards.html", render_page("dynamo_guards.html", mstch::map{{"guards", codes}}), {}});
}

}  // namespace kiln::report
