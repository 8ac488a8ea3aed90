#pragma once
// The installers the Interpreter runs once: builtin functions, the methods of builtin types,
// and the standard modules of the subset (standard_modules.def).
#include "libcompiler/python/interp/interpreter.h"

namespace kiln::python {

void install_builtin_functions(Interpreter& interp, DictObject& builtins);
void install_object_methods();
void install_str_methods();
void install_sequence_methods();
void install_mapping_methods();
void install_generator_methods();
void install_module_object_methods();

// print()'s destination: interp.out while sys.stdout is the interpreter's own stream, else
// whatever a script put in sys.stdout (a StringIO, redirect_stdout's target): module_sys.cpp.
Ref redirected_stdout(Interpreter& interp);
// os.fspath: a str path as it is, else what the object's __fspath__ returns (pathlib.Path);
// TypeError as CPython words it otherwise. `function` names the caller in the message.
std::string fspath(Interpreter& interp, const Ref& path, const std::string& function);
// open(): file_object.cpp.
Ref open_file(Interpreter& interp, CallArgs& args);
#define KILN_PY_STANDARD_MODULE(name, init) void init(Interpreter& interp, ModuleObject& module);
#include "libcompiler/python/interp/standard_modules.def"

}  // namespace kiln::python
