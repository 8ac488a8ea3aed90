// Arbitrary bytes as the data.pkl of a checkpoint archive (with one 256-byte storage record,
// data/0), loaded by torch.load as a script calls it. The unpickler and the tensor rebuilding
// must end in a value or a Python exception: a crash, a sanitizer report or a C++ exception that
// escapes the interpreter is a finding. weights_only stays on (the default), so the pickle can
// name no global outside torch.load's allowed set. One interpreter, with torch imported once,
// loads every input (a fresh one per input would run a few inputs a second).
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "libcompiler/capture/dynamo_module.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/checkpoint_archive.h"
#include "libcompiler/python/torch/torch_module.h"

extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1:max_allocation_size_mb=256"; }

namespace {

const std::filesystem::path& archive_path() {
  static const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("kiln_fuzz_checkpoint_" + std::to_string(getpid()) + ".pt");
  return path;
}

kiln::python::Interpreter& interpreter() {
  static kiln::python::Interpreter* interp = [] {
    auto* made = new kiln::python::Interpreter();
    kiln::python::install_torch(*made);
    kiln::capture::install_capture(*made);  // `import torch` imports torch._dynamo
    made->argv = {"-c"};
    return made;
  }();
  return *interp;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  static std::ofstream discard("/dev/null");
  std::cout.rdbuf(discard.rdbuf());
  std::cerr.rdbuf(discard.rdbuf());
  std::atexit([] {
    std::error_code ignored;
    std::filesystem::remove(archive_path(), ignored);
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string pickle(reinterpret_cast<const char*>(data), size);
  kiln::python::write_checkpoint_archive(archive_path().string(), {{"fuzz/data.pkl", pickle},
                                                                    {"fuzz/data/0", std::string(256, '\1')},
                                                                    {"fuzz/version", "3\n"}});
  kiln::python::Interpreter& interp = interpreter();
  static const kiln::python::Ref load = kiln::python::getattr(interp, interp.import_module("torch"), "load");
  try {
    kiln::python::call(interp, load, std::vector<kiln::python::Ref>{kiln::python::py_str(archive_path().string())});
  } catch (const kiln::python::PyException&) {
    // A Python exception is how a bad checkpoint must end.
  } catch (const std::exception& error) {
    std::fprintf(stderr, "fuzz_checkpoint_loader: a C++ exception escaped the interpreter: %s\n", error.what());
    std::abort();
  }
  return 0;
}
