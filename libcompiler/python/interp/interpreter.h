#pragma once
// The interpreter: runs a parsed module of Kiln's Python subset by walking its AST (evaluator.h),
// with the object model of object.h. It owns the module table (imports of native and embedded
// Python modules, sys.modules), the builtins, sys.argv and where print() writes.
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "libcompiler/python/ast.h"
#include "libcompiler/python/interp/eval_hooks.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/frame.h"
#include "libcompiler/python/interp/object.h"
#include "libcompiler/python/interp/scope_analysis.h"

namespace kiln::python {

// A parsed module with its scope analysis; functions defined in it keep it alive.
struct LoadedCode {
  std::unique_ptr<Module> ast;
  std::unique_ptr<ScopeAnalysis> scopes;
  std::unordered_map<const Constant*, Ref> constants;  // made once per literal
};

class Interpreter {
 public:
  using ModuleInit = std::function<void(Interpreter&, ModuleObject&)>;

  Interpreter();
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  // Runs a script as __main__ (on a large stack); prints an uncaught exception's traceback to
  // `err` and returns the exit status (0, 1, or SystemExit's code).
  int run_main_file(const std::filesystem::path& path, std::ostream& err);
  int run_main_source(std::string source, std::string filename, std::ostream& err);
  // `python -m NAME`: module NAME (kiln's own, or a .py file or package on sys.path) runs as
  // __main__ once its parent package is imported, sys.argv[0] its file.
  int run_main_module(const std::string& name, std::ostream& err);
  // Whether the last main script ended on an uncaught KeyboardInterrupt (status 130): CPython then
  // ends its process by SIGINT itself, so that the shell sees the signal.
  bool ended_by_interrupt() const { return ended_by_interrupt_; }

  // Runs parsed code into `module`'s globals. Exceptions propagate as PyException.
  void exec_code(const std::shared_ptr<LoadedCode>& code, ModuleObject& module);
  // A module that is not imported (not in sys.modules), for code run on its own (a repro's graph,
  // a replayed script): the cycles through its globals are broken with the imported modules'.
  std::shared_ptr<ModuleObject> new_namespace(const std::string& name);
  // Parses and analyses source (SyntaxError propagates as a Python SyntaxError).
  std::shared_ptr<LoadedCode> load(std::string source, std::string filename);

  // Calls a `def`/`lambda` function.
  Ref call_function(const std::shared_ptr<FunctionObject>& function, CallArgs& args);
  // The frame a call of a (non-generator) function runs in, its arguments bound: graph capture
  // evaluates such a frame itself, with an expression observer.
  std::unique_ptr<Frame> make_call_frame(const std::shared_ptr<FunctionObject>& function, CallArgs& args);

  // `import a.b.c`: imports each package on the way and returns the module a.b.c.
  Ref import_module(const std::string& dotted_name);
  // A module made by C++ code on first import.
  void register_native_module(const std::string& name, ModuleInit init);
  // A module whose Python source is compiled into the binary.
  void register_source_module(const std::string& name, std::string source, std::string filename);
  // Runs `fn` once, on the first import of `name` (before the module's own code).
  void on_import(const std::string& name, std::function<void(Interpreter&)> fn);

  DictObject& builtins() { return *builtins_; }
  // sys.modules: the table import consults first, and what it returns for a module once run.
  const std::shared_ptr<DictObject>& modules() const { return modules_; }
  std::vector<std::string> argv;
  // sys.path as the interpreter starts: the folder of the script run (run_main_file), else the
  // working folder (""). Imports of modules kiln does not provide search sys.path's folders.
  std::vector<std::string> module_search_path = {""};
  std::ostream* out;  // print() writes here (std::cout unless redirected)
  // Graph capture's hook on every call (eval_hooks.h); null when nothing is compiled.
  CallHook* call_hook = nullptr;

  // A class a class statement made: its attributes are let go when the interpreter ends, which
  // breaks the reference cycles through them (a class holding its own instances).
  void track_class(const TypeRef& cls) { classes_.push_back(cls); }

  // A new instance of a user class; one whose class defines __del__ calls it when its last
  // reference goes (CPython's tp_finalize), once, while this interpreter lives.
  std::shared_ptr<InstanceObject> new_instance(const TypeRef& type);
  // Runs an instance's __del__ unless it has run (or its class has none); whether it ran.
  bool finalize(const std::shared_ptr<InstanceObject>& instance);

  Frame* current_frame() const { return frame_; }
  void push_frame(Frame& frame);
  void pop_frame(Frame& frame);
  // Called around every Python-level call: RecursionError past the limit.
  void enter_call();
  void leave_call() { --depth_; }
  // KeyboardInterrupt if SIGINT came since the last check (calls and loop iterations check).
  static void check_interrupt();
  // What SIGINT does, for other causes (a harness's time limit); safe in a signal handler.
  static void request_interrupt();
  // Forgets an interrupt requested and not yet raised.
  static void clear_interrupt();

 private:
  // Runs the code `prepare` loads into the __main__ module it is given (the module's
  // attributes set), as run_main_source describes.
  int run_main(const std::function<std::shared_ptr<LoadedCode>(ModuleObject& main)>& prepare, std::ostream& err);
  Ref find_module(const std::string& name);
  // The .py file of module `name` in sys.path's folders (a package: its folder's __init__.py).
  std::optional<std::filesystem::path> find_module_file(const std::string& name);
  friend class Evaluator;

  std::shared_ptr<DictObject> builtins_;
  std::shared_ptr<DictObject> modules_;  // sys.modules
  std::vector<std::weak_ptr<TypeObject>> classes_;  // track_class
  std::vector<std::shared_ptr<DictObject>> namespace_globals_;  // of new_namespace's modules
  std::map<std::string, ModuleInit> native_modules_;
  struct Source {
    std::string text, filename;
    std::shared_ptr<LoadedCode> code;  // once imported
  };
  std::map<std::string, Source> source_modules_;
  std::map<std::string, std::vector<std::function<void(Interpreter&)>>> import_hooks_;
  Frame* frame_ = nullptr;
  int depth_ = 0;
  bool ended_by_interrupt_ = false;
  // Finalizers hold it weakly: objects outliving the interpreter are freed without __del__.
  std::shared_ptr<Interpreter*> alive_ = std::make_shared<Interpreter*>(this);
};

// What a native function receives, checked against a Python-style signature.
struct Param {
  const char* name;
  bool required = true;
};
// Binds args to params: one Ref per param, null where an optional one was not given. TypeError
// for too many, missing, unknown or repeated arguments, with `function` named as CPython does.
std::vector<Ref> bind_native(const char* function, const CallArgs& args, std::initializer_list<Param> params);

}  // namespace kiln::python
