#include "libdiag/report/stack_trie.h"

namespace kiln::report {
namespace {

// Frames merge when every field is equal; this key encodes all of them unambiguously.
std::string frame_key(const StackFrame& frame) {
  std::string key = std::to_string(frame.filename) + '\0' + std::to_string(frame.line) + '\0' + frame.name;
  key += frame.loc ? "\1" + *frame.loc : std::string("\2");
  key += frame.uninterned_filename ? "\1" + *frame.uninterned_filename : std::string("\2");
  return key;
}

}  // namespace

void StackTrie::insert(const StackSummary& stack, std::optional<trace::CompileId> compile_id) {
  Node* node = &root_;
  for (const StackFrame& frame : stack) {
    auto [slot, inserted] = node->child_index.try_emplace(frame_key(frame), node->children.size());
    if (inserted) node->children.emplace_back(frame, std::make_unique<Node>());
    node = node->children[slot->second].second.get();
  }
  node->terminals.push_back(std::move(compile_id));
}

void StackTrie::render_children(std::string& out, const Node& node, const StringTable& strings,
                                const StatusOf& status) const {
  for (const auto& [frame, child] : node.children) {
    std::string star;
    for (const auto& terminal : child->terminals) {
      if (!terminal) {
        star += "(unknown) ";
        continue;
      }
      const std::string display = terminal->display();
      star += "<a href='#" + display + "' class='" + std::string(status(*terminal)) + "'>" + display + "</a> ";
    }
    if (node.children.size() > 1) {
      out += "<li><span onclick='toggleList(this)' class='marker'></span>" + star + "\n";
      append_frame_html(out, frame, strings);
      out += "<ul>\n";
      render_children(out, *child, strings, status);
      out += "</ul></li>";
    } else {
      out += "<li>" + star;
      append_frame_html(out, frame, strings);
      out += "</li>\n";
      render_children(out, *child, strings, status);
    }
  }
}

std::string StackTrie::render(const StringTable& strings, const StatusOf& status, std::string_view caption,
                              bool open) const {
  std::string out = open ? "<details open>" : "<details>";
  out += "<summary>";
  out += caption;
  out += "</summary><div class='stack-trie'><ul>";
  render_children(out, root_, strings, status);
  out += "</ul></div></details>";
  return out;
}

std::string render_stack(const StackSummary& stack, const StringTable& strings, std::string_view caption,
                         bool open) {
  // A single path without terminals: one list item per frame, as the trie would print it.
  std::string out = open ? "<details open>" : "<details>";
  out += "<summary>";
  out += caption;
  out += "</summary><div class='stack-trie'><ul>";
  for (const StackFrame& frame : stack) {
    out += "<li>";
    append_frame_html(out, frame, strings);
    out += "</li>\n";
  }
  out += "</ul></div></details>";
  return out;
}

}  // namespace kiln::report
