// `inductor_output_code` (reference §4.4): the generated Python module, syntax-highlighted into
// inductor_output_code_<module stem>_N.html (the raw payload also goes to payloads/), or copied
// to .txt with --plain-text.
#include "libdiag/report/metadata_fields.h"
#include "libdiag/report/parser.h"
#include "libdiag/report/python_highlight.h"

namespace kiln::report {
namespace {

// Path::file_stem of the module path: the last component without its last extension.
std::string file_stem(std::string_view path) {
  const size_t slash = path.rfind('/');
  std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const size_t dot = name.rfind('.');
  if (dot != std::string_view::npos && dot > 0) name = name.substr(0, dot);
  return std::string(name);
}

}  // namespace

void parse_inductor_output_code(ParseContext& context) {
  std::string stem = "inductor_output_code";
  if (auto filename = string_field(context.metadata, "filename"); filename && !file_stem(*filename).empty()) {
    stem += '_';
    stem += file_stem(*filename);
  }
  if (context.options.plain_text) {
    context.emit({ParserOutput::Kind::PayloadFile, stem + ".txt", {}, {}});
    return;
  }
  context.emit({ParserOutput::Kind::File, stem + ".html", highlight_python_html(context.payload()), {}});
}

}  // namespace kiln::report
