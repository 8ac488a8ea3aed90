#include "libcompiler/python/interp/frame.h"

namespace kiln::python {

namespace {

// Whether the only holders of `scope` besides the ending frame are functions that nothing but
// the scope's own slots hold (a nested function that calls itself, or nested functions that
// call each other): then the scope and those functions are garbage.
bool only_held_by_its_own_closures(const std::shared_ptr<Scope>& scope) {
  long self_held = 0;
  for (const Ref& value : scope->slots)
    if (value && value->kind == ObjectKind::Function && value.use_count() == 1 &&
        as<FunctionObject>(value).closure == scope)
      ++self_held;
  return scope.use_count() - 1 == self_held;
}

}  // namespace

void Scope::traverse(const ReferenceVisitor& visit) const {
  for (const Ref& value : slots) visit(value);
  visit(parent);
}

void Scope::clear_references() {
  std::vector<Ref> dropped;
  dropped.swap(slots);
  parent = nullptr;
}

Frame::~Frame() {
  if (!scope || !code || code->kind != CodeInfo::Kind::Function || scope.use_count() == 1) return;
  // Drop what a surviving closure cannot read, as CPython keeps only the cells: a nested function
  // stored in a local would otherwise keep itself alive through its closure.
  const bool garbage = only_held_by_its_own_closures(scope);
  for (uint32_t slot = 0; slot < scope->slots.size(); ++slot)
    if (garbage || !code->is_captured(slot)) scope->slots[slot] = nullptr;
}

}  // namespace kiln::python
