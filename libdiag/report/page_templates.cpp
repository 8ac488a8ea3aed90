#include "libdiag/report/page_templates.h"

#include <map>
#include <mutex>

#include "web_templates/web_templates.h"

namespace kiln::report {
namespace {

// The pieces pages include as partials: "report.css" is {{> report_css}}.
constexpr std::string_view kPartialFiles[] = {"report.css",      "failures.css",    "toggle_list.js",
                                              "query_params.js", "index_filter.js", "backward_failures.html"};

// `name` with its partials pasted in. A mustache partial renders in the context of the page that
// includes it, so pasting it before rendering is what rendering it would do; done once per
// template because mstch re-reads every partial it is given on every render, and a report
// renders thousands of pages.
const std::string& expanded_template(std::string_view name) {
  static std::mutex mutex;
  static std::map<std::string, std::string, std::less<>> cache;
  std::lock_guard lock(mutex);
  if (auto found = cache.find(name); found != cache.end()) return found->second;
  std::string text(web_templates::get(name));
  for (std::string_view file : kPartialFiles) {
    std::string tag = "{{> " + std::string(file) + "}}";
    tag[tag.find('.')] = '_';
    const std::string_view content = web_templates::get(file);
    for (size_t at = text.find(tag); at != std::string::npos; at = text.find(tag, at + content.size()))
      text.replace(at, tag.size(), content);
  }
  return cache.emplace(std::string(name), std::move(text)).first->second;
}

}  // namespace

std::string render_page(std::string_view name, const mstch::map& context) {
  return mstch::render(expanded_template(name), context);
}

}  // namespace kiln::report
