#pragma once
// Generator objects: a generator function's (or generator expression's) frame, run on a
// coroutine so that `yield` suspends it mid-statement and next() resumes it.
#include <functional>
#include <memory>
#include <string>

#include "libcompiler/python/interp/coroutine.h"
#include "libcompiler/python/interp/frame.h"
#include "libcompiler/python/interp/object.h"

namespace kiln::python {

class GeneratorObject : public Object {
 public:
  // `body` runs the frame to its end; it is called on the coroutine.
  GeneratorObject(Interpreter& interp, std::unique_ptr<Frame> frame, std::function<void(Frame&)> body,
                  std::string name);
  // Closes a generator abandoned half-way, as CPython does: GeneratorExit is raised at the
  // `yield` it waits in, so its frame unwinds (finally blocks run) and what its stack holds is
  // released before the stack goes.
  ~GeneratorObject() override;
  // The next yielded value, or null once the body has returned.
  Ref next();
  // generator.send(value): resumes with `value` as the result of the paused `yield`.
  Ref send(Ref value);
  // generator.throw(exception): raises `exception` at the paused `yield` (or at the start of a
  // generator not yet started) and returns what the generator yields next.
  Ref throw_into(Ref exception);
  // generator.close(): GeneratorExit at the paused `yield`; RuntimeError if the generator yields.
  void close();
  // `yield value` inside the body: hands the value to next() and waits to be resumed; returns
  // what send() passed (None for next()).
  Ref yield(Ref value);
  const std::string& name() const { return name_; }
  // What the body returned (StopIteration's value; `yield from` evaluates to it).
  Ref return_value() const { return frame_->return_value ? frame_->return_value : none(); }

 private:
  Interpreter& interp_;
  std::unique_ptr<Frame> frame_;
  std::string name_;
  // Resumes the body; the yielded value, or null once the body has returned.
  Ref resume();

  Ref yielded_;
  Ref sent_;                // what the paused `yield` evaluates to
  Ref pending_exception_;   // raised at the paused `yield` (throw(), close()) when resumed
  Coroutine coroutine_;
};

}  // namespace kiln::python
