#pragma once
// Installs a call hook on an interpreter for a scope (null: no hook, the code runs uncaptured) and
// restores the one before, however the scope is left.
#include "libcompiler/python/interp/interpreter.h"

namespace kiln::capture {

class HookScope {
 public:
  HookScope(python::Interpreter& interp, python::CallHook* hook) : interp_(interp), saved_(interp.call_hook) {
    interp.call_hook = hook;
  }
  ~HookScope() { interp_.call_hook = saved_; }
  HookScope(const HookScope&) = delete;
  HookScope& operator=(const HookScope&) = delete;

 private:
  python::Interpreter& interp_;
  python::CallHook* saved_;
};

}  // namespace kiln::capture
