#pragma once
// UserWarnings that autograd raises (TORCH_WARN): by default written to stderr as Python prints
// them; the interpreter installs a handler that routes them through its warnings machinery.
#include <functional>
#include <string>

namespace kiln::ops {

using WarningHandler = std::function<void(const std::string& message)>;

// Installs a handler (an empty one restores the default) and returns the previous one.
WarningHandler set_warning_handler(WarningHandler handler);
void warn(const std::string& message);

}  // namespace kiln::ops
