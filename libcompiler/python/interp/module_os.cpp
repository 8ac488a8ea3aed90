// The os module: os.environ (reads and writes the process environment, so settings made by a
// script are seen by code that reads the environment later, as in CPython), getenv, getpid,
// kill, remove, rmdir, getcwd, listdir, makedirs, and os.path (module_os_path.cpp).
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <cstdlib>
#include <unistd.h>

#include "libcompiler/python/interp/builtin_setup.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/protocols.h"

extern char** environ;

namespace kiln::python {
namespace {

std::shared_ptr<DictObject> environment_snapshot() {
  auto dict = py_dict();
  for (char** e = environ; e && *e; ++e) {
    std::string entry(*e);
    size_t eq = entry.find('=');
    if (eq != std::string::npos) dict->set(entry.substr(0, eq), py_str(entry.substr(eq + 1)));
  }
  return dict;
}

TypeObject* environ_type() {
  static TypeObject* type = [] {
    TypeObject* t = make_builtin_type("_Environ", {}, "os");
    auto key = [](const CallArgs& c) { return to_str(c.args.at(1), "environment variable name"); };
    add_method(t, "__getitem__", [key](Interpreter& ip, CallArgs& c) {
      const char* value = std::getenv(key(c).c_str());
      if (!value) throw PyException(call(ip, builtin_type_ref(exception_type(ExcType::KeyError)), std::vector<Ref>{c.args[1]}));
      return py_str(value);
    });
    add_method(t, "__setitem__", [key](Interpreter&, CallArgs& c) {
      setenv(key(c).c_str(), to_str(c.args.at(2), "str expected").c_str(), 1);
      return none();
    });
    add_method(t, "__delitem__", [key](Interpreter&, CallArgs& c) {
      unsetenv(key(c).c_str());
      return none();
    });
    add_method(t, "__contains__", [](Interpreter&, CallArgs& c) {
      return py_bool(c.args.at(1)->kind == ObjectKind::Str && std::getenv(as<StrObject>(c.args[1]).value.c_str()));
    });
    add_method(t, "get", [key](Interpreter&, CallArgs& c) {
      const char* value = std::getenv(key(c).c_str());
      return value ? py_str(value) : c.args.size() > 2 ? c.args[2] : none();
    });
    add_method(t, "__iter__", [](Interpreter& ip, CallArgs&) { return iter(ip, environment_snapshot()); });
    add_method(t, "__len__", [](Interpreter&, CallArgs&) { return py_int(static_cast<int64_t>(environment_snapshot()->size())); });
    add_method(t, "keys", [](Interpreter& ip, CallArgs&) { return call(ip, getattr(ip, environment_snapshot(), "keys"), std::vector<Ref>{}); });
    add_method(t, "items", [](Interpreter& ip, CallArgs&) { return call(ip, getattr(ip, environment_snapshot(), "items"), std::vector<Ref>{}); });
    add_method(t, "copy", [](Interpreter&, CallArgs&) { return Ref(environment_snapshot()); });
    add_method(t, "__repr__", [](Interpreter& ip, CallArgs&) { return py_str("environ(" + repr(ip, environment_snapshot()) + ")"); });
    return t;
  }();
  return type;
}

}  // namespace

void init_os_module(Interpreter& interp, ModuleObject& m) {
  m.globals->set("path", interp.import_module("os.path"));
  m.globals->set("sep", py_str("/"));
  m.globals->set("getcwd", native_function("getcwd", [](Interpreter&, CallArgs&) {
    return py_str(std::filesystem::current_path().string());
  }));
  m.globals->set("listdir", native_function("listdir", [](Interpreter&, CallArgs& c) {
    auto a = bind_native("listdir", c, {{"path", false}});
    const std::string path = a[0] && !is_none(a[0]) ? to_str(a[0], "listdir: path should be string") : ".";
    std::error_code ec;
    std::vector<Ref> names;
    for (const auto& entry : std::filesystem::directory_iterator(path, ec)) names.push_back(py_str(entry.path().filename().string()));
    if (ec) raise_error(ExcType::FileNotFoundError, "[Errno 2] No such file or directory: '" + path + "'");
    return py_list(std::move(names));
  }));
  m.globals->set("makedirs", native_function("makedirs", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("makedirs", c, {{"name"}, {"mode", false}, {"exist_ok", false}});
    const std::string path = to_str(a[0], "makedirs: path should be string");
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) {
      if (a[2] && truthy(ip, a[2])) return none();
      raise_error(ExcType::FileExistsError, "[Errno 17] File exists: '" + path + "'");
    }
    std::filesystem::create_directories(path, ec);
    if (ec) raise_error(ExcType::OSError, "[Errno " + std::to_string(ec.value()) + "] " + ec.message() + ": '" + path + "'");
    return none();
  }));
  m.globals->set("environ", std::make_shared<NativeObject>(environ_type()));
  m.globals->set("getenv", native_function("getenv", [](Interpreter&, CallArgs& c) {
    auto a = bind_native("getenv", c, {{"key"}, {"default", false}});
    const char* value = std::getenv(to_str(a[0], "str expected").c_str());
    return value ? py_str(value) : a[1] ? a[1] : none();
  }));
  m.globals->set("getpid", native_function("getpid", [](Interpreter&, CallArgs&) { return py_int(getpid()); }));
  for (auto [name, unlink_path] : {std::pair{"remove", &::unlink}, {"rmdir", &::rmdir}})
    m.globals->set(name, native_function(name, [name, unlink_path](Interpreter&, CallArgs& c) {
      auto a = bind_native(name, c, {{"path"}});
      const std::string& path = to_str(a[0], (std::string(name) + ": path should be string").c_str());
      if (unlink_path(path.c_str()) != 0) {
        int error = errno;
        raise_error(error == ENOENT ? ExcType::FileNotFoundError : ExcType::OSError,
                    "[Errno " + std::to_string(error) + "] " + std::strerror(error) + ": '" + path + "'");
      }
      return none();
    }));
  m.globals->set("kill", native_function("kill", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("kill", c, {{"pid"}, {"signal"}});
    if (::kill(static_cast<pid_t>(to_index(ip, a[0])), static_cast<int>(to_index(ip, a[1]))) != 0)
      raise_os_error(errno);
    return none();
  }));
  m.globals->set("sep", py_str("/"));
}

}  // namespace kiln::python
