#pragma once
// The HTML/CSS/JS templates of the tlparse report, embedded at build time.
#include <string_view>

namespace kiln::web_templates {

// Contents of the template file `name` (e.g. "index.html"); throws std::out_of_range if unknown.
std::string_view get(std::string_view name);

}  // namespace kiln::web_templates
