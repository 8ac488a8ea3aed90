// Arbitrary bytes run as a script by the interpreter, with the torch surface, torch.compile and
// its backends installed, as `kiln -c` runs them. Whatever the script does, it must end as a
// Python program ends: normally, or with a Python exception and its traceback. Anything else is a
// finding: a crash, a sanitizer report, a C++ exception that escapes the interpreter, a hang.
//
// Limits: each input runs for at most a second of CPU time (then KeyboardInterrupt, as from
// Ctrl-C: calls and loop iterations check for it; the timer is ITIMER_VIRTUAL, since libFuzzer's
// own -timeout uses SIGALRM and ITIMER_REAL), and no single allocation may exceed 256 MB
// (ASan returns null above it, which Kiln turns into MemoryError or PyTorch's out-of-memory
// RuntimeError). The script runs in a temporary folder, so that files
// it opens for writing land there. Its output and Kiln's warnings go to /dev/null.
#include <sys/time.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "libcompiler/backends/backends.h"
#include "libcompiler/capture/dynamo_module.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/torch/torch_module.h"
#include "libcompiler/repro/install.h"

extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1:max_allocation_size_mb=256"; }

namespace {

constexpr long kTimeLimitMicroseconds = 1'000'000;

extern "C" void on_time_limit(int) { kiln::python::Interpreter::request_interrupt(); }

const std::filesystem::path& scratch_folder() {
  static const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("kiln_fuzz_script_" + std::to_string(getpid()));
  return folder;
}

// The script runs in the scratch folder; libFuzzer's own paths stay relative to where it started.
struct InScratchFolder {
  InScratchFolder() : previous(std::filesystem::current_path()) { std::filesystem::current_path(scratch_folder()); }
  ~InScratchFolder() { std::filesystem::current_path(previous); }
  std::filesystem::path previous;
};

void set_alarm(long microseconds) {
  itimerval timer{};
  timer.it_value.tv_sec = microseconds / 1'000'000;
  timer.it_value.tv_usec = microseconds % 1'000'000;
  setitimer(ITIMER_VIRTUAL, &timer, nullptr);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::filesystem::create_directories(scratch_folder());
  setenv("TORCHINDUCTOR_FORCE_DISABLE_CACHES", "1", 1);
  static std::ofstream discard("/dev/null");
  std::cout.rdbuf(discard.rdbuf());
  std::cerr.rdbuf(discard.rdbuf());  // warnings and logs (findings are reported with stdio)
  std::atexit([] {
    std::error_code ignored;
    std::filesystem::remove_all(scratch_folder(), ignored);
  });
  std::signal(SIGVTALRM, on_time_limit);
  kiln::backends::install_backends();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string source(reinterpret_cast<const char*>(data), size);
  std::ostringstream err;
  {
    InScratchFolder in_scratch;
    kiln::python::Interpreter interp;
    kiln::python::install_torch(interp);
    kiln::capture::install_capture(interp);
    kiln::repro::install_repro(interp);
    interp.argv = {"-c"};
    set_alarm(kTimeLimitMicroseconds);
    try {
      interp.run_main_source(source, "<string>", err);
    } catch (const std::exception& error) {
      std::fprintf(stderr, "fuzz_script_runner: a C++ exception escaped the interpreter: %s\n%s\n", error.what(), source.c_str());
      std::abort();
    }
    set_alarm(0);
  }
  // The time limit may have come after the script ended: the next one starts without it.
  kiln::python::Interpreter::clear_interrupt();
  return 0;
}
