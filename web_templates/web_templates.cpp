#include "web_templates/web_templates.h"

#include <stdexcept>
#include <string>
#include <utility>

namespace kiln::web_templates {
namespace detail {
extern const std::pair<std::string_view, std::string_view> kTemplates[];
}

std::string_view get(std::string_view name) {
  for (const auto* entry = detail::kTemplates; !entry->first.empty(); ++entry) {
    if (entry->first == name) return entry->second;
  }
  throw std::out_of_range("no web template named " + std::string(name));
}

}  // namespace kiln::web_templates
