#pragma once
// The stack trie of index.html and the mini stacks of compilation-metrics pages (reference §6.5).
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "libdiag/report/stack_frame.h"
#include "libdiag/trace/compile_id.h"

namespace kiln::report {

class StackTrie {
 public:
  // Merges `stack` into the trie; its last frame's node records `compile_id` (nullopt renders as
  // "(unknown) ").
  void insert(const StackSummary& stack, std::optional<trace::CompileId> compile_id);
  bool empty() const { return root_.children.empty(); }

  // Status class of a compile id ("status-ok", ...); only consulted for terminals with an id.
  using StatusOf = std::function<std::string_view(const trace::CompileId&)>;
  // "<details[ open]><summary>caption</summary><div class='stack-trie'><ul>...</ul></div></details>".
  std::string render(const StringTable& strings, const StatusOf& status, std::string_view caption,
                     bool open = false) const;

 private:
  struct Node {
    std::vector<std::optional<trace::CompileId>> terminals;
    std::vector<std::pair<StackFrame, std::unique_ptr<Node>>> children;  // insertion order
    std::unordered_map<std::string, size_t> child_index;                 // frame key -> children slot
  };
  void render_children(std::string& out, const Node& node, const StringTable& strings,
                       const StatusOf& status) const;
  Node root_;
};

// A stack rendered as a one-path trie without compile ids (compilation-metrics pages, tables).
std::string render_stack(const StackSummary& stack, const StringTable& strings, std::string_view caption,
                         bool open = false);

}  // namespace kiln::report
