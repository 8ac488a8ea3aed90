// minify: turns a failing torch.compile into a minimal repro.py (DESIGN.md §1).
//   minify --after=aot|dynamo [--level=N] [--backend NAME] [-j N] SCRIPT.py [ARGS...]
//       runs the script in a child kiln under the repro wrapper, catches its first failure and
//       reduces it (the launcher's minify command); the same command again resumes.
//   minify REPRO.py [COMMAND] [FLAGS...]
//       runs a repro file or minifier_launcher.py: its own command, or run, minify, analyze.
//   minify --python PY [--after=aot|dynamo ...] SCRIPT.py|REPRO.py
//       the same with real PyTorch as the oracle: the script (or PyTorch's own launcher or repro)
//       runs under PY, and every candidate Kiln's passes make runs there as a repro file.
//   minify --bisect SCRIPT.py [ARGS...]
//       the compiler bisector: which backend, subsystem and application first breaks the script
//       (a run is good when the script exits with status 0; add --after/--level to have the
//       repro wrapper turn an accuracy failure into a failing exit).
// The work is in libcompiler/repro.
#include <unistd.h>

#include <boost/program_options.hpp>
#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "kiln_config.h"
#include "libcompiler/backends/backends.h"
#include "libcompiler/capture/dynamo_module.h"
#include "libcompiler/inductor/warm_up.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/torch/torch_module.h"
#include "libcompiler/tensor/parallel.h"
#include "libcompiler/repro/backend_override.h"
#include "libcompiler/repro/compiler_bisect.h"
#include "libcompiler/repro/install.h"
#include "libcompiler/repro/run_repro.h"
#include "libcompiler/repro/script_run.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

// A repro file runs here, in this process, as kiln would run it; `argv` is the file and its
// command line.
int run_repro_file(const std::vector<std::string>& argv) {
  kiln::python::Interpreter interp;
  kiln::python::install_torch(interp);
  kiln::capture::install_capture(interp);
  kiln::backends::install_backends();
  kiln::repro::install_repro(interp);
  interp.argv = argv;
  return interp.run_main_file(argv.front(), std::cerr);
}

fs::path kiln_binary() {
  char path[4096];
  const ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
  if (length <= 0) return "kiln";
  path[length] = '\0';
  return fs::path(path).parent_path() / "kiln";
}

int minify_script(const po::variables_map& options, const std::vector<std::string>& rest, const std::string& after, int level);

// minify's own options that the repro file's minify command takes over (run_repro.h).
std::vector<std::string> repro_minify_flags(const po::variables_map& options) {
  std::vector<std::string> flags;
  if (!options["jobs"].defaulted()) flags.insert(flags.end(), {"--jobs", std::to_string(options["jobs"].as<size_t>())});
  if (options.count("timeout")) flags.insert(flags.end(), {"--timeout", std::to_string(options["timeout"].as<double>())});
  if (options.count("max-tests")) flags.insert(flags.end(), {"--max-tests", std::to_string(options["max-tests"].as<size_t>())});
  if (options.count("python")) flags.insert(flags.end(), {"--python", options["python"].as<std::string>()});
  if (options.count("backend-from")) flags.insert(flags.end(), {"--backend-from", options["backend-from"].as<std::string>()});
  return flags;
}

}  // namespace

int main(int argc, char** argv) {
  kiln::tensor::run_openmp_passively(argv);
  const kiln::inductor::FinishWarmUpOnReturn finish_warm_up;
  std::ios::sync_with_stdio(false);
  po::options_description visible(
      "Usage: minify --after=aot|dynamo [options] SCRIPT.py [ARGS...]\n"
      "       minify REPRO.py [run|minify|analyze|get_args|minifier-query] [FLAGS...]\n"
      "       minify --python PY [--after=aot|dynamo --level=N] SCRIPT.py|REPRO.py [ARGS...]\n"
      "       minify --bisect [--after=aot|dynamo --level=N] SCRIPT.py [ARGS...]\n\nOptions");
  visible.add_options()("help,h", "print this help and exit")("version,V", "print the version and exit")(
      "after", po::value<std::string>(), "where to catch the failure: dynamo (the captured graph) or aot (the aten graphs)")(
      "level", po::value<int>()->default_value(2), "repro level: 1-3 a compile or run failure, 4 an accuracy failure")(
      "backend", po::value<std::string>(), "compile with this backend whatever the script asks for")(
      "jobs,j", po::value<size_t>()->default_value(1), "candidates tested at once")(
      "timeout", po::value<double>(), "seconds a candidate may run (default: 10 times the first run, at least 5)")(
      "max-tests", po::value<size_t>(), "stop after this many tests (the same command again resumes)")(
      "work-dir", po::value<std::string>(), "where the launcher, checkpoints and memo go (default: torch_compile_debug/minify/<script>-<hash>)")(
      "python", po::value<std::string>(), "real PyTorch as the oracle: run the script and every candidate under this Python (with torch)")(
      "backend-from", po::value<std::string>(), "after Dynamo, for a launcher: the script that defines the backend it only names")(
      "bisect", "find the backend, subsystem and application that first break the script");
  // Flags end at the script: what follows is the script's (or the repro file's) own.
  int own = 1;
  while (own < argc && argv[own][0] == '-') {
    const std::string arg = argv[own];
    const bool takes_value = arg.find('=') == std::string::npos &&
                             (arg == "--after" || arg == "--level" || arg == "--backend" || arg == "-j" || arg == "--jobs" ||
                              arg == "--timeout" || arg == "--max-tests" || arg == "--work-dir" || arg == "--python" || arg == "--backend-from");
    own += takes_value ? 2 : 1;
  }
  own = std::min(own, argc);
  po::variables_map options;
  try {
    po::store(po::command_line_parser(own, argv).options(visible).run(), options);
    po::notify(options);
  } catch (const po::error& error) {
    std::cerr << "minify: " << error.what() << "\n" << visible;
    return 2;
  }
  if (options.count("help")) {
    std::cout << visible << "\n" << kiln::repro::run_repro_flags();
    return 0;
  }
  if (options.count("version")) {
    std::cout << "minify (kiln) " << KILN_VERSION << "\n";
    return 0;
  }
  const std::vector<std::string> rest(argv + own, argv + argc);
  if (rest.empty()) {
    std::cerr << "minify: no script given\n" << visible;
    return 2;
  }
  if (!fs::exists(rest.front())) {
    std::cerr << "minify: " << rest.front() << ": no such file\n";
    return 2;
  }
  if (!options.count("after") && !options.count("bisect")) {
    if (options.count("backend")) setenv(kiln::repro::kCompileBackendVariable, options["backend"].as<std::string>().c_str(), 1);
    std::vector<std::string> repro = rest;
    const std::vector<std::string> flags = repro_minify_flags(options);
    repro.insert(repro.begin() + 1, flags.begin(), flags.end());
    return run_repro_file(repro);
  }

  const std::string after = options.count("after") ? options["after"].as<std::string>() : "";
  const int level = options["level"].as<int>();
  if (!(after == "aot" || after == "dynamo" || (after.empty() && options.count("bisect")))) {
    std::cerr << "minify: --after must be aot or dynamo, not '" << after << "'\n";
    return 2;
  }
  if (options.count("bisect") && options.count("python")) {
    std::cerr << "minify: --bisect bisects Kiln's own compiler; --python does not apply to it\n";
    return 2;
  }
  if (level < 1 || level > 4) {
    std::cerr << "minify: --level must be 1, 2, 3 or 4, not " << level << "\n";
    return 2;
  }
  if (options.count("timeout") && !(options["timeout"].as<double>() > 0)) {
    std::cerr << "minify: --timeout must be a positive number of seconds, not " << options["timeout"].as<double>() << "\n";
    return 2;
  }
  try {
    return minify_script(options, rest, after, level);
  } catch (const std::exception& error) {
    // A work folder that cannot be written, a memo another run holds: said, not an abort.
    std::cerr << "minify: " << error.what() << "\n";
    return 1;
  }
}

namespace {

int minify_script(const po::variables_map& options, const std::vector<std::string>& rest, const std::string& after, int level) {
  const std::optional<std::string> backend =
      options.count("backend") ? std::optional<std::string>(options["backend"].as<std::string>()) : std::nullopt;
  const auto started = std::chrono::steady_clock::now();
  kiln::repro::ScriptCommand command;
  command.interpreter = options.count("python") ? fs::path(options["python"].as<std::string>()) : kiln_binary();
  command.script = rest.front();
  command.args.assign(rest.begin() + 1, rest.end());
  const fs::path work_dir = options.count("work-dir")
                                ? fs::absolute(options["work-dir"].as<std::string>())
                                : kiln::repro::work_dir_for(command.script, command.args,
                                                            (options.count("bisect") ? "bisect " : "") + after + " " +
                                                                std::to_string(level) + " " + backend.value_or("") +
                                                                (options.count("python") ? " python " + options["python"].as<std::string>() : ""));
  command.log = work_dir / "script.log";
  // --timeout bounds every run, the first run of the script included (a hanging backend there
  // would otherwise never return).
  if (options.count("timeout"))
    command.timeout = std::chrono::milliseconds(static_cast<int64_t>(options["timeout"].as<double>() * 1000));
  if (options.count("bisect")) {
    if (!after.empty()) {
      command.environment["TORCHDYNAMO_REPRO_AFTER"] = after;
      command.environment["TORCHDYNAMO_REPRO_LEVEL"] = std::to_string(level);
      command.environment["TORCHDYNAMO_REPRO_DIR"] = (work_dir / "repro").string();
    }
    const fs::path bisect_dir = work_dir / "bisect";
    std::optional<kiln::bisect::BisectionResult> result;
    try {
      result = kiln::repro::bisect_script(command, bisect_dir, std::cout);
    } catch (const std::exception& error) {
      std::cerr << "minify: " << error.what() << "\n";
      return 1;
    }
    std::cout << (result ? result->repr() : "No backend breaks the script") << "\n";
    std::cout << "minify: attempts' output in " << bisect_dir.string() << "\n";
    return 0;
  }
  const kiln::repro::CaughtFailure caught = kiln::repro::catch_first_failure(
      command, work_dir, after == "aot" ? kiln::repro::ReproAfter::Aot : kiln::repro::ReproAfter::Dynamo, level, backend);
  std::cout << "minify: " << command.script.string() << " exited with status " << caught.run.exit_status << " after "
            << std::fixed << std::setprecision(2) << caught.run.elapsed.count() << " s (output: " << command.log.string() << ")\n";
  if (caught.run.timed_out)
    std::cout << "minify:   it ran past --timeout (" << options["timeout"].as<double>() << " s) and was stopped\n";
  if (!caught.run.last_line.empty()) std::cout << "minify:   " << caught.run.last_line << "\n";
  if (caught.repro_file.empty()) {
    std::cout << "minify: the repro tools caught no failure after " << after << " (nothing to minify)\n";
    return 1;
  }
  std::cout << "minify: reducing " << caught.repro_file.string() << "\n" << std::flush;
  std::vector<std::string> launcher = {caught.repro_file.string(), "minify"};
  const std::vector<std::string> flags = repro_minify_flags(options);
  launcher.insert(launcher.end(), flags.begin(), flags.end());
  // PyTorch's after-Dynamo launcher names a script-defined backend it cannot find: the script has it.
  if (options.count("python") && after == "dynamo" && !options.count("backend-from"))
    launcher.insert(launcher.end(), {"--backend-from", fs::absolute(command.script).string()});
  const int status = run_repro_file(launcher);
  std::cout << "minify: done in " << std::fixed << std::setprecision(2)
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() << " s\n";
  return status;
}

}  // namespace
