// The signal module: the signal numbers and raise_signal, so that a script can signal itself
// (a backend that crashes a test's child on purpose, an interrupt sent by the program).
#include <cerrno>
#include <csignal>

#include "libcompiler/python/interp/builtin_setup.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {
namespace {

struct SignalName {
  const char* name;
  int number;
};

constexpr SignalName kSignals[] = {
    {"SIGHUP", SIGHUP},   {"SIGINT", SIGINT},   {"SIGQUIT", SIGQUIT}, {"SIGILL", SIGILL},   {"SIGTRAP", SIGTRAP},
    {"SIGABRT", SIGABRT}, {"SIGBUS", SIGBUS},   {"SIGFPE", SIGFPE},   {"SIGKILL", SIGKILL}, {"SIGUSR1", SIGUSR1},
    {"SIGSEGV", SIGSEGV}, {"SIGUSR2", SIGUSR2}, {"SIGPIPE", SIGPIPE}, {"SIGALRM", SIGALRM}, {"SIGTERM", SIGTERM},
    {"SIGCHLD", SIGCHLD}, {"SIGCONT", SIGCONT}, {"SIGSTOP", SIGSTOP},
};

}  // namespace

void init_signal_module(Interpreter&, ModuleObject& m) {
  for (const SignalName& s : kSignals) m.globals->set(s.name, py_int(s.number));
  m.globals->set("NSIG", py_int(NSIG));
  m.globals->set("raise_signal", native_function("raise_signal", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("raise_signal", c, {{"signalnum"}});
    if (std::raise(static_cast<int>(to_index(ip, a[0]))) != 0) raise_os_error(errno);
    return none();
  }));
}

}  // namespace kiln::python
