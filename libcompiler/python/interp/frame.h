#pragma once
// The runtime side of scope_analysis.h: a function call's local slots (a Scope, shared with the
// closures made inside it) and the Frame an evaluator runs in.
#include <memory>
#include <vector>

#include "libcompiler/python/interp/object.h"
#include "libcompiler/python/interp/scope_analysis.h"
#include "libcompiler/python/ast.h"

namespace kiln::python {

struct Scope : CycleTracked {
  std::vector<Ref> slots;  // null: unbound
  std::shared_ptr<Scope> parent;  // the scope of the enclosing function (the closure)

  void traverse(const ReferenceVisitor& visit) const override;
  void clear_references() override;
};

class GeneratorObject;

struct Frame {
  const CodeInfo* code = nullptr;
  std::shared_ptr<Scope> scope;        // null at module level
  std::shared_ptr<DictObject> globals;
  std::shared_ptr<struct LoadedCode> loaded;  // the module whose AST runs here
  DictObject* class_dict = nullptr;    // the namespace of a class body
  const FunctionObject* function = nullptr;
  GeneratorObject* generator = nullptr;  // set while a generator's frame runs
  const Node* where = nullptr;         // what runs now, for tracebacks
  Ref return_value;
  Frame* back = nullptr;               // the caller
  // The exceptions being handled by enclosing `except` blocks (for a bare `raise`).
  std::vector<const class PyException*> handling;

  Frame() = default;
  Frame(const Frame&) = delete;
  Frame& operator=(const Frame&) = delete;
  // Objects are reference counted, with no cycle collector: a function's scope that outlives
  // the frame (held by closures made here) must not keep those closures alive itself (frame.cpp).
  ~Frame();
};

}  // namespace kiln::python
