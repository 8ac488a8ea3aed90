// The sys module: argv, modules, stdout/stderr, exit, and the interpreter facts scripts print.
#include <cstdint>
#include <iostream>

#include "libcompiler/python/interp/builtin_setup.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/frame.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {
namespace {

struct TextStream : NativeObject {
  TextStream(TypeObject* type, bool is_stderr) : NativeObject(type), is_stderr(is_stderr) {}
  bool is_stderr;
};

TypeObject* stream_type() {
  static TypeObject* type = [] {
    TypeObject* t = make_builtin_type("TextIOWrapper", {}, "_io");
    add_method(t, "write", [](Interpreter& ip, CallArgs& c) {
      const std::string& text = to_str(c.args.at(1), "write() argument");
      if (static_cast<TextStream&>(*c.args[0]).is_stderr) {
        ip.out->flush();
        std::cerr << text;
      } else {
        ip.out->write(text.data(), static_cast<std::streamsize>(text.size()));
      }
      return py_int(static_cast<int64_t>(text.size()));
    });
    add_method(t, "flush", [](Interpreter& ip, CallArgs& c) {
      if (static_cast<TextStream&>(*c.args.at(0)).is_stderr) std::cerr.flush();
      else ip.out->flush();
      return none();
    });
    return t;
  }();
  return type;
}

// The exception an enclosing `except` block of this or a calling frame is handling; null if none.
Ref handled_exception(Interpreter& interp) {
  for (Frame* frame = interp.current_frame(); frame; frame = frame->back)
    if (!frame->handling.empty()) return frame->handling.back()->exception;
  return nullptr;
}

}  // namespace

Ref redirected_stdout(Interpreter& interp) {
  Ref stdout_object = try_getattr(interp, interp.import_module("sys"), "stdout");
  if (stdout_object && stdout_object->type == stream_type() && !static_cast<TextStream&>(*stdout_object).is_stderr) return nullptr;
  return stdout_object;
}

void init_sys_module(Interpreter& interp, ModuleObject& m) {
  auto& g = *m.globals;
  std::vector<Ref> argv;
  for (const auto& a : interp.argv) argv.push_back(py_str(a));
  g.set("argv", py_list(std::move(argv)));
  std::vector<Ref> path;
  for (const auto& folder : interp.module_search_path) path.push_back(py_str(folder));
  g.set("path", py_list(std::move(path)));
  g.set("modules", interp.modules());
  g.set("stdout", std::make_shared<TextStream>(stream_type(), false));
  g.set("stderr", std::make_shared<TextStream>(stream_type(), true));
  // Without traceback objects: the third item is None.
  g.set("exc_info", native_function("exc_info", [](Interpreter& ip, CallArgs&) {
    Ref handled = handled_exception(ip);
    if (!handled) return py_tuple({none(), none(), none()});
    return py_tuple({type_of(handled), handled, none()});
  }));
  g.set("exception", native_function("exception", [](Interpreter& ip, CallArgs&) {
    Ref handled = handled_exception(ip);
    return handled ? handled : none();
  }));
  g.set("maxsize", py_int(INT64_MAX));
  g.set("platform", py_str("linux"));
  g.set("version", py_str("3.11.7 (kiln)"));
  g.set("version_info", py_tuple({py_int(3), py_int(11), py_int(7), py_str("final"), py_int(0)}));
  g.set("executable", py_str("kiln"));
  g.set("exit", native_function("exit", [](Interpreter& ip, CallArgs& c) -> Ref {
    auto a = bind_native("exit", c, {{"status", false}});
    std::vector<Ref> args;
    if (a[0]) args.push_back(a[0]);
    throw PyException(call(ip, builtin_type_ref(exception_type(ExcType::SystemExit)), std::move(args)));
  }));
  g.set("getrecursionlimit", native_function("getrecursionlimit", [](Interpreter&, CallArgs&) { return py_int(1000); }));
}

}  // namespace kiln::python
