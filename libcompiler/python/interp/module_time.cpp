// The time module: wall and monotonic clocks, sleep.
#include <chrono>
#include <thread>

#include "libcompiler/python/interp/builtin_setup.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {
namespace {

template <typename Clock>
NativeFn seconds_of() {
  return [](Interpreter&, CallArgs&) {
    return py_float(std::chrono::duration<double>(Clock::now().time_since_epoch()).count());
  };
}
template <typename Clock>
NativeFn nanoseconds_of() {
  return [](Interpreter&, CallArgs&) {
    return py_int(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count());
  };
}

}  // namespace

void init_time_module(Interpreter&, ModuleObject& m) {
  auto& g = *m.globals;
  g.set("time", native_function("time", seconds_of<std::chrono::system_clock>()));
  g.set("time_ns", native_function("time_ns", nanoseconds_of<std::chrono::system_clock>()));
  g.set("perf_counter", native_function("perf_counter", seconds_of<std::chrono::steady_clock>()));
  g.set("perf_counter_ns", native_function("perf_counter_ns", nanoseconds_of<std::chrono::steady_clock>()));
  g.set("monotonic", native_function("monotonic", seconds_of<std::chrono::steady_clock>()));
  g.set("sleep", native_function("sleep", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("sleep", c, {{"secs"}});
    double seconds = to_double(ip, a[0]);
    if (seconds < 0) raise_error(ExcType::ValueError, "sleep length must be non-negative");
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    return none();
  }));
}

}  // namespace kiln::python
