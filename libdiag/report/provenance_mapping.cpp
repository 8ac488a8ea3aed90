#include "libdiag/report/provenance_mapping.h"

#include "libdiag/report/text_lines.h"

#include <cctype>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace kiln::report {
namespace {

using Line = uint64_t;  // tlparse computes relative Python lines in unsigned (wrapping) arithmetic
using LineMap = std::map<Line, std::vector<Line>>;
using NameToLine = std::unordered_map<std::string, Line>;
using NameToLines = std::unordered_map<std::string, std::vector<Line>>;

// Generated code is numbered without its leading empty lines (HTML <pre> drops them).
std::vector<std::string_view> code_lines(std::string_view text) {
  std::vector<std::string_view> lines = split_lines(text);
  size_t first = 0;
  while (first < lines.size() && lines[first].empty()) ++first;
  lines.erase(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(first));
  return lines;
}

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

// A line that is not empty and does not start with `prefix` once trimmed.
bool is_code_line(std::string_view line, std::string_view prefix) {
  const std::string_view stripped = trim_blanks(line);
  return !stripped.empty() && !stripped.starts_with(prefix);
}

// Node name -> 1-based line: "name: type = ..." or "name = ...", comments skipped, last wins.
NameToLine graph_node_lines(std::string_view graph) {
  NameToLine lines;
  const std::vector<std::string_view> all = split_lines(graph);
  for (size_t i = 0; i < all.size(); ++i) {
    const std::string_view line = trim_blanks(all[i]);
    if (!is_code_line(line, "#")) continue;
    std::string_view name = line.substr(0, line.find('='));
    name = trim_blanks(name.substr(0, name.find(':')));
    if (!name.empty()) lines[std::string(name)] = i + 1;
  }
  return lines;
}

// "triton_poi_fused_mul_1:2" carries debug handle 2; the Python wrapper splits at the first ':'.
std::string_view before_first_colon(std::string_view kernel) { return kernel.substr(0, kernel.find(':')); }
// The C++ wrapper splits at the last ':' (kernel names may contain "::").
std::string_view before_last_colon(std::string_view kernel) {
  const size_t colon = kernel.rfind(':');
  return colon == std::string_view::npos ? kernel : kernel.substr(0, colon);
}

size_t first_line_where(const std::vector<std::string_view>& lines, bool (*predicate)(std::string_view)) {
  for (size_t i = 0; i < lines.size(); ++i)
    if (predicate(lines[i])) return i;
  return 0;
}

// Kernel name -> lines of the Python wrapper that launch it, relative to the "# AOT ID:" line.
NameToLines python_kernel_lines(std::string_view code, const std::vector<std::string>& kernels) {
  const std::vector<std::string_view> lines = code_lines(code);
  const size_t call_line = first_line_where(lines, [](std::string_view line) {
    return contains(line, "def") && contains(line, "call") && contains(line, "(args)");
  });
  const Line aot_id_line = first_line_where(lines, [](std::string_view line) { return contains(line, "# AOT ID:"); });
  NameToLines result;
  for (const std::string& kernel : kernels) {
    const std::string_view bare = before_first_colon(kernel);
    bool found = false;
    if (contains(kernel, ":")) {
      // With a debug handle: the launch is the next line naming the kernel after the handle.
      for (size_t i = call_line; i < lines.size(); ++i) {
        if (!contains(lines[i], kernel)) continue;
        for (size_t j = i + 1; j < lines.size(); ++j) {
          if (contains(lines[j], bare)) {
            result[kernel].push_back(j + 1 - aot_id_line);
            found = true;
            break;
          }
        }
        break;
      }
    }
    if (!found) {
      for (size_t i = call_line; i < lines.size(); ++i)
        if (contains(lines[i], bare)) result[kernel].push_back(i + 1 - aot_id_line);
    }
  }
  return result;
}

bool is_word_char(unsigned char c) {
  return std::isdigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}

// A declaration such as "int64_t triton_poi_fused_0_xnumel_1 = 16;": a type word, whitespace, then
// anything, then "_xnumel", an optional "_<digits>", optional spaces and "=" (tlparse's regex
// ^\s*\w+\s+.*_xnumel(?:_\d+)?\s*= written out).
bool is_xnumel_declaration(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && is_blank(line[i])) ++i;
  const size_t word = i;
  while (i < line.size() && is_word_char(line[i])) ++i;
  if (i == word || i >= line.size() || !is_blank(line[i])) return false;
  ++i;  // the rest may start anywhere after the first whitespace character
  for (size_t at = line.find("_xnumel", i); at != std::string_view::npos; at = line.find("_xnumel", at + 1)) {
    auto equals_after = [&](size_t k) {
      while (k < line.size() && is_blank(line[k])) ++k;
      return k < line.size() && line[k] == '=';
    };
    size_t k = at + 7;
    if (equals_after(k)) return true;
    if (k < line.size() && line[k] == '_' && k + 1 < line.size() && std::isdigit(static_cast<unsigned char>(line[k + 1]))) {
      k += 1;
      while (k < line.size() && std::isdigit(static_cast<unsigned char>(line[k]))) ++k;
      if (equals_after(k)) return true;
    }
  }
  return false;
}

// Kernel name -> lines of the AOTInductor C++ wrapper that launch it, from "::run_impl(" on.
NameToLines cpp_kernel_lines(std::string_view code, const std::vector<std::string>& kernels) {
  const std::vector<std::string_view> lines = code_lines(code);
  const size_t run_impl_line = first_line_where(lines, [](std::string_view line) { return contains(line, "::run_impl("); });
  NameToLines result;
  for (const std::string& kernel : kernels) {
    const std::string_view bare = before_last_colon(kernel);
    bool found = false;
    if (contains(kernel, ":")) {
      for (size_t i = run_impl_line; i < lines.size() && !found; ++i) {
        const std::string_view line = lines[i];
        if (!is_code_line(line, "def") || !is_code_line(line, "static inline void") || !contains(line, kernel)) continue;
        // The launch is the next line naming the kernel that is not an "..._xnumel = " declaration.
        for (size_t j = i + 1; j < lines.size(); ++j) {
          if (contains(lines[j], bare) && !contains(lines[j], "_xnumel = ") && !is_xnumel_declaration(lines[j])) {
            result[kernel].push_back(j + 1);
            found = true;
            break;
          }
        }
      }
    }
    if (!found) {
      for (size_t i = run_impl_line; i < lines.size(); ++i)
        if (contains(lines[i], bare)) result[kernel].push_back(i + 1);
    }
  }
  return result;
}

const nlohmann::json* object_member(const nlohmann::json& json, const char* key) {
  if (!json.is_object()) return nullptr;
  auto found = json.find(key);
  return found != json.end() && found->is_object() ? &*found : nullptr;
}

// Each entry's value as the list of strings in it (other values skipped).
std::vector<std::string> string_items(const nlohmann::json& value) {
  std::vector<std::string> items;
  if (!value.is_array()) return items;
  for (const auto& item : value)
    if (item.is_string()) items.push_back(item.get<std::string>());
  return items;
}

// node -> nodes becomes line -> lines; a later entry on the same line replaces an earlier one.
LineMap node_to_node_lines(const nlohmann::json* mapping, const NameToLine& from, const NameToLine& to) {
  LineMap result;
  if (mapping == nullptr) return result;
  for (const auto& [node, targets] : mapping->items()) {
    auto source = from.find(node);
    if (source == from.end()) continue;
    std::vector<Line> lines;
    for (const std::string& target : string_items(targets)) {
      auto found = to.find(target);
      if (found != to.end()) lines.push_back(found->second);
    }
    if (!lines.empty()) result[source->second] = std::move(lines);
  }
  return result;
}

LineMap kernel_to_node_lines(const nlohmann::json* mapping, const NameToLines& kernels, const NameToLine& nodes) {
  LineMap result;
  if (mapping == nullptr) return result;
  for (const auto& [kernel, targets] : mapping->items()) {
    auto kernel_lines = kernels.find(kernel);
    if (kernel_lines == kernels.end()) continue;
    std::vector<Line> lines;
    for (const std::string& target : string_items(targets)) {
      auto found = nodes.find(target);
      if (found != nodes.end()) lines.push_back(found->second);
    }
    if (lines.empty()) continue;
    for (Line line : kernel_lines->second) result[line] = lines;
  }
  return result;
}

LineMap node_to_kernel_lines(const nlohmann::json* mapping, const NameToLine& nodes, const NameToLines& kernels) {
  LineMap result;
  if (mapping == nullptr) return result;
  for (const auto& [node, targets] : mapping->items()) {
    auto source = nodes.find(node);
    if (source == nodes.end()) continue;
    std::vector<Line> lines;
    for (const std::string& kernel : string_items(targets)) {
      auto found = kernels.find(kernel);
      if (found != kernels.end()) lines.insert(lines.end(), found->second.begin(), found->second.end());
    }
    if (!lines.empty()) result[source->second] = std::move(lines);
  }
  return result;
}

nlohmann::json to_json(const LineMap& map) {
  nlohmann::json object = nlohmann::json::object();
  for (const auto& [line, targets] : map) object[std::to_string(line)] = targets;
  return object;
}

}  // namespace

nlohmann::json compute_line_mappings(const ProvenanceSources& sources) {
  const nlohmann::json mappings = nlohmann::json::parse(sources.node_mappings, nullptr, /*allow_exceptions=*/false);
  if (mappings.is_discarded()) return nlohmann::json::object();

  const nlohmann::json* pre_to_post = object_member(mappings, "preToPost");
  const nlohmann::json* post_to_pre = object_member(mappings, "postToPre");
  const nlohmann::json* code_to_post = object_member(mappings, "cppCodeToPost");
  const nlohmann::json* post_to_code = object_member(mappings, "postToCppCode");

  std::vector<std::string> kernels;
  if (code_to_post != nullptr)
    for (const auto& [kernel, unused] : code_to_post->items()) kernels.push_back(kernel);

  const NameToLine pre_lines = graph_node_lines(sources.pre_grad_graph);
  const NameToLine post_lines = graph_node_lines(sources.post_grad_graph);
  const NameToLines python_lines = python_kernel_lines(sources.python_code, kernels);
  const NameToLines cpp_lines = cpp_kernel_lines(sources.cpp_code, kernels);

  nlohmann::json result = nlohmann::json::object();
  result["preToPost"] = to_json(node_to_node_lines(pre_to_post, pre_lines, post_lines));
  result["postToPre"] = to_json(node_to_node_lines(post_to_pre, post_lines, pre_lines));
  result["cppCodeToPost"] = to_json(kernel_to_node_lines(code_to_post, cpp_lines, post_lines));
  result["postToCppCode"] = to_json(node_to_kernel_lines(post_to_code, post_lines, cpp_lines));
  // The Python wrapper uses the same kernel names as the C++ one.
  result["pyCodeToPost"] = to_json(kernel_to_node_lines(code_to_post, python_lines, post_lines));
  result["postToPyCode"] = to_json(node_to_kernel_lines(post_to_code, post_lines, python_lines));
  return result;
}

}  // namespace kiln::report
