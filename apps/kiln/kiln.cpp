// kiln: runs a PyTorch-style Python script (DESIGN.md §4) with Kiln's interpreter and torch surface.
//   kiln SCRIPT.py [ARGS...]     sys.argv = [SCRIPT.py, ARGS...]
//   kiln -c CODE [ARGS...]       sys.argv = ['-c', ARGS...]
//   kiln -m MODULE [ARGS...]     runs MODULE as __main__ (as python -m), sys.argv = [its file, ARGS...]
//   kiln --replay RECORD         re-runs a compile recorded by replay_record_enabled
#include <boost/program_options.hpp>
#include <algorithm>
#include <csignal>
#include <iostream>
#include <string>
#include <vector>

#include "kiln_config.h"
#include "libcompiler/backends/backends.h"
#include "libcompiler/capture/dynamo_module.h"
#include "libcompiler/inductor/warm_up.h"
#include "libcompiler/capture/replay_record.h"
#include "libcompiler/distributed/c10d_module.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/torch/torch_module.h"
#include "libcompiler/repro/install.h"
#include "libcompiler/tensor/parallel.h"

namespace po = boost::program_options;

namespace {

// `interrupted`: the script ended on an uncaught KeyboardInterrupt.
int run(int argc, char** argv, bool& interrupted) {
  const kiln::inductor::FinishWarmUpOnReturn finish_warm_up;
  std::ios::sync_with_stdio(false);
  po::options_description visible("Usage: kiln [options] SCRIPT.py [ARGS...]\n       kiln -c CODE [ARGS...]\n       kiln -m MODULE [ARGS...]\n\nOptions");
  visible.add_options()("help,h", "print this help and exit")("version,V", "print the version and exit")(
      "command,c", po::value<std::string>(), "run CODE instead of a script file")(
      "module,m", po::value<std::string>(), "run library module MODULE as a script (as python -m: torch.distributed.run)")(
      "replay", po::value<std::string>(), "re-run the compile a replay record (torch._dynamo.config.replay_record_enabled) holds");
  po::options_description all;
  all.add(visible);
  po::positional_options_description positional;
  // Flags end at the script name (or after -c CODE): the rest is the script's sys.argv.
  int own = 1;
  while (own < argc) {
    std::string arg = argv[own];
    if (arg == "-c" || arg == "--command" || arg == "-m" || arg == "--module" || arg == "--replay") {
      own = std::min(own + 2, argc);
      break;
    }
    if (arg.empty() || arg[0] != '-') break;
    ++own;
  }
  po::variables_map options;
  try {
    po::store(po::command_line_parser(own, argv).options(all).positional(positional).run(), options);
    po::notify(options);
  } catch (const po::error& error) {
    std::cerr << "kiln: " << error.what() << "\n" << visible;
    return 2;
  }
  if (options.count("help")) {
    std::cout << visible << "\nEnvironment variables:\n";
#define KILN_ENVIRONMENT_VARIABLE(setting, meaning) std::cout << "  " << setting << "\n      " << meaning << "\n";
#include "apps/kiln/environment_variables.def"
    return 0;
  }
  if (options.count("version")) {
    std::cout << "kiln " << KILN_VERSION << "\n";
    return 0;
  }
  std::vector<std::string> args(argv + own, argv + argc);
  kiln::python::Interpreter interp;
  kiln::python::install_torch(interp);
  kiln::capture::install_capture(interp);
  kiln::backends::install_backends();
  kiln::repro::install_repro(interp);
  kiln::distributed::install_distributed(interp);
  if (options.count("command")) {
    interp.argv = {"-c"};
    interp.argv.insert(interp.argv.end(), args.begin(), args.end());
    const int status = interp.run_main_source(options["command"].as<std::string>(), "<string>", std::cerr);
    interrupted = interp.ended_by_interrupt();
    return status;
  }
  if (options.count("module")) {
    interp.argv = {""};
    interp.argv.insert(interp.argv.end(), args.begin(), args.end());
    const int status = interp.run_main_module(options["module"].as<std::string>(), std::cerr);
    interrupted = interp.ended_by_interrupt();
    return status;
  }
  if (options.count("replay")) {
    std::string record = options["replay"].as<std::string>();
    std::string source;
    try {
      source = kiln::capture::replay_source(record);
    } catch (const std::exception& error) {
      std::cerr << "kiln: --replay: " << error.what() << "\n";
      return 2;
    }
    interp.argv = {record};
    return interp.run_main_source(source, "<replay of " + record + ">", std::cerr);
  }
  if (args.empty()) {
    std::cerr << "kiln: no script given\n" << visible;
    return 2;
  }
  interp.argv = args;
  const int status = interp.run_main_file(args.front(), std::cerr);
  interrupted = interp.ended_by_interrupt();
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  kiln::tensor::run_openmp_passively(argv);
  bool interrupted = false;
  const int status = run(argc, argv, interrupted);
  if (interrupted) {
    // As CPython: with the traceback printed and everything finished, the process ends by the
    // signal that interrupted it, so that the shell sees it.
    std::cout.flush();
    std::signal(SIGINT, SIG_DFL);
    std::raise(SIGINT);
  }
  return status;
}
