// The os module: os.environ (reads and writes the process environment, so settings made by a
// script are seen by code that reads the environment later, as in CPython), getenv, getpid,
// kill, remove, rmdir, mkdir, makedirs, rename, replace, fspath, chdir, getcwd, listdir, and os.path
// (module_os_path.cpp).
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <cstdlib>
#include <sys/stat.h>
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

std::string fspath(Interpreter& interp, const Ref& path, const std::string& function) {
  if (path->kind == ObjectKind::Str) return as<StrObject>(path).value;
  if (path->kind == ObjectKind::Instance) {
    if (Ref method = try_getattr(interp, path, "__fspath__")) {
      Ref text = call(interp, method, std::vector<Ref>{});
      if (text->kind == ObjectKind::Str) return as<StrObject>(text).value;
      raise_error(ExcType::TypeError, "expected " + type_name(path) + ".__fspath__() to return str or bytes, not " + type_name(text));
    }
  }
  raise_error(ExcType::TypeError, function + ": path should be string, bytes or os.PathLike, not " + type_name(path));
}

void init_os_module(Interpreter& interp, ModuleObject& m) {
  m.globals->set("path", interp.import_module("os.path"));
  m.globals->set("sep", py_str("/"));
  m.globals->set("getcwd", native_function("getcwd", [](Interpreter&, CallArgs&) {
    return py_str(std::filesystem::current_path().string());
  }));
  m.globals->set("fspath", native_function("fspath", [](Interpreter& ip, CallArgs& c) {
    return py_str(fspath(ip, bind_native("fspath", c, {{"path"}})[0], "fspath"));
  }));
  m.globals->set("listdir", native_function("listdir", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("listdir", c, {{"path", false}});
    const std::string path = a[0] && !is_none(a[0]) ? fspath(ip, a[0], "listdir") : ".";
    std::error_code ec;
    std::vector<Ref> names;
    for (const auto& entry : std::filesystem::directory_iterator(path, ec)) names.push_back(py_str(entry.path().filename().string()));
    if (ec) raise_os_error(ec.value(), path);
    return py_list(std::move(names));
  }));
  m.globals->set("makedirs", native_function("makedirs", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("makedirs", c, {{"name"}, {"mode", false}, {"exist_ok", false}});
    const std::string path = fspath(ip, a[0], "makedirs");
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) {
      if (a[2] && truthy(ip, a[2])) return none();
      raise_os_error(EEXIST, path);
    }
    std::filesystem::create_directories(path, ec);
    if (ec) raise_os_error(ec.value(), path);
    return none();
  }));
  m.globals->set("chdir", native_function("chdir", [](Interpreter& ip, CallArgs& c) {
    const std::string path = fspath(ip, bind_native("chdir", c, {{"path"}})[0], "chdir");
    if (::chdir(path.c_str()) != 0) raise_os_error(errno, path);
    return none();
  }));
  m.globals->set("mkdir", native_function("mkdir", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("mkdir", c, {{"path"}, {"mode", false}});
    const std::string path = fspath(ip, a[0], "mkdir");
    if (::mkdir(path.c_str(), 0777) != 0) raise_os_error(errno, path);
    return none();
  }));
  for (const char* name : {"rename", "replace"})
    m.globals->set(name, native_function(name, [name](Interpreter& ip, CallArgs& c) {
      auto a = bind_native(name, c, {{"src"}, {"dst"}});
      const std::string from = fspath(ip, a[0], name), to = fspath(ip, a[1], name);
      if (std::rename(from.c_str(), to.c_str()) != 0) raise_os_error(errno, from);
      return none();
    }));
  m.globals->set("environ", std::make_shared<NativeObject>(environ_type()));
  m.globals->set("getenv", native_function("getenv", [](Interpreter&, CallArgs& c) {
    auto a = bind_native("getenv", c, {{"key"}, {"default", false}});
    const char* value = std::getenv(to_str(a[0], "str expected").c_str());
    return value ? py_str(value) : a[1] ? a[1] : none();
  }));
  m.globals->set("getpid", native_function("getpid", [](Interpreter&, CallArgs&) { return py_int(getpid()); }));
  // os._exit: ends the process at once, without unwinding or flushing (a rank that dies).
  m.globals->set("_exit", native_function("_exit", [](Interpreter& ip, CallArgs& c) -> Ref {
    auto a = bind_native("_exit", c, {{"status"}});
    ::_exit(static_cast<int>(to_index(ip, a[0])));
  }));
  for (auto [name, unlink_path] : {std::pair{"remove", &::unlink}, {"rmdir", &::rmdir}})
    m.globals->set(name, native_function(name, [name, unlink_path](Interpreter& ip, CallArgs& c) {
      auto a = bind_native(name, c, {{"path"}});
      const std::string path = fspath(ip, a[0], name);
      if (unlink_path(path.c_str()) != 0) raise_os_error(errno, path);
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
