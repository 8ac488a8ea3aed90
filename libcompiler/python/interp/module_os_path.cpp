// os.path (posixpath): joining and splitting paths as CPython's string rules do, and the questions
// scripts ask the file system (exists, isfile, isdir, getsize), on std::filesystem.
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "libcompiler/python/interp/builtin_setup.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {
namespace {

namespace fs = std::filesystem;

std::string path_arg(Interpreter& ip, const Ref& value, const char* function) {
  if (value->kind == ObjectKind::Instance) return fspath(ip, value, function);
  if (value->kind != ObjectKind::Str)
    raise_error(ExcType::TypeError, std::string(function) + "() argument must be str, not " + type_name(value));
  return as<StrObject>(value).value;
}

std::string join(Interpreter& ip, const std::vector<Ref>& parts) {
  std::string path = path_arg(ip, parts.at(0), "join");
  for (size_t i = 1; i < parts.size(); ++i) {
    std::string b = path_arg(ip, parts[i], "join");
    if (!b.empty() && b[0] == '/') path = b;
    else if (path.empty() || path.back() == '/') path += b;
    else path += "/" + b;
  }
  return path;
}

std::pair<std::string, std::string> split(const std::string& p) {
  size_t i = p.rfind('/') + 1;  // npos + 1 == 0
  std::string head = p.substr(0, i), tail = p.substr(i);
  if (!head.empty() && head.find_first_not_of('/') != std::string::npos)
    while (!head.empty() && head.back() == '/') head.pop_back();
  return {head, tail};
}

std::pair<std::string, std::string> splitext(const std::string& p) {
  size_t sep = p.rfind('/');
  size_t dot = p.rfind('.');
  size_t name_start = sep == std::string::npos ? 0 : sep + 1;
  if (dot == std::string::npos || dot < name_start) return {p, ""};
  // Leading dots of the name ("~/.bashrc") start no extension.
  size_t first_non_dot = p.find_first_not_of('.', name_start);
  if (first_non_dot == std::string::npos || dot < first_non_dot) return {p, ""};
  return {p.substr(0, dot), p.substr(dot)};
}

std::string normpath(const std::string& p) {
  if (p.empty()) return ".";
  int initial_slashes = p[0] == '/' ? (p.compare(0, 2, "//") == 0 && p.compare(0, 3, "///") != 0 ? 2 : 1) : 0;
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= p.size()) {
    size_t end = p.find('/', start);
    if (end == std::string::npos) end = p.size();
    std::string part = p.substr(start, end - start);
    if (part.empty() || part == ".") {
    } else if (part != ".." || (!initial_slashes && parts.empty()) || (!parts.empty() && parts.back() == "..")) {
      parts.push_back(part);
    } else if (!parts.empty()) {
      parts.pop_back();
    }
    start = end + 1;
  }
  std::string out(static_cast<size_t>(initial_slashes), '/');
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? "/" : "") + parts[i];
  return out.empty() ? "." : out;
}

Ref str_pair(const std::pair<std::string, std::string>& pair) { return py_tuple({py_str(pair.first), py_str(pair.second)}); }

void def(ModuleObject& m, const std::string& name, NativeFn fn) { m.globals->set(name, native_function(name, std::move(fn))); }

// A file-system question about one path: false (not an error) when the path cannot be looked at.
template <typename Test>
void def_test(ModuleObject& m, const std::string& name, Test test) {
  def(m, name, [name, test](Interpreter& ip, CallArgs& c) {
    auto a = bind_native(name.c_str(), c, {{"path"}});
    std::error_code ec;
    return py_bool(test(fs::path(path_arg(ip, a[0], name.c_str())), ec) && !ec);
  });
}

}  // namespace

void init_os_path_module(Interpreter&, ModuleObject& m) {
  m.globals->set("sep", py_str("/"));
  def(m, "join", [](Interpreter& ip, CallArgs& c) {
    if (c.args.empty()) raise_error(ExcType::TypeError, "join() missing 1 required positional argument: 'a'");
    return py_str(join(ip, c.args));
  });
  def(m, "split", [](Interpreter& ip, CallArgs& c) { return str_pair(split(path_arg(ip, bind_native("split", c, {{"p"}})[0], "split"))); });
  def(m, "splitext", [](Interpreter& ip, CallArgs& c) {
    return str_pair(splitext(path_arg(ip, bind_native("splitext", c, {{"p"}})[0], "splitext")));
  });
  def(m, "basename", [](Interpreter& ip, CallArgs& c) {
    return py_str(split(path_arg(ip, bind_native("basename", c, {{"p"}})[0], "basename")).second);
  });
  def(m, "dirname", [](Interpreter& ip, CallArgs& c) {
    return py_str(split(path_arg(ip, bind_native("dirname", c, {{"p"}})[0], "dirname")).first);
  });
  def(m, "normpath", [](Interpreter& ip, CallArgs& c) {
    return py_str(normpath(path_arg(ip, bind_native("normpath", c, {{"path"}})[0], "normpath")));
  });
  def(m, "isabs", [](Interpreter& ip, CallArgs& c) {
    const std::string p = path_arg(ip, bind_native("isabs", c, {{"s"}})[0], "isabs");
    return py_bool(!p.empty() && p[0] == '/');
  });
  def(m, "abspath", [](Interpreter& ip, CallArgs& c) {
    std::string p = path_arg(ip, bind_native("abspath", c, {{"path"}})[0], "abspath");
    if (p.empty() || p[0] != '/') p = fs::current_path().string() + "/" + p;
    return py_str(normpath(p));
  });
  def(m, "expanduser", [](Interpreter& ip, CallArgs& c) {
    std::string p = path_arg(ip, bind_native("expanduser", c, {{"path"}})[0], "expanduser");
    const char* home = std::getenv("HOME");
    if (home && !p.empty() && p[0] == '~' && (p.size() == 1 || p[1] == '/')) p = home + p.substr(1);
    return py_str(p);
  });
  def_test(m, "exists", [](const fs::path& p, std::error_code& ec) { return fs::exists(p, ec); });
  def_test(m, "isfile", [](const fs::path& p, std::error_code& ec) { return fs::is_regular_file(p, ec); });
  def_test(m, "isdir", [](const fs::path& p, std::error_code& ec) { return fs::is_directory(p, ec); });
  def(m, "getsize", [](Interpreter& ip, CallArgs& c) {
    const std::string p = path_arg(ip, bind_native("getsize", c, {{"filename"}})[0], "getsize");
    std::error_code ec;
    auto size = fs::file_size(p, ec);
    if (ec) raise_os_error(ENOENT, p);
    return py_int(static_cast<int64_t>(size));
  });
}

}  // namespace kiln::python
