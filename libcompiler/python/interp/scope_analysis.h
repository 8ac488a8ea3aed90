#pragma once
// Where each name of a module lives, decided before running it as CPython's symtable does: a
// name bound anywhere in a function is local to it (read before assignment: UnboundLocalError),
// `global`/`nonlocal` redirect it, names a nested function reads from an enclosing one are free
// (closures), class bodies keep their names in the class dict. Comprehensions, generator
// expressions and lambdas are function scopes of their own.
//
// The interpreter and the symbolic evaluator of capture/ both read these results; neither
// re-derives scoping.
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "libcompiler/python/ast.h"

namespace kiln::python {

enum class NameKind : uint8_t {
  Local,      // slot `slot` of the frame's scope
  Free,       // slot `slot` of the scope `depth` closures up
  Global,     // the module dict, then builtins
  ClassBody,  // the class namespace, then globals and builtins
};

struct NameResolution {
  NameKind kind = NameKind::Global;
  uint16_t depth = 0;
  uint32_t slot = 0;
};

struct CodeInfo {
  enum class Kind : uint8_t { Module, Class, Function } kind = Kind::Module;
  std::string name;      // "<module>", "f", "<lambda>", "<listcomp>", the class name
  std::string qualname;  // "Outer.method", "f.<locals>.g"
  std::unordered_map<std::string, NameResolution> names;
  std::vector<std::string> slot_names;  // index: slot; parameters first, in order
  // Slots that nested functions read or write (CPython's cell variables); the other locals are
  // dead once the frame ends, even when a closure keeps its scope alive.
  std::vector<bool> captured_slots;
  bool is_captured(uint32_t slot) const { return slot < captured_slots.size() && captured_slots[slot]; }
  bool is_generator = false;

  NameResolution resolve(const std::string& name) const {
    // Every name of module code is global (scope analysis maps each to Global): no lookup for the
    // loads and stores of a script's top level.
    if (kind == Kind::Module) return {};
    auto it = names.find(name);
    return it == names.end() ? NameResolution{} : it->second;
  }
};

class ScopeAnalysis {
 public:
  explicit ScopeAnalysis(const Module& module);
  const CodeInfo& module() const { return *module_; }
  // The scope a FunctionDef, Lambda, ClassDef or comprehension node opens.
  const CodeInfo& of(const Node& node) const { return *codes_.at(&node); }

 private:
  std::unique_ptr<CodeInfo> module_;
  std::unordered_map<const Node*, std::unique_ptr<CodeInfo>> codes_;
};

}  // namespace kiln::python
