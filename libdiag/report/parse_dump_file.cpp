// `dump_file` (reference §4.4): FX-generated module source as a page with one anchor per line,
// so stack frames in "<eval_with_key>.N" can link to dump_file/eval_with_key_N.html#L<line>.
#include "libdiag/report/html_escape.h"
#include "libdiag/report/metadata_fields.h"
#include "libdiag/report/page_templates.h"
#include "libdiag/report/parser.h"
#include "libdiag/report/stack_frame.h"

namespace kiln::report {

void parse_dump_file(ParseContext& context) {
  const std::string_view name = string_field(context.metadata, "name").value_or("");
  std::string lines;
  const std::string_view payload = context.payload();
  size_t start = 0, number = 1;
  while (start <= payload.size()) {
    size_t end = payload.find('\n', start);
    if (end == std::string_view::npos) end = payload.size();
    lines += "<span id=\"L" + std::to_string(number++) + "\">";
    append_html_escaped(lines, payload.substr(start, end - start));
    lines += "</span>";
    start = end + 1;
  }
  // "<eval_with_key>.5" -> dump_file/eval_with_key_5.html, the page stack frames link to.
  const auto fx_id = eval_with_key_id(name);
  const std::string stem = fx_id ? "eval_with_key_" + std::to_string(*fx_id) : std::string(name);
  context.emit({ParserOutput::Kind::GlobalFile, "dump_file/" + stem + ".html",
                render_page("dump_file.html", mstch::map{{"name", html_escape(name)}, {"lines_html", lines}}), {}});
}

}  // namespace kiln::report
