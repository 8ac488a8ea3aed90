#include "libcompiler/ops/autograd/user_warning.h"

#include <iostream>
#include <mutex>

namespace kiln::ops {

namespace {

std::mutex handler_mutex;
WarningHandler& current_handler() {
  static WarningHandler handler;
  return handler;
}

}  // namespace

WarningHandler set_warning_handler(WarningHandler handler) {
  std::lock_guard lock(handler_mutex);
  WarningHandler previous = std::move(current_handler());
  current_handler() = std::move(handler);
  return previous;
}

void warn(const std::string& message) {
  WarningHandler handler;
  {
    std::lock_guard lock(handler_mutex);
    handler = current_handler();
  }
  if (handler) handler(message);
  else std::cerr << "UserWarning: " << message << "\n";
}

}  // namespace kiln::ops
