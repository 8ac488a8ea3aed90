#pragma once
// Python exceptions as they cross C++: a PyException carries the exception instance and the
// traceback collected while it unwinds through interpreted frames. raise_error() is how native
// code raises a builtin exception; format_traceback() prints what CPython prints on stderr.
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "libcompiler/python/interp/object.h"
#include "libcompiler/python/source_location.h"

namespace kiln::python {

enum class ExcType {
#define KILN_PY_EXCEPTION(Enum, python_name, base) Enum,
#include "libcompiler/python/interp/exceptions.def"
};

TypeObject* exception_type(ExcType type);
// Every builtin exception class, for the builtins module.
std::vector<TypeObject*> all_exception_types();

// One frame of a traceback: where the frame was when the exception passed through it.
struct TracebackEntry {
  SourceRange where;
  std::string function;  // "<module>", "f", "<lambda>"
  // CPython 3.11's caret anchors (byte columns on where.line): a binary operator's or a
  // subscript's brackets, drawn with '^' between '~'; -1 when the expression has none.
  int32_t anchor_begin = -1, anchor_end = -1;
};
struct Node;
// The traceback entry of a frame that was running `where`.
TracebackEntry traceback_entry(const Node& where, std::string function);

class PyException : public std::exception {
 public:
  explicit PyException(Ref exception) : exception(std::move(exception)) {}
  const char* what() const noexcept override;

  Ref exception;                          // an instance of a BaseException subclass
  std::vector<TracebackEntry> traceback;  // innermost frame first
  Ref context;                            // the exception being handled when this one was raised

 private:
  mutable std::string what_;
};

// An instance of a builtin exception class with one message argument.
Ref make_exception(ExcType type, std::string message);
[[noreturn]] void raise_error(ExcType type, std::string message);
// OSError for a failed system call: "[Errno 22] Invalid argument" from errno.
[[noreturn]] void raise_os_error(int error_number);
// The OSError of a failed call on `filename`: the subclass CPython picks for the errno
// (FileNotFoundError for ENOENT, ...), with errno, strerror and filename set.
[[noreturn]] void raise_os_error(int error_number, const std::string& filename);
// Raises an exception of `type` with no arguments (CPython's bare MemoryError, KeyboardInterrupt).
[[noreturn]] void raise_bare(ExcType type);
// Kiln's int is 64-bit: a result that needs more is an unsupported construct, not a Python
// OverflowError a script could mean to catch. `expression` says what did not fit ("2 ** 70").
[[noreturn]] void raise_int_too_big(const std::string& expression);

bool is_exception_instance(const Ref& value);
bool is_exception_class(const Ref& value);
// str(exc): its single argument, the repr of the args tuple, or ""; KeyError shows the key's repr.
std::string exception_message(Interpreter& interp, const Ref& exception);
// "ZeroDivisionError: division by zero" (just the type name when the message is empty).
std::string exception_summary(Interpreter& interp, const Ref& exception);
// The full "Traceback (most recent call last):" text, ending with the summary line.
std::string format_traceback(Interpreter& interp, const PyException& error);

}  // namespace kiln::python
