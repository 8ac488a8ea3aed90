#include "libdiag/report/kernel_stack_traces.h"

#include <simdjson.h>

#include "libdiag/report/html_escape.h"
#include "libdiag/trace/json_parse.h"

namespace kiln::report {

bool is_kernel_stack_traces_json(std::string_view file_name) {
  constexpr std::string_view kPrefix = "inductor_provenance_tracking_kernel_stack_traces", kSuffix = ".json";
  return file_name.size() >= kPrefix.size() + kSuffix.size() && file_name.substr(0, kPrefix.size()) == kPrefix &&
         file_name.substr(file_name.size() - kSuffix.size()) == kSuffix;
}

std::string readable_companion_name(std::string_view json_file_name) {
  return std::string(json_file_name.substr(0, json_file_name.size() - 5)) + "_readable.html";
}

std::optional<std::string> render_kernel_stack_traces_readable(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::dom::element document;
  if (trace::parse_json(parser, json).get(document)) return std::nullopt;
  std::string html = "<html><body>\n";
  simdjson::dom::object kernels;
  if (!document.get_object().get(kernels)) {
    for (auto [kernel, traces] : kernels) {
      html += "<h3>";
      append_html_escaped(html, kernel);
      html += "</h3>\n";
      simdjson::dom::array list;
      if (traces.get_array().get(list)) continue;
      for (simdjson::dom::element item : list) {
        std::string_view trace;
        if (item.get_string().get(trace)) continue;
        // Traces arrive with literal "\n" sequences; show them as lines.
        std::string text;
        for (size_t i = 0; i < trace.size(); ++i) {
          if (trace[i] == '\\' && i + 1 < trace.size() && trace[i + 1] == 'n') {
            text += '\n';
            ++i;
          } else {
            text += trace[i];
          }
        }
        while (!text.empty() && text.back() == '\n') text.pop_back();
        html += "<pre>";
        append_html_escaped(html, text);
        html += "</pre>\n";
      }
    }
  }
  html += "</body></html>\n";
  return html;
}

}  // namespace kiln::report
