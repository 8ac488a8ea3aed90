#pragma once
// The exception every tensor-level check throws. It carries the Python exception class PyTorch
// raises for the same condition, so the interpreter can re-raise it faithfully, and the exact
// message text PyTorch prints.
#include <stdexcept>
#include <string>

namespace kiln::tensor {

enum class PyErrorKind { RuntimeError, IndexError, ValueError, TypeError, NotImplementedError };

// "RuntimeError", "IndexError", ...: the Python class's name.
inline const char* python_type_name(PyErrorKind kind) {
  static const char* const names[] = {"RuntimeError", "IndexError", "ValueError", "TypeError", "NotImplementedError"};
  return names[static_cast<int>(kind)];
}

class TorchError : public std::runtime_error {
 public:
  TorchError(PyErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  PyErrorKind kind() const { return kind_; }

 private:
  PyErrorKind kind_;
};

[[noreturn]] inline void throw_runtime_error(const std::string& message) {
  throw TorchError(PyErrorKind::RuntimeError, message);
}
[[noreturn]] inline void throw_index_error(const std::string& message) {
  throw TorchError(PyErrorKind::IndexError, message);
}
[[noreturn]] inline void throw_value_error(const std::string& message) {
  throw TorchError(PyErrorKind::ValueError, message);
}

}  // namespace kiln::tensor
