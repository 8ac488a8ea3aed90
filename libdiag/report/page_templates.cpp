#include "libdiag/report/page_templates.h"

#include <map>

#include "web_templates/web_templates.h"

namespace kiln::report {
namespace {

// The style sheets and scripts pages include as partials: "report.css" is {{> report_css}}.
const std::map<std::string, std::string>& partials() {
  static const std::map<std::string, std::string> table = [] {
    std::map<std::string, std::string> partials;
    for (std::string_view file : {"report.css", "failures.css", "toggle_list.js", "query_params.js", "index_filter.js"}) {
      std::string name(file);
      name[name.find('.')] = '_';
      partials.emplace(name, std::string(web_templates::get(file)));
    }
    return partials;
  }();
  return table;
}

}  // namespace

std::string render_page(std::string_view name, const mstch::map& context) {
  return mstch::render(std::string(web_templates::get(name)), context, partials());
}

}  // namespace kiln::report
