#include "libcompiler/python/interp/interpreter.h"

#include <csignal>
#include <fstream>
#include <iostream>
#include <sstream>

#include "libcompiler/python/interp/builtin_setup.h"
#include "libcompiler/python/interp/coroutine.h"
#include "libcompiler/python/interp/cycle_collector.h"
#include "libcompiler/python/interp/evaluator.h"
#include "libcompiler/python/interp/class_builder.h"
#include "libcompiler/python/interp/generator.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/parser.h"

namespace kiln::python {
namespace {

// Python's default recursion limit; the main stack is sized so it is reached first.
constexpr int kRecursionLimit = 1000;
constexpr size_t kMainStackBytes = size_t{1} << 30;

std::string quoted_list(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) out += names.size() == 2 ? " and " : (i + 1 == names.size() ? ", and " : ", ");
    out += "'" + names[i] + "'";
  }
  return out;
}

std::string plural(size_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

void bind_arguments(const FunctionObject& f, CallArgs& call, std::vector<Ref>& slots) {
  const Arguments& p = *f.params;
  const std::string& name = f.qualname;
  size_t n_posonly = p.posonlyargs.size();
  size_t n_pos = n_posonly + p.args.size();
  auto positional_name = [&](size_t i) -> const std::string& {
    return i < n_posonly ? p.posonlyargs[i]->arg : p.args[i - n_posonly]->arg;
  };
  size_t next_slot = n_pos;
  size_t vararg_slot = p.vararg ? next_slot++ : 0;
  size_t kwonly_start = next_slot;
  next_slot += p.kwonlyargs.size();
  size_t kwarg_slot = p.kwarg ? next_slot : 0;

  size_t given = call.args.size();
  if (given > n_pos && !p.vararg) {
    size_t with_defaults = f.defaults.size();
    std::string takes = with_defaults ? "from " + std::to_string(n_pos - with_defaults) + " to " + std::to_string(n_pos)
                                      : std::to_string(n_pos);
    raise_error(ExcType::TypeError, name + "() takes " + takes + " positional argument" + (n_pos == 1 && !with_defaults ? "" : "s") +
                                        " but " + std::to_string(given) + (given == 1 ? " was" : " were") + " given");
  }
  for (size_t i = 0; i < std::min(given, n_pos); ++i) slots[i] = std::move(call.args[i]);
  if (p.vararg) {
    std::vector<Ref> extra;
    for (size_t i = n_pos; i < given; ++i) extra.push_back(std::move(call.args[i]));
    slots[vararg_slot] = py_tuple(std::move(extra));
  }
  std::shared_ptr<DictObject> kwargs = p.kwarg ? py_dict() : nullptr;
  std::vector<std::string> posonly_as_keyword;
  for (auto& [key, value] : call.kwargs) {
    size_t slot = SIZE_MAX;
    for (size_t i = n_posonly; i < n_pos; ++i)
      if (positional_name(i) == key) slot = i;
    for (size_t i = 0; i < p.kwonlyargs.size(); ++i)
      if (p.kwonlyargs[i]->arg == key) slot = kwonly_start + i;
    if (slot == SIZE_MAX) {
      if (kwargs) {
        kwargs->set(key, std::move(value));
        continue;
      }
      bool is_posonly = false;
      for (size_t i = 0; i < n_posonly; ++i) is_posonly |= positional_name(i) == key;
      if (is_posonly) {
        posonly_as_keyword.push_back(key);
        continue;
      }
      raise_error(ExcType::TypeError, name + "() got an unexpected keyword argument '" + key + "'");
    }
    if (slots[slot]) raise_error(ExcType::TypeError, name + "() got multiple values for argument '" + key + "'");
    slots[slot] = std::move(value);
  }
  if (!posonly_as_keyword.empty()) {
    std::string names;
    for (size_t i = 0; i < posonly_as_keyword.size(); ++i) names += (i ? ", '" : "'") + posonly_as_keyword[i] + "'";
    raise_error(ExcType::TypeError, name + "() got some positional-only arguments passed as keyword arguments: " + names);
  }
  if (kwargs) slots[kwarg_slot] = kwargs;
  std::vector<std::string> missing;
  size_t first_default = n_pos - f.defaults.size();
  for (size_t i = 0; i < n_pos; ++i) {
    if (slots[i]) continue;
    if (i >= first_default) slots[i] = f.defaults[i - first_default];
    else missing.push_back(positional_name(i));
  }
  if (!missing.empty())
    raise_error(ExcType::TypeError, name + "() missing " + plural(missing.size(), "required positional argument") +
                                        ": " + quoted_list(missing));
  for (size_t i = 0; i < p.kwonlyargs.size(); ++i) {
    Ref& slot = slots[kwonly_start + i];
    if (slot) continue;
    if (f.kw_defaults[i]) slot = f.kw_defaults[i];
    else missing.push_back(p.kwonlyargs[i]->arg);
  }
  if (!missing.empty())
    raise_error(ExcType::TypeError, name + "() missing " + plural(missing.size(), "required keyword-only argument") +
                                        ": " + quoted_list(missing));
}

// The Python exception for a SyntaxError of the front end.
PyException python_syntax_error(const SyntaxError& error) {
  ExcType type = ExcType::SyntaxError;
  switch (error.kind()) {
    case SyntaxErrorKind::Indentation: type = ExcType::IndentationError; break;
    case SyntaxErrorKind::Tab: type = ExcType::TabError; break;
    case SyntaxErrorKind::NotImplemented: type = ExcType::NotImplementedError; break;
    default: break;
  }
  PyException result(make_exception(type, error.message()));
  auto& dict = as<InstanceObject>(result.exception).dict;
  dict["filename"] = py_str(error.filename());
  dict["lineno"] = py_int(error.line());
  dict["offset"] = py_int(error.column());
  dict["text"] = py_str(error.source_line());
  dict["msg"] = py_str(error.message());
  dict["__kiln_syntax_traceback__"] = py_str(error.traceback());
  return result;
}

}  // namespace

Interpreter::Interpreter() : out(&std::cout), builtins_(py_dict()), modules_(py_dict()) {
  static const bool methods_installed = [] {
    install_object_methods();
    install_str_methods();
    install_sequence_methods();
    install_mapping_methods();
    install_generator_methods();
    install_module_object_methods();
    install_class_builder_methods();
    return true;
  }();
  (void)methods_installed;
  install_builtin_functions(*this, *builtins_);
#define KILN_PY_STANDARD_MODULE(name, init) register_native_module(name, init);
#include "libcompiler/python/interp/standard_modules.def"
}

// The cycles every program makes (a function's globals hold the function; a class's methods hold
// the globals that hold the class) are broken here, as CPython's finalization does: by clearing
// every module's globals and every class's attributes. The cycles left (among lists, dicts,
// instances, closures) are then unreachable, and the cycle collector frees them.
Interpreter::~Interpreter() {
  for (const auto* entry : modules_->entries())
    if (entry->value->kind == ObjectKind::Module) as<ModuleObject>(entry->value).globals->clear();
  for (const auto& globals : namespace_globals_) globals->clear();
  alive_.reset();  // what the cycles held goes without __del__, as at CPython's shutdown
  for (const auto& weak : classes_)
    if (TypeRef cls = weak.lock()) cls->attrs.clear();
  collect_cycles();
}

std::shared_ptr<InstanceObject> Interpreter::new_instance(const TypeRef& type) {
  if (!type->lookup("__del__")) return std::make_shared<InstanceObject>(type);
  return std::shared_ptr<InstanceObject>(new InstanceObject(type), [alive = std::weak_ptr<Interpreter*>(alive_)](InstanceObject* raw) {
    std::shared_ptr<Interpreter*> owner = alive.lock();
    // The object is owned anew, without a finalizer: __del__ runs once even if it resurrects it.
    auto self = std::shared_ptr<InstanceObject>(raw);
    if (owner) (*owner)->finalize(self);
  });
}

bool Interpreter::finalize(const std::shared_ptr<InstanceObject>& instance) {
  if (instance->finalized) return false;
  Ref finalizer = instance->cls->lookup("__del__");
  if (!finalizer) return false;
  instance->finalized = true;
  try {
    call(*this, finalizer, std::vector<Ref>{instance});
  } catch (PyException& error) {
    // As CPython: an exception in __del__ is reported and ignored.
    out->flush();
    std::cerr << "Exception ignored in: " << repr(*this, finalizer) << "\n" << format_traceback(*this, error);
  } catch (...) {
  }
  return true;
}

std::shared_ptr<ModuleObject> Interpreter::new_namespace(const std::string& name) {
  auto module = std::make_shared<ModuleObject>(name);
  namespace_globals_.push_back(module->globals);
  return module;
}

void Interpreter::push_frame(Frame& frame) {
  frame.back = frame_;
  frame_ = &frame;
}

void Interpreter::pop_frame(Frame& frame) { frame_ = frame.back; }

namespace {
// Set by SIGINT while a main script runs; the interpreter raises KeyboardInterrupt at its next
// call or loop iteration, as CPython does at its next eval-breaker check.
volatile std::sig_atomic_t interrupt_requested = 0;
extern "C" void on_sigint(int) { interrupt_requested = 1; }
}  // namespace

void Interpreter::request_interrupt() { interrupt_requested = 1; }

void Interpreter::clear_interrupt() { interrupt_requested = 0; }

void Interpreter::check_interrupt() {
  if (!interrupt_requested) return;
  interrupt_requested = 0;
  raise_bare(ExcType::KeyboardInterrupt);
}

void Interpreter::enter_call() {
  check_interrupt();
  // The module frame counts as one, as in CPython.
  if (++depth_ >= kRecursionLimit) {
    --depth_;
    raise_error(ExcType::RecursionError, "maximum recursion depth exceeded");
  }
}

std::shared_ptr<LoadedCode> Interpreter::load(std::string source, std::string filename) {
  auto code = std::make_shared<LoadedCode>();
  try {
    code->ast = parse_source(std::move(source), std::move(filename));
  } catch (const SyntaxError& error) {
    throw python_syntax_error(error);
  }
  code->scopes = std::make_unique<ScopeAnalysis>(*code->ast);
  return code;
}

void Interpreter::exec_code(const std::shared_ptr<LoadedCode>& code, ModuleObject& module) {
  Frame frame;
  frame.code = &code->scopes->module();
  frame.globals = module.globals;
  frame.loaded = code;
  Evaluator::run_frame(*this, frame, [&](Evaluator& e) { e.exec_block(code->ast->body); });
}

std::unique_ptr<Frame> Interpreter::make_call_frame(const std::shared_ptr<FunctionObject>& function, CallArgs& args) {
  const FunctionObject& f = *function;
  auto frame = std::make_unique<Frame>();
  frame->code = f.code;
  frame->scope = std::make_shared<Scope>();
  frame->scope->slots.resize(f.code->slot_names.size());
  frame->scope->parent = f.closure;
  bind_arguments(f, args, frame->scope->slots);
  frame->globals = f.globals;
  frame->loaded = f.loaded;
  frame->function = &f;
  return frame;
}

Ref Interpreter::call_function(const std::shared_ptr<FunctionObject>& function, CallArgs& args) {
  const FunctionObject& f = *function;
  std::unique_ptr<Frame> frame = make_call_frame(function, args);
  if (f.is_generator) {
    return std::make_shared<GeneratorObject>(
        *this, std::move(frame),
        [this, function](Frame& gen_frame) {
          enter_call();
          try {
            Evaluator e(*this, gen_frame);
            e.exec_block(*function->body);
          } catch (PyException& error) {
            leave_call();
            if (gen_frame.where) error.traceback.push_back(traceback_entry(*gen_frame.where, gen_frame.code->name));
            throw;
          }
          leave_call();
        },
        f.name);
  }
  enter_call();
  try {
    Evaluator::run_frame(*this, *frame, [&](Evaluator& e) {
      if (f.lambda_body) frame->return_value = e.eval(*f.lambda_body);
      else e.exec_block(*f.body);
    });
  } catch (...) {
    leave_call();
    throw;
  }
  leave_call();
  return frame->return_value ? std::move(frame->return_value) : none();
}

void Interpreter::register_native_module(const std::string& name, ModuleInit init) {
  native_modules_[name] = std::move(init);
}

void Interpreter::register_source_module(const std::string& name, std::string source, std::string filename) {
  source_modules_[name] = {std::move(source), std::move(filename)};
}

void Interpreter::on_import(const std::string& name, std::function<void(Interpreter&)> fn) {
  import_hooks_[name].push_back(std::move(fn));
}

Ref Interpreter::find_module(const std::string& name) {
  if (Ref loaded = modules_->get(name)) return loaded;
  auto module = std::make_shared<ModuleObject>(name);
  auto native = native_modules_.find(name);
  auto source = source_modules_.find(name);
  if (native == native_modules_.end() && source == source_modules_.end()) {
    // The script's own modules: a .py file on sys.path.
    const std::optional<std::filesystem::path> file = find_module_file(name);
    if (!file) return nullptr;
    std::ifstream in(*file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const std::string filename = std::filesystem::absolute(*file).lexically_normal().string();
    module->globals->set("__file__", py_str(filename));
    // The package relative imports start from: a package's own name, a module's parent.
    const bool is_package = file->filename() == "__init__.py";
    module->globals->set("__package__", py_str(is_package ? name : name.substr(0, std::min(name.rfind('.'), name.size()))));
    source = source_modules_.emplace(name, Source{text.str(), filename}).first;
  }
  modules_->set(name, module);  // visible to imports made while it initialises, as in Python
  try {
    if (auto hooks = import_hooks_.find(name); hooks != import_hooks_.end())
      for (auto& hook : hooks->second) hook(*this);
    if (native != native_modules_.end()) native->second(*this, *module);
    if (source != source_modules_.end()) {
      // The module's code lives on: tracebacks and its functions point into its source.
      source->second.code = load(source->second.text, source->second.filename);
      exec_code(source->second.code, *module);
    }
  } catch (...) {
    modules_->erase(*this, py_str(name));
    throw;
  }
  // As CPython's import: what sys.modules holds once the code ran, which the code may have
  // replaced (a module that puts an object of its own there).
  Ref loaded = modules_->get(name);
  return loaded ? loaded : module;
}

std::optional<std::filesystem::path> Interpreter::find_module_file(const std::string& name) {
  std::filesystem::path relative;
  for (size_t start = 0; start <= name.size();) {
    const size_t dot = std::min(name.find('.', start), name.size());
    relative /= name.substr(start, dot - start);
    start = dot + 1;
  }
  // sys.path as the script left it (it may have added folders).
  std::vector<std::string> folders = module_search_path;
  if (Ref sys = find_module("sys"); sys && sys->kind == ObjectKind::Module)
    if (Ref path = as<ModuleObject>(sys).globals->get("path"); path && path->kind == ObjectKind::List) {
      folders.clear();
      for (const Ref& entry : as<ListObject>(path).items)
        if (entry->kind == ObjectKind::Str) folders.push_back(as<StrObject>(entry).value);
    }
  std::error_code ec;
  for (const std::string& folder : folders) {
    const std::filesystem::path base = folder.empty() ? std::filesystem::current_path(ec) : std::filesystem::path(folder);
    for (const std::filesystem::path& candidate : {base / relative / "__init__.py", base / (relative.string() + ".py")})
      if (std::filesystem::is_regular_file(candidate, ec)) return candidate;
  }
  return std::nullopt;
}

Ref Interpreter::import_module(const std::string& dotted_name) {
  Ref parent;
  Ref module;
  size_t pos = 0;
  for (;;) {
    size_t dot = dotted_name.find('.', pos);
    std::string prefix = dotted_name.substr(0, dot);
    module = find_module(prefix);
    if (!module) raise_error(ExcType::ModuleNotFoundError, "No module named '" + prefix + "'");
    if (parent && parent->kind == ObjectKind::Module) {
      std::string leaf = prefix.substr(prefix.rfind('.') + 1);
      if (!as<ModuleObject>(parent).globals->get(leaf)) as<ModuleObject>(parent).globals->set(leaf, module);
    }
    if (dot == std::string::npos) return module;
    parent = module;
    pos = dot + 1;
  }
}

int Interpreter::run_main_file(const std::filesystem::path& given, std::ostream& err) {
  // As CPython: a folder runs its __main__.py, and messages name the path made absolute.
  std::error_code ec;
  std::filesystem::path path = given;
  if (std::filesystem::is_directory(given, ec)) {
    path = given / "__main__.py";
    if (!std::filesystem::is_regular_file(path, ec)) {
      err << "kiln: can't find '__main__' module in '" << std::filesystem::absolute(given, ec).string() << "'\n";
      return 1;
    }
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    err << "kiln: can't open file '" << std::filesystem::absolute(path, ec).string() << "': [Errno 2] No such file or directory\n";
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  // CPython puts the script's folder first on sys.path, so that it imports its neighbours.
  module_search_path = {std::filesystem::absolute(path).lexically_normal().parent_path().string()};
  // CPython names the main script by its absolute path in tracebacks and __file__.
  return run_main_source(text.str(), std::filesystem::absolute(path).lexically_normal().string(), err);
}

int Interpreter::run_main_source(std::string source, std::string filename, std::ostream& err) {
  return run_main(
      [&](ModuleObject& main) {
        main.globals->set("__file__", py_str(filename));
        return load(std::move(source), filename);
      },
      err);
}

int Interpreter::run_main_module(const std::string& name, std::ostream& err) {
  return run_main(
      [&](ModuleObject& main) {
        // As runpy: the parent packages are imported first, then the module's code runs as
        // __main__; a package runs its __main__ submodule.
        std::string target = name;
        for (;;) {
          const size_t dot = target.rfind('.');
          if (dot != std::string::npos) import_module(target.substr(0, dot));
          std::string text, filename;
          if (auto embedded = source_modules_.find(target); embedded != source_modules_.end()) {
            text = embedded->second.text;
            filename = embedded->second.filename;
          } else if (const std::optional<std::filesystem::path> file = find_module_file(target)) {
            std::ifstream in(*file, std::ios::binary);
            std::stringstream read;
            read << in.rdbuf();
            text = read.str();
            filename = std::filesystem::absolute(*file).lexically_normal().string();
          } else {
            err << "kiln: No module named " << target << "\n";  // as CPython's -m says it
            return std::shared_ptr<LoadedCode>();
          }
          if (std::filesystem::path(filename).filename() == "__init__.py") {
            import_module(target);
            target += ".__main__";
            continue;
          }
          main.globals->set("__file__", py_str(filename));
          main.globals->set("__package__", py_str(dot == std::string::npos ? "" : target.substr(0, dot)));
          // sys.argv[0] is the module's file, also in a sys module the imports already made.
          if (argv.empty()) argv.push_back(filename);
          else argv[0] = filename;
          if (Ref sys = modules_->get("sys"); sys && sys->kind == ObjectKind::Module)
            if (Ref sys_argv = as<ModuleObject>(sys).globals->get("argv"); sys_argv && sys_argv->kind == ObjectKind::List &&
                                                                           !as<ListObject>(sys_argv).items.empty())
              as<ListObject>(sys_argv).items[0] = py_str(filename);
          return load(std::move(text), filename);
        }
      },
      err);
}

// A `prepare` that loads no code (it said why on `err`) ends the run with status 1.
int Interpreter::run_main(const std::function<std::shared_ptr<LoadedCode>(ModuleObject& main)>& prepare, std::ostream& err) {
  int status = 0;
  ended_by_interrupt_ = false;
  auto run = [&] {
    std::shared_ptr<LoadedCode> code;  // outlives the traceback, which points into its source
    try {
      auto main = std::make_shared<ModuleObject>("__main__");
      modules_->set("__main__", main);
      code = prepare(*main);
      if (!code) {
        status = 1;
        return;
      }
      exec_code(code, *main);
    } catch (PyException& error) {
      out->flush();
      if (error.exception->type->is_subtype_of(exception_type(ExcType::SystemExit))) {
        Ref args = try_getattr(*this, error.exception, "args");
        const auto& items = as<TupleObject>(args).items;
        if (items.empty() || is_none(items[0])) status = 0;
        else if (items[0]->kind == ObjectKind::Int) status = static_cast<int>(as<IntObject>(items[0]).value);
        else {
          err << str(*this, items[0]) << "\n";
          status = 1;
        }
        return;
      }
      auto& dict = as<InstanceObject>(error.exception).dict;
      if (auto it = dict.find("__kiln_syntax_traceback__"); it != dict.end() && error.traceback.empty()) {
        err << as<StrObject>(it->second).value;
      } else {
        err << format_traceback(*this, error);
      }
      // A shell reports a process SIGINT ended as 128 + SIGINT, which CPython's exit gives too.
      ended_by_interrupt_ = error.exception->type->is_subtype_of(exception_type(ExcType::KeyboardInterrupt));
      status = ended_by_interrupt_ ? 128 + SIGINT : 1;
    }
  };
  struct sigaction interrupt {}, previous {};
  interrupt.sa_handler = on_sigint;
  sigemptyset(&interrupt.sa_mask);
  sigaction(SIGINT, &interrupt, &previous);
  // Deep Python recursion must reach RecursionError, not the end of the C++ stack.
  Coroutine main(run, kMainStackBytes);
  main.resume();
  sigaction(SIGINT, &previous, nullptr);
  out->flush();
  return status;
}

std::vector<Ref> bind_native(const char* function, const CallArgs& args, std::initializer_list<Param> params) {
  std::vector<Ref> bound(params.size());
  if (args.args.size() > params.size())
    raise_error(ExcType::TypeError, std::string(function) + "() takes at most " + std::to_string(params.size()) +
                                        " argument" + (params.size() == 1 ? "" : "s") + " (" +
                                        std::to_string(args.args.size()) + " given)");
  for (size_t i = 0; i < args.args.size(); ++i) bound[i] = args.args[i];
  for (const auto& [key, value] : args.kwargs) {
    size_t i = 0;
    for (const Param& p : params) {
      if (key == p.name) break;
      ++i;
    }
    if (i == params.size())
      raise_error(ExcType::TypeError, std::string(function) + "() got an unexpected keyword argument '" + key + "'");
    if (bound[i])
      raise_error(ExcType::TypeError, std::string(function) + "() got multiple values for argument '" + key + "'");
    bound[i] = value;
  }
  size_t i = 0;
  for (const Param& p : params) {
    if (p.required && !bound[i])
      raise_error(ExcType::TypeError, std::string(function) + "() missing required argument '" + p.name + "' (pos " +
                                          std::to_string(i + 1) + ")");
    ++i;
  }
  return bound;
}

}  // namespace kiln::python
