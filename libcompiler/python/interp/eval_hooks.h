#pragma once
// How graph capture (libcompiler/capture) watches and steers the interpreter without the
// interpreter knowing about graphs: a call hook sees every call before it happens, an
// expression observer sees every expression of the one frame it is attached to, and a
// CaptureUnwind leaves the interpreter without being a Python exception (no `except` catches it,
// `with` blocks still exit).
#include <exception>
#include <string>

#include "libcompiler/python/interp/object.h"

namespace kiln::python {

struct Expression;
struct Statement;

// Thrown through interpreted code to abandon it (a graph break, a fake tensor's data being read).
struct CaptureUnwind : std::exception {
  const char* what() const noexcept override { return "graph capture stopped evaluating this frame"; }
};

class CallHook {
 public:
  virtual ~CallHook() = default;
  // Called before every call made through protocols' call(); a non-null result is the call's
  // result and the callee does not run.
  virtual Ref intercept(Interpreter& interp, const Ref& callee, CallArgs& args) = 0;
  // Called before an object's attributes or items change (setattr, setitem, delattr, delitem):
  // capture cannot replay such side effects on objects that outlive the frame.
  virtual void mutating(Interpreter& interp, const Ref& target) {
    (void)interp;
    (void)target;
  }
  // Called after code reads a global variable or an attribute (capture guards what it read); a
  // non-null result is what the code gets instead (a symbolic stand-in for the value).
  virtual Ref read_global(Interpreter& interp, const DictObject& globals, const std::string& name, const Ref& value) {
    (void)interp;
    (void)globals;
    (void)name;
    (void)value;
    return nullptr;
  }
  virtual Ref read_attribute(Interpreter& interp, const Ref& object, const std::string& name, const Ref& value) {
    (void)interp;
    (void)object;
    (void)name;
    (void)value;
    return nullptr;
  }
  // Called after code reads `container[key]`, as read_attribute.
  virtual Ref read_item(Interpreter& interp, const Ref& container, const Ref& key, const Ref& value) {
    (void)interp;
    (void)container;
    (void)key;
    (void)value;
    return nullptr;
  }
  // Called after a value is stored to a plain variable (`x = ...`).
  virtual void stored(const std::string& name, const Ref& value) {
    (void)name;
    (void)value;
  }
};

class ExpressionObserver {
 public:
  virtual ~ExpressionObserver() = default;
  // A value to use instead of evaluating expr (a resumed frame replays what ran before the
  // break), or null.
  virtual Ref replay(const Expression& expr) = 0;
  virtual void enter(const Expression& expr) = 0;
  virtual void leave(const Expression& expr, const Ref& value) = 0;
  virtual void statement(const Statement& stmt) = 0;
};

}  // namespace kiln::python
