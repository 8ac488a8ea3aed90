// The legacy backward-compilation metrics of 2024 PyTorch (reference §6.8), each on a small page.
#include "libdiag/report/html_escape.h"
#include "libdiag/report/metadata_fields.h"
#include "libdiag/report/page_templates.h"
#include "libdiag/report/parser.h"
#include "libdiag/report/sorted_json.h"

namespace kiln::report {
namespace {

// Failure fields shared by both pages; a field shows only when set and non-empty.
void add_failure(mstch::map& page, simdjson::dom::element metadata) {
  auto fail_type = string_field(metadata, "fail_type");
  if (fail_type && !fail_type->empty()) page.emplace("fail_type", html_escape(*fail_type));
  page.emplace("fail_reason", html_escape(string_field(metadata, "fail_reason").value_or("")));
}

void add_nonzero_seconds(mstch::map& page, simdjson::dom::element metadata, const char* field) {
  auto seconds = double_field(metadata, field);
  if (!seconds || *seconds == 0) return;
  std::string text;
  append_json_double(text, *seconds);
  page.emplace(field, text);
}

}  // namespace

void parse_bwd_compilation_metrics(ParseContext& context) {
  mstch::map page{{"compile_id", html_escape(context.record.compile_id.display())}};
  add_nonzero_seconds(page, context.metadata, "inductor_compile_time_s");
  add_nonzero_seconds(page, context.metadata, "code_gen_time_s");
  add_failure(page, context.metadata);
  context.emit({ParserOutput::Kind::File, "bwd_compilation_metrics.html", render_page("bwd_compilation_metrics.html", page), {}});
}

void parse_aot_autograd_backward_metrics(ParseContext& context) {
  mstch::map page{{"compile_id", html_escape(context.record.compile_id.display())}};
  add_failure(page, context.metadata);
  context.emit({ParserOutput::Kind::File, "aot_autograd_backward_compilation_metrics.html",
                render_page("aot_autograd_backward_compilation_metrics.html", page), {}});
}

}  // namespace kiln::report
