// Cost of graph capture in kiln: a cold capture of a 10-op function (first call minus a cached
// call), and the guard check of a cache hit for a function of 4 tensor arguments. Prints
// microseconds as "cold_capture_us <v>" and "guard_check_us <v>"; capture_overhead.py runs it
// beside PyTorch 2.11 on the same function (capture_overhead_model.py, or the file given).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <chrono>
#include <iostream>
#include <vector>

#include "kiln_config.h"
#include "libcompiler/backends/backends.h"
#include "libcompiler/capture/dynamo_module.h"
#include "libcompiler/capture/runtime.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/torch_module.h"

namespace {

using namespace kiln;
using Clock = std::chrono::steady_clock;


double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  std::filesystem::path model = argc > 1 ? argv[1] : std::filesystem::path(KILN_SOURCE_DIR) / "tests/bench/capture_overhead_model.py";
  std::ifstream in(model);
  std::stringstream source;
  source << in.rdbuf();
  python::Interpreter interp;
  python::install_torch(interp);
  capture::install_capture(interp);
  backends::install_backends();
  auto module = std::make_shared<python::ModuleObject>("__main__");
  module->globals = python::py_dict();
  module->globals->set("__name__", python::py_str("__main__"));
  interp.exec_code(interp.load(source.str(), model.string()), *module);
  python::Ref compiled = module->globals->get("compiled");
  std::vector<python::Ref> args = python::to_vector(interp, module->globals->get("args"));
  python::Ref reset = python::getattr(interp, interp.import_module("torch._dynamo"), "reset");

  auto time_call = [&] {
    auto start = Clock::now();
    python::call(interp, compiled, args);
    return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
  };
  std::vector<double> cold;
  for (int i = 0; i < 200; ++i) {
    python::call(interp, reset, std::vector<python::Ref>{});
    double first = time_call();
    double cached = time_call();
    cold.push_back(first - cached);
  }

  const auto& function = python::as<python::FunctionObject>(module->globals->get("f"));
  const capture::CodeState* code = capture::Runtime::instance().code_state(function);
  if (!code || code->entries.empty()) {
    std::cerr << "capture_overhead: f was not compiled\n";
    return 1;
  }
  capture::FrameInputs inputs;
  inputs.globals = module->globals;
  const char* names[] = {"a", "b", "c", "d"};
  for (size_t i = 0; i < 4; ++i) inputs.locals.emplace_back(names[i], args[i]);
  const capture::GuardSet& guards = code->entries.front()->guards;
  constexpr int kChecks = 200000;
  auto start = Clock::now();
  int failures = 0;
  for (int i = 0; i < kChecks; ++i) failures += guards.check(interp, inputs).has_value();
  double guard_us = std::chrono::duration<double, std::micro>(Clock::now() - start).count() / kChecks;
  if (failures) {
    std::cerr << "capture_overhead: guards failed on the inputs they were made for\n";
    return 1;
  }
  std::cout << "cold_capture_us " << median(cold) << "\nguard_check_us " << guard_us << "\nguards " << guards.size() << "\n";
  return 0;
}
