#include "libdiag/report/compile_directory.h"

#include <algorithm>

#include "libdiag/report/sorted_json.h"

namespace kiln::report {

std::string render_compile_directory(const std::vector<CompileGroup>& groups) {
  // The malformed-id group is "(unknown)" on pages but "unknown" here.
  std::vector<std::pair<std::string, const CompileGroup*>> keyed;
  for (const CompileGroup& group : groups)
    keyed.emplace_back(group.id.malformed ? "unknown" : group.display, &group);
  std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  if (keyed.empty()) return "{}";

  std::string out = "{";
  for (size_t g = 0; g < keyed.size(); ++g) {
    out += g ? ",\n  " : "\n  ";
    append_json_string(out, keyed[g].first);
    out += ": {\n    \"artifacts\": ";
    const auto& entries = keyed[g].second->entries;
    if (entries.empty()) {
      out += "[]";
    } else {
      out += "[";
      for (size_t e = 0; e < entries.size(); ++e) {
        const OutputEntry& entry = entries[e];
        out += e ? ",\n      {\n        \"name\": " : "\n      {\n        \"name\": ";
        append_json_string(out, entry.name);
        out += ",\n        \"number\": " + std::to_string(entry.number) + ",\n        \"readable_url\": ";
        if (entry.readable_url)
          append_json_string(out, *entry.readable_url);
        else
          out += "null";
        out += ",\n        \"suffix\": ";
        append_json_string(out, entry.suffix);
        out += ",\n        \"url\": ";
        append_json_string(out, entry.url);
        out += "\n      }";
      }
      out += "\n    ]";
    }
    out += "\n  }";
  }
  out += "\n}";
  return out;
}

}  // namespace kiln::report
