#pragma once
// Rendering the report's HTML pages from the embedded mustache templates (web_templates/).
#include <string>
#include <string_view>

#include <mstch/mstch.hpp>

namespace kiln::report {

// Renders template file `name` (e.g. "compilation_metrics.html") with `context`. The templates
// insert values unescaped ({{{x}}}): every value must already be HTML (text from a log goes
// through html_escape first).
std::string render_page(std::string_view name, const mstch::map& context);

}  // namespace kiln::report
