// The introspection attributes of a Python function that inspect and decorators read:
// __defaults__, __kwdefaults__ and __code__, a code object with CPython's co_* fields.
#include "libcompiler/python/interp/function_attributes.h"

#include <algorithm>

#include "libcompiler/python/interp/builtin_setup.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {

namespace {

// CPython's co_flags bits that inspect reads.
constexpr int64_t kVarArgs = 0x04, kVarKeywords = 0x08, kGenerator = 0x20;

// A function's code: the function itself, read through the getters of the code type.
struct CodeObject : NativeObject {
  CodeObject(TypeObject* type, std::shared_ptr<FunctionObject> function)
      : NativeObject(type), function(std::move(function)) {}
  std::shared_ptr<FunctionObject> function;
};

const FunctionObject& function_of(const Ref& code) { return *static_cast<const CodeObject&>(*code).function; }

Ref names(const std::vector<std::string>& values) {
  std::vector<Ref> items;
  for (const std::string& v : values) items.push_back(py_str(v));
  return py_tuple(std::move(items));
}

// Parameters in CPython's order (positional-only, positional, keyword-only, *args, **kwargs), then
// the other locals.
std::vector<std::string> variable_names(const FunctionObject& f) {
  std::vector<std::string> out;
  const Arguments& p = *f.params;
  for (const auto& a : p.posonlyargs) out.push_back(a->arg);
  for (const auto& a : p.args) out.push_back(a->arg);
  for (const auto& a : p.kwonlyargs) out.push_back(a->arg);
  if (p.vararg) out.push_back(p.vararg->arg);
  if (p.kwarg) out.push_back(p.kwarg->arg);
  if (f.code)
    for (const std::string& name : f.code->slot_names)
      if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  return out;
}

TypeObject* code_type() {
  static TypeObject* type = [] {
    TypeObject* t = make_builtin_type("code", {});
    add_getter(t, "co_name", [](Interpreter&, const Ref& c) { return py_str(function_of(c).name); });
    add_getter(t, "co_qualname", [](Interpreter&, const Ref& c) { return py_str(function_of(c).qualname); });
    add_getter(t, "co_filename", [](Interpreter&, const Ref& c) {
      const auto& loaded = function_of(c).loaded;
      return py_str(loaded && loaded->ast && loaded->ast->file ? loaded->ast->file->name() : "<unknown>");
    });
    add_getter(t, "co_firstlineno", [](Interpreter&, const Ref& c) { return py_int(function_of(c).first_line); });
    add_getter(t, "co_argcount", [](Interpreter&, const Ref& c) {
      const Arguments& p = *function_of(c).params;
      return py_int(static_cast<int64_t>(p.posonlyargs.size() + p.args.size()));
    });
    add_getter(t, "co_posonlyargcount", [](Interpreter&, const Ref& c) {
      return py_int(static_cast<int64_t>(function_of(c).params->posonlyargs.size()));
    });
    add_getter(t, "co_kwonlyargcount", [](Interpreter&, const Ref& c) {
      return py_int(static_cast<int64_t>(function_of(c).params->kwonlyargs.size()));
    });
    add_getter(t, "co_varnames", [](Interpreter&, const Ref& c) { return names(variable_names(function_of(c))); });
    add_getter(t, "co_flags", [](Interpreter&, const Ref& c) {
      const FunctionObject& f = function_of(c);
      return py_int((f.params->vararg ? kVarArgs : 0) | (f.params->kwarg ? kVarKeywords : 0) |
                    (f.is_generator ? kGenerator : 0));
    });
    add_method(t, "__repr__", [](Interpreter&, CallArgs& c) {
      return py_str("<code object " + function_of(c.args.at(0)).name + ">");
    });
    return t;
  }();
  return type;
}

}  // namespace

Ref function_attribute(const std::shared_ptr<FunctionObject>& function, const std::string& name) {
  if (name == "__defaults__") return function->defaults.empty() ? none() : py_tuple(function->defaults);
  if (name == "__kwdefaults__") {
    auto dict = py_dict();
    const Arguments& p = *function->params;
    for (size_t i = 0; i < p.kwonlyargs.size() && i < function->kw_defaults.size(); ++i)
      if (function->kw_defaults[i]) dict->set(p.kwonlyargs[i]->arg, function->kw_defaults[i]);
    return dict->size() == 0 ? none() : Ref(dict);
  }
  if (name == "__code__") return std::make_shared<CodeObject>(code_type(), function);
  return nullptr;
}

}  // namespace kiln::python
