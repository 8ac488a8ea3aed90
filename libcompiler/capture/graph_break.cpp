#include "libcompiler/capture/graph_break.h"

#include <array>

namespace kiln::capture {
namespace {

struct BreakText {
  const char* gb_id;
  std::string title;
  const char* explanation;
  std::vector<const char*> hints;
};

const std::vector<BreakText>& break_texts() {
  static const std::vector<BreakText> texts = {
#define KILN_GRAPH_BREAK(Enum, GbId, Title, Explanation, Hints) {GbId, Title, Explanation, std::vector<const char*> Hints},
#include "libcompiler/capture/graph_break_kinds.def"
  };
  return texts;
}

std::string fill(const std::string& pattern, const std::vector<std::string>& details) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '{' && i + 2 < pattern.size() && pattern[i + 2] == '}' && pattern[i + 1] >= '0' && pattern[i + 1] <= '9') {
      size_t index = static_cast<size_t>(pattern[i + 1] - '0');
      out += index < details.size() ? details[index] : "";
      i += 2;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

}  // namespace

GraphBreak::GraphBreak(BreakKind k, std::vector<std::string> d, std::string context)
    : kind(k), error_on_graph_break(error_on_graph_break_setting()), details(std::move(d)), debug_context(std::move(context)) {}

bool& error_on_graph_break_setting() {
  static bool setting = false;
  return setting;
}

const std::string& GraphBreak::title() const { return break_texts()[static_cast<size_t>(kind)].title; }

GraphBreak unsupported(UnsupportedConstruct construct, const std::vector<std::string>& details) {
  static const char* const kConstructs[] = {
#define KILN_UNSUPPORTED_CONSTRUCT(Enum, Construct) Construct,
#include "libcompiler/capture/unsupported_constructs.def"
  };
  return GraphBreak(BreakKind::Unsupported, {fill(kConstructs[static_cast<size_t>(construct)], details)}, "");
}

std::string GraphBreak::message() const {
  const BreakText& text = break_texts()[static_cast<size_t>(kind)];
  std::string out = text.title + "\n  Explanation: " + fill(text.explanation, details) + "\n";
  // Dynamo joins the hints by newlines and leaves a blank line after them, also when there are none.
  for (size_t i = 0; i < text.hints.size(); ++i) out += (i ? "\n  Hint: " : "  Hint: ") + fill(text.hints[i], details);
  out += "\n\n  Developer debug context: " + debug_context + "\n";
  if (*text.gb_id)
    out += "\n For more details about this graph break, please visit: https://meta-pytorch.github.io/compile-graph-break-site/gb/" +
           std::string(text.gb_id) + ".html";
  return out;
}

}  // namespace kiln::capture
