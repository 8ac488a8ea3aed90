#include "libcompiler/python/interp/generator.h"

#include <utility>

#include "libcompiler/python/interp/builtin_setup.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {
namespace {
// Generators recurse rarely; the stack is reserved, not committed.
constexpr size_t kGeneratorStackBytes = size_t{8} << 20;

GeneratorObject& generator_self(const CallArgs& c, const char* method) {
  if (c.args.empty() || c.args[0]->kind != ObjectKind::Generator)
    raise_error(ExcType::TypeError, std::string("descriptor '") + method + "' requires a 'generator' object");
  return static_cast<GeneratorObject&>(*c.args[0]);
}

// StopIteration carrying what the generator returned, as send() and throw() raise at its end.
[[noreturn]] void raise_stop_iteration(Interpreter& interp, const GeneratorObject& generator) {
  std::vector<Ref> args;
  if (!is_none(generator.return_value())) args.push_back(generator.return_value());
  throw PyException(call(interp, builtin_type_ref(exception_type(ExcType::StopIteration)), std::move(args)));
}

// The exception throw(type[, value]) or throw(instance) raises.
Ref exception_to_throw(Interpreter& interp, const CallArgs& c) {
  if (c.args.size() < 2 || c.args.size() > 4)
    raise_error(ExcType::TypeError, "throw expected at least 1 argument, got " + std::to_string(c.args.size() - 1));
  const Ref& given = c.args[1];
  const TypeObject* base = exception_type(ExcType::BaseException);
  if (given->kind == ObjectKind::Type && as<TypeObject>(given).is_subtype_of(base)) {
    if (c.args.size() > 2 && isinstance(c.args[2], base)) return c.args[2];
    std::vector<Ref> args;
    if (c.args.size() > 2 && !is_none(c.args[2])) args.push_back(c.args[2]);
    return call(interp, given, std::move(args));
  }
  if (isinstance(given, base)) return given;
  raise_error(ExcType::TypeError, "exceptions must be classes or instances deriving from BaseException, not " +
                                      type_name(given));
}

}  // namespace

void install_generator_methods() {
  TypeObject* generator = builtin_types().generator;
  add_method(generator, "send", [](Interpreter& ip, CallArgs& c) {
    if (c.args.size() != 2)
      raise_error(ExcType::TypeError, "generator.send() takes exactly one argument (" + std::to_string(c.args.size() - 1) + " given)");
    auto& self = generator_self(c, "send");
    if (Ref value = self.send(c.args[1])) return value;
    raise_stop_iteration(ip, self);
  });
  add_method(generator, "throw", [](Interpreter& ip, CallArgs& c) {
    auto& self = generator_self(c, "throw");
    if (Ref value = self.throw_into(exception_to_throw(ip, c))) return value;
    raise_stop_iteration(ip, self);
  });
  add_method(generator, "close", [](Interpreter&, CallArgs& c) {
    generator_self(c, "close").close();
    return none();
  });
}

GeneratorObject::GeneratorObject(Interpreter& interp, std::unique_ptr<Frame> frame, std::function<void(Frame&)> body,
                                 std::string name)
    : Object(ObjectKind::Generator, builtin_types().generator),
      interp_(interp),
      frame_(std::move(frame)),
      name_(std::move(name)),
      coroutine_(
          [this, body = std::move(body)] {
            // throw() into a generator that never ran raises before its first statement.
            if (pending_exception_) throw PyException(std::exchange(pending_exception_, nullptr));
            body(*frame_);
          },
          kGeneratorStackBytes) {
  frame_->generator = this;
}

GeneratorObject::~GeneratorObject() {
  if (!coroutine_.suspended()) return;
  try {
    close();
  } catch (...) {
    // What a finally block raised while closing: ignored, as CPython ignores it when it closes a
    // generator nobody holds (and a destructor must not throw).
  }
}

Ref GeneratorObject::resume() {
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

Ref GeneratorObject::next() {
  sent_ = none();
  return resume();
}

Ref GeneratorObject::send(Ref value) {
  if (!coroutine_.suspended() && !coroutine_.finished() && !is_none(value))
    raise_error(ExcType::TypeError, "can't send non-None value to a just-started generator");
  sent_ = std::move(value);
  return resume();
}

Ref GeneratorObject::throw_into(Ref exception) {
  if (coroutine_.finished()) throw PyException(std::move(exception));
  pending_exception_ = std::move(exception);
  return resume();
}

void GeneratorObject::close() {
  if (!coroutine_.suspended()) return;
  Ref exit = make_exception(ExcType::GeneratorExit, "");
  as<InstanceObject>(exit).dict["args"] = py_tuple();  // GeneratorExit(), as close() raises it
  try {
    if (throw_into(std::move(exit))) raise_error(ExcType::RuntimeError, "generator ignored GeneratorExit");
  } catch (PyException& error) {
    const TypeObject* type = error.exception->type;
    if (!type->is_subtype_of(exception_type(ExcType::GeneratorExit)) &&
        !type->is_subtype_of(exception_type(ExcType::StopIteration)))
      throw;
  }
}

Ref GeneratorObject::yield(Ref value) {
  yielded_ = std::move(value);
  coroutine_.suspend();
  if (pending_exception_) throw PyException(std::exchange(pending_exception_, nullptr));
  Ref sent = std::exchange(sent_, nullptr);
  return sent ? sent : none();
}

}  // namespace kiln::python
