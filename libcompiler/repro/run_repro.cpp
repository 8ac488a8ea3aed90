#include "libcompiler/repro/run_repro.h"

#include <boost/program_options.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

#include "libcompiler/ir/runnable_parser.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/tensor_object.h"
#include "libcompiler/repro/analyze.h"
#include "libcompiler/repro/backend_override.h"
#include "libcompiler/repro/graph_accuracy.h"
#include "libcompiler/repro/host_placement.h"
#include "libcompiler/repro/input_reader.h"
#include "libcompiler/repro/minifier.h"
#include "libcompiler/repro/python_oracle.h"
#include "libcompiler/repro/repro_config.h"
#include "libcompiler/repro/repro_dir.h"
#include "libcompiler/repro/repro_header.h"
#include "libcompiler/repro/repro_writer.h"
#include "libcompiler/tensor/host_stand_in.h"

namespace kiln::repro {

using namespace python;
namespace po = boost::program_options;

namespace {

struct ReproRun {
  ReproAfter after;
  Ref mod, load_args;
  std::string command = "run";
  AccuracyMode accuracy = AccuracyMode::None;
  std::optional<std::filesystem::path> save_dir;
  std::string check_str;
  std::string backend = "inductor";
  Ref backend_spec;  // after Dynamo: what torch.compile gets
  size_t jobs = 1;
  std::optional<std::chrono::milliseconds> timeout;
  size_t max_tests = 0;
  bool check_deterministic = true;
  std::string python;  // minify --python: the Python whose torch runs the candidates
  std::optional<std::filesystem::path> backend_from;  // the script that defines a backend the file only names
  std::string backend_source;                          // after Dynamo: a script-defined backend's, carried
  std::vector<std::string> file_config;                // with --python: the file's own config lines
  std::optional<tensor::Device> kept_on_host_for;      // minify: the GPU the host-kept inputs stand for
};

AccuracyMode accuracy_of(Interpreter& interp, const Ref& value) {
  if (!value || is_none(value)) return AccuracyMode::None;
  if (value->kind == ObjectKind::Str) {
    const std::string& text = as<StrObject>(value).value;
    return text.empty() ? AccuracyMode::None : text == "strict_accuracy" ? AccuracyMode::Strict : AccuracyMode::Accuracy;
  }
  return truthy(interp, value) ? AccuracyMode::Accuracy : AccuracyMode::None;
}

// The command line after the script's name: the command and its flags (run_repro_flags).
void apply_command_line(Interpreter& interp, ReproRun& run) {
  std::vector<std::string> argv(interp.argv.begin() + std::min<size_t>(1, interp.argv.size()), interp.argv.end());
  po::options_description flags = run_repro_flags();
  po::positional_options_description positional;
  positional.add("command", 1);
  po::variables_map options;
  try {
    po::store(po::command_line_parser(argv).options(flags).positional(positional).run(), options);
  } catch (const po::error& error) {
    std::ostringstream help;
    help << flags;
    raise_error(ExcType::ValueError, std::string("run_repro: ") + error.what() + "\n" + help.str());
  }
  if (options.count("command")) run.command = options["command"].as<std::string>();
  if (options.count("accuracy")) run.accuracy = AccuracyMode::Accuracy;
  if (options.count("strict-accuracy")) run.accuracy = AccuracyMode::Strict;
  if (options.count("no-accuracy")) run.accuracy = AccuracyMode::None;
  if (options.count("save-dir")) run.save_dir = options["save-dir"].as<std::string>();
  if (options.count("no-save-dir")) run.save_dir.reset();
  if (options.count("check-str")) run.check_str = options["check-str"].as<std::string>();
  if (options.count("backend")) {
    run.backend = options["backend"].as<std::string>();
    run.backend_spec = py_str(run.backend);
  }
  if (options.count("jobs")) run.jobs = std::max<size_t>(1, options["jobs"].as<size_t>());
  if (options.count("timeout")) run.timeout = std::chrono::milliseconds(int64_t(options["timeout"].as<double>() * 1000));
  if (options.count("max-tests")) run.max_tests = options["max-tests"].as<size_t>();
  if (options.count("skip-check-deterministic")) run.check_deterministic = false;
  if (options.count("python")) run.python = options["python"].as<std::string>();
  if (options.count("backend-from")) run.backend_from = options["backend-from"].as<std::string>();
}

// The source of the file whose Repro class `mod` is.
const std::string& repro_file_text(Interpreter& interp, const Ref& mod) {
  Ref forward = try_getattr(interp, type_of(mod), "forward");
  if (!forward || forward->kind != ObjectKind::Function || !as<FunctionObject>(forward).loaded)
    raise_error(ExcType::TypeError, "run_repro() needs the Repro module of a repro file");
  return as<FunctionObject>(forward).loaded->ast->file->text();
}

// After Dynamo, a script-defined backend's source, carried so that the repro files run on their
// own: from the function itself, or, for a file that only names it (PyTorch's launchers), from the
// script --backend-from gives.
std::string carried_backend_source(Interpreter& interp, const ReproRun& run) {
  if (run.after != ReproAfter::Dynamo) return "";
  std::string source = backend_source(run.backend_spec);
  if (source.empty() && run.backend_from) source = backend_source_in_script(interp, *run.backend_from, run.backend);
  return source;
}

ReproRun parse_call(Interpreter& interp, CallArgs& c, ReproAfter after) {
  ReproRun run;
  run.after = after;
  if (c.args.size() < 2) raise_error(ExcType::TypeError, "run_repro() takes the module and load_args");
  run.mod = c.args[0];
  run.load_args = c.args[1];
  for (const auto& [name, value] : c.kwargs) {
    if (name == "command") run.command = to_str(value, "command");
    else if (name == "accuracy") run.accuracy = accuracy_of(interp, value);
    else if (name == "save_dir") run.save_dir = is_none(value) ? std::nullopt : std::optional<std::filesystem::path>(to_str(value, "save_dir"));
    else if (name == "check_str") run.check_str = is_none(value) ? "" : to_str(value, "check_str");
    else if (name == "backend") {
      run.backend_spec = value;
      run.backend = value->kind == ObjectKind::Str        ? as<StrObject>(value).value
                    : value->kind == ObjectKind::Function ? as<FunctionObject>(value).name
                                                          : type_name(value);
    }
  }
  // The environment's override wins over the file (minify --backend), the command line over both.
  if (const std::optional<std::string> chosen = overriding_backend()) {
    run.backend = *chosen;
    run.backend_spec = py_str(*chosen);
  }
  if (!run.backend_spec) run.backend_spec = py_str(run.backend);
  apply_command_line(interp, run);
  // What every file written for this run carries, found once (checkpoints are written often).
  run.backend_source = carried_backend_source(interp, run);
  if (!run.python.empty()) run.file_config = config_lines_of(repro_file_text(interp, run.mod));
  return run;
}

ReproState load_state(Interpreter& interp, const ReproRun& run) {
  ReproState state{repro_module_graph(interp, run.mod), {}};
  Ref reader = make_input_reader(run.save_dir);
  call(interp, run.load_args, std::vector<Ref>{reader});
  state.inputs = reader_inputs(interp, reader);
  const size_t placeholders = state.module->graph.placeholders().size();
  if (state.inputs.size() != placeholders)
    raise_error(ExcType::ValueError, "load_args gave " + std::to_string(state.inputs.size()) + " inputs for a graph with " +
                                         std::to_string(placeholders) + " placeholders");
  return state;
}

ReproTarget target_of(Interpreter& interp, const ReproRun& run) {
  const ReproConfig config = read_repro_config(interp);
  ReproTarget target;
  target.after = run.after;
  target.backend = run.backend;
  target.backend_spec = run.backend_spec;
  target.accuracy = run.accuracy;
  target.tolerance = config.tolerance;
  target.only_fwd = run.after == ReproAfter::Aot || config.forward_only;
  target.kept_on_host_for = run.kept_on_host_for;
  return target;
}

[[noreturn]] void raise_accuracy_error(Interpreter& interp, const std::string& message) {
  Ref error_class = getattr(interp, interp.import_module("torch._dynamo.debug_utils"), "AccuracyError");
  throw PyException(call(interp, error_class, std::vector<Ref>{py_str(message)}));
}

// After AOT the compiled forward is compared with the graph's; after Dynamo, as PyTorch's repro_run,
// eager is first compared with itself ("Eager itself failed": it is not deterministic), then with
// the compiled module, forward and backward unless repro_forward_only.
Ref run_command(Interpreter& interp, const ReproRun& run, const ReproState& state) {
  const ReproTarget target = target_of(interp, run);
  if (run.accuracy == AccuracyMode::None) {
    run_compiled(interp, state, target);
    return none();
  }
  const GraphForward eager = eager_forward(interp, state, target);
  if (run.after == ReproAfter::Dynamo) {
    GraphAccuracyOptions eager_check;  // PyTorch's same_two_models(mod, mod, args): its defaults
    eager_check.tolerance = target.tolerance;
    eager_check.only_fwd = false;
    if (!same_two_models(*state.module, state.inputs, eager, eager_check, eager)) raise_error(ExcType::AssertionError, "Eager itself failed");
  }
  if (!same_two_models(*state.module, state.inputs, compiled_forward(interp, state, target), accuracy_options(target), eager))
    raise_accuracy_error(interp, run.after == ReproAfter::Aot ? "Bad accuracy detected" : "Dynamo failed");
  return none();
}

ReproScript script_of(const ReproRun& run, const ReproState& state) {
  ReproScript script;
  script.after = run.after;
  script.state = state;
  script.accuracy = run.accuracy != AccuracyMode::None;
  script.save_dir = run.save_dir;
  script.backend = run.backend;
  script.backend_source = run.backend_source;
  if (!run.check_str.empty()) script.check_str = run.check_str;
  // Reduced against real PyTorch: the repros carry the launcher's config, which PyTorch reads.
  if (!run.python.empty()) script.config = run.file_config;
  script.kept_on_host_for = run.kept_on_host_for;
  return script;
}

Ref minify_command(Interpreter& interp, const ReproRun& run, const ReproState& state) {
  MinifyOptions options;
  options.target = target_of(interp, run);
  options.memo_path = run.save_dir ? *run.save_dir / "minifier_memo.sqlite" : std::filesystem::path(":memory:");
  if (run.save_dir) std::filesystem::create_directories(*run.save_dir);
  options.jobs = run.jobs;
  options.timeout = run.timeout;
  options.check_str = run.check_str;
  options.max_tests = run.max_tests;
  if (!run.python.empty()) {
    const std::filesystem::path work = run.save_dir.value_or(checkpoints_dir());
    *interp.out << "Starting the PyTorch oracle under " << run.python << "\n" << std::flush;
    try {
      options.target.oracle = std::make_shared<const PythonOracle>(run.python, work, script_of(run, state));
    } catch (const std::runtime_error& error) {
      raise_error(ExcType::RuntimeError, error.what());
    }
  }
  const std::filesystem::path checkpoints = run.save_dir.value_or(checkpoints_dir());
  options.on_smaller = [&](const ReproState& smaller) {
    const std::string text = repro_script_text(interp, script_of(run, smaller));
    const size_t nodes = call_node_count(smaller.module->graph);
    if (run.after == ReproAfter::Aot) write_aot_checkpoint(checkpoints, text, nodes, "");
    else write_dynamo_checkpoint(checkpoints, text, nodes, "");
  };
  interp.out->flush();
  const MinifyResult result = minify(interp, state, options, *interp.out);
  *interp.out << summary(result) << "\n";
  switch (result.status) {
    case MinifyResult::Status::DidNotFail: raise_error(ExcType::RuntimeError, "Input graph did not fail the tester");
    case MinifyResult::Status::BudgetExhausted:
      *interp.out << "Stopped after " << result.tests_run << " tests (--max-tests); run the same command again to resume\n";
      return none();
    case MinifyResult::Status::Minimal: break;
  }
  ReproScript final_script = script_of(run, result.state);
  final_script.command = "run";
  const std::filesystem::path path = convenience_repro_path();
  write_text_file(path, repro_script_text(interp, final_script));
  *interp.out << "Wrote minimal repro out to " << path.string() << "\n";
  return none();
}

Ref run_repro(Interpreter& interp, CallArgs& c, ReproAfter after) {
  ReproRun run = parse_call(interp, c, after);
  SuspendReproWrappers suspended;
  // The minifier forks a child per candidate and CUDA does not survive fork: its own process keeps
  // a GPU repro's tensors on the host (host_placement.h).
  std::optional<tensor::HostStandIn> on_host;
  if (run.command == "minify") {
    if (must_start_again_on_host()) start_again_on_host(interp.argv);
    on_host.emplace(tensor::DeviceType::CUDA);
  }
  const ReproState state = load_state(interp, run);
  if (on_host) run.kept_on_host_for = tensor::stood_in_for(tensor::DeviceType::CUDA);
  if (run.command == "run") return run_command(interp, run, state);
  if (run.command == "minify") return minify_command(interp, run, state);
  if (run.command == "analyze") {
    AnalyzeOptions options;
    options.check_deterministic = run.check_deterministic;
    analyze(interp, state, target_of(interp, run), options, *interp.out);
    return none();
  }
  if (run.command == "get_args") {
    std::vector<Ref> args = python_inputs(state.inputs);
    return py_tuple({run.mod, py_tuple(std::move(args))});
  }
  if (run.command == "minifier-query") {
    const Failure found = run_state(interp, state, target_of(interp, run));
    Ref exit = builtin_type_ref(exception_type(ExcType::SystemExit));
    throw PyException(call(interp, exit, std::vector<Ref>{py_int(found.failed() ? 1 : 0)}));
  }
  raise_error(ExcType::ValueError, "run_repro: unknown command '" + run.command + "' (run, minify, analyze, get_args, minifier-query)");
}

void install_repro_module(Interpreter& interp, const char* name, ReproAfter after) {
  interp.register_native_module(name, [after](Interpreter&, ModuleObject& m) {
    m.globals->set("run_repro", native_function("run_repro", [after](Interpreter& ip, CallArgs& c) { return run_repro(ip, c, after); }));
  });
}

}  // namespace

std::shared_ptr<const ir::GraphModule> repro_module_graph(Interpreter& interp, const Ref& mod) {
  const std::string& text = repro_file_text(interp, mod);
  try {
    return ir::parseRunnable(text);
  } catch (const std::exception& error) {
    raise_error(ExcType::SyntaxError, std::string("cannot read the Repro class: ") + error.what());
  }
}

po::options_description run_repro_flags() {
  po::options_description flags("A repro file's command and flags (minify REPRO.py [COMMAND] [FLAGS...]; PyTorch's run_repro names, plus Kiln's -j, --timeout, --max-tests and --python)");
  flags.add_options()("command", po::value<std::string>(), "run, minify, analyze, get_args or minifier-query")(
      "accuracy", "compare with the reference (a float64 reference is required, non-floating outputs are ignored)")(
      "no-accuracy", "look for an exception, not an accuracy failure")(
      "strict-accuracy", "any divergence counts, integer and boolean outputs included")(
      "save-dir", po::value<std::string>(), "the content store and checkpoints")("no-save-dir", "random inputs, no checkpoints")(
      "check-str", po::value<std::string>(), "only failures whose message holds this string count")(
      "backend", po::value<std::string>(), "the backend to compile with")(
      "jobs,j", po::value<size_t>(), "minify: candidates tested at once")(
      "timeout", po::value<double>(), "minify: seconds a candidate may run")(
      "max-tests", po::value<size_t>(), "minify: stop (resumably) after this many tests")(
      "python", po::value<std::string>(), "minify: run the candidates under this Python's torch (real PyTorch as the oracle)")(
      "backend-from", po::value<std::string>(), "after Dynamo: the script that defines the backend the file only names (its def is carried into the repro files)")(
      "skip-check-deterministic", "analyze: run the compiled graph once")(
      "tracing-mode", po::value<std::string>(), "accepted for PyTorch's launchers (graphs run as they are)")(
      "isolate", "accepted (candidates always run isolated)")("no-isolate", "accepted (candidates always run isolated)")(
      "skip-sanity", "accepted (the first run learns the failure)")("max-granularity", po::value<size_t>(), "accepted")(
      "offload-to-disk", "accepted")("skip-saving-eager-intermediates", "accepted")(
      "skip-saving-inductor-intermediates", "accepted")("skip-saving-float64-intermediates", "accepted")(
      "stable-hash", "accepted")("only-fwd", "accepted (without --accuracy the forward alone runs; with it repro_forward_only decides, as in PyTorch)")("autocast", "accepted")("no-autocast", "accepted");
  return flags;
}

void install_run_repro(Interpreter& interp) {
  interp.register_native_module("torch._dynamo.repro", [](Interpreter&, ModuleObject&) {});
  install_repro_module(interp, "torch._dynamo.repro.after_aot", ReproAfter::Aot);
  install_repro_module(interp, "torch._dynamo.repro.after_dynamo", ReproAfter::Dynamo);
  interp.register_native_module("torch._dynamo.testing", [](Interpreter&, ModuleObject& m) {
    m.globals->set("rand_strided", native_function("rand_strided", [](Interpreter& ip, CallArgs& c) {
      auto a = bind_native("rand_strided", c, {{"size"}, {"stride"}, {"dtype", false}, {"device", false}, {"extra_size", false}});
      auto shape = [&](const Ref& v) {
        tensor::Shape s;
        for (const Ref& item : to_vector(ip, v)) s.push_back(to_index(ip, item));
        return s;
      };
      const tensor::DType dtype = a[2] && !is_none(a[2]) ? to_dtype(a[2]) : tensor::DType::Float32;
      const tensor::Device device = a[3] && !is_none(a[3]) ? to_device(a[3]) : tensor::kCPU;
      return wrap_tensor(rand_strided(shape(a[0]), shape(a[1]), dtype, device));
    }));
  });
}

}  // namespace kiln::repro
