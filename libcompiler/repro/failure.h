#pragma once
// What running a candidate ended in, and when two failures are the same failure: a reduction
// that turns one bug into another is rejected (debug_tools.md §2.5, "drifting to a different
// error"). Two exceptions are the same failure when their types are equal and their messages are
// of the same class: the first line with what changes as a graph shrinks (numbers, sizes, node
// numbering, hashes) masked.
#include <string>
#include <string_view>

#include "libcompiler/python/interp/exceptions.h"

namespace kiln::repro {

struct Failure {
  enum class Kind {
    None,       // ran and, in accuracy mode, matched the reference
    Invalid,    // the candidate itself is broken: its eager run raised (not the bug)
    Exception,  // compiling or running the compiled graph raised
    Accuracy,   // the compiled result failed the accuracy rules
    Crash,      // the process running it died of a signal (a segfault in compiled code)
    Hang,       // it ran past its time limit
  };
  Kind kind = Kind::None;
  std::string type;     // the exception's type name
  std::string message;  // its message

  bool failed() const { return kind != Kind::None && kind != Kind::Invalid; }
  // "AssertionError: toy_compiler refuses relu", "accuracy failure", "no failure", ...
  std::string describe() const;
};

// The exception a Python error stands for: a BackendCompilerFailed is the backend's own
// exception it wraps (what the repro tools saw before capture wrapped it).
Failure failure_of(python::Interpreter& interp, const python::PyException& error);

std::string message_class(std::string_view message);

// `check_str`, when not empty, must also occur in the failure's "Type: message" text (the
// launcher's --check-str).
bool same_failure(const Failure& found, const Failure& expected, const std::string& check_str = {});

}  // namespace kiln::repro
