#include "libcompiler/python/interp/generator.h"

#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/interpreter.h"

namespace kiln::python {
namespace {
// Generators recurse rarely; the stack is reserved, not committed.
constexpr size_t kGeneratorStackBytes = size_t{8} << 20;
}  // namespace

GeneratorObject::GeneratorObject(Interpreter& interp, std::unique_ptr<Frame> frame, std::function<void(Frame&)> body,
                                 std::string name)
    : Object(ObjectKind::Generator, builtin_types().generator),
      interp_(interp),
      frame_(std::move(frame)),
      name_(std::move(name)),
      coroutine_([this, body = std::move(body)] { body(*frame_); }, kGeneratorStackBytes) {
  frame_->generator = this;
}

GeneratorObject::~GeneratorObject() {
  if (!coroutine_.suspended()) return;
  closing_ = true;
  try {
    next();
  } catch (...) {
    // GeneratorExit, or whatever a finally block raised instead: ignored, as CPython ignores it
    // when it closes a generator nobody holds (and a destructor must not throw).
  }
}

Ref GeneratorObject::next() {
  if (coroutine_.finished()) return nullptr;
  if (coroutine_.running()) raise_error(ExcType::ValueError, "generator already executing");
  yielded_ = nullptr;
  interp_.push_frame(*frame_);
  try {
    coroutine_.resume();
  } catch (...) {
    interp_.pop_frame(*frame_);
    throw;
  }
  interp_.pop_frame(*frame_);
  Ref value = std::move(yielded_);
  return coroutine_.finished() ? nullptr : value;
}

void GeneratorObject::yield(Ref value) {
  yielded_ = std::move(value);
  coroutine_.suspend();
  if (!closing_) return;
  Ref exit = make_exception(ExcType::GeneratorExit, "");
  as<InstanceObject>(exit).dict["args"] = py_tuple();  // GeneratorExit(), as close() raises it
  throw PyException(std::move(exit));
}

}  // namespace kiln::python
