// open(): text and binary files, read and written through a buffer the object owns (modes r, w,
// a, x, their '+' forms and 'b'): text files read and write str (_io.TextIOWrapper), binary files
// bytes (_io.BufferedReader/Writer/Random). Errors are CPython's: FileNotFoundError, "I/O
// operation on closed file.", "not readable"/"not writable", the wrong payload type.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "libcompiler/python/interp/builtin_setup.h"
#include "libcompiler/python/interp/bytes_object.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {
namespace {

struct FileObject : NativeObject {
  FileObject(TypeObject* type, std::string name, std::string mode, std::fstream stream, bool readable, bool writable,
             bool binary)
      : NativeObject(type), name(std::move(name)), mode(std::move(mode)), stream(std::move(stream)),
        readable(readable), writable(writable), binary(binary) {}
  std::string name, mode;
  std::fstream stream;
  bool readable, writable, binary, closed = false;
};

// What a read returns: str from a text file, bytes from a binary one.
Ref contents(const FileObject& f, std::string data) { return f.binary ? py_bytes(std::move(data)) : py_str(std::move(data)); }

// What a write takes: str for a text file, bytes for a binary one.
const std::string& payload(const FileObject& f, const Ref& value, const char* what) {
  return f.binary ? bytes_data(value) : to_str(value, what);
}

FileObject& file_of(const CallArgs& c) { return static_cast<FileObject&>(*c.args.at(0)); }

FileObject& open_file(const CallArgs& c, bool for_reading) {
  FileObject& f = file_of(c);
  if (f.closed) raise_error(ExcType::ValueError, "I/O operation on closed file.");
  if (for_reading && !f.readable) raise_error(ExcType::OSError, "not readable");
  if (!for_reading && !f.writable) raise_error(ExcType::OSError, "not writable");
  return f;
}

std::string read_line(FileObject& f) {
  std::string line;
  if (!std::getline(f.stream, line)) return "";
  if (!f.stream.eof()) line += '\n';
  return line;
}

TypeObject* make_file_type(const char* name) {
  TypeObject* t = make_builtin_type(name, {}, "_io");
  add_method(t, "read", [](Interpreter& ip, CallArgs& c) {
    FileObject& f = open_file(c, true);
    int64_t size = c.args.size() > 1 && !is_none(c.args[1]) ? to_index(ip, c.args[1]) : -1;
    if (size < 0) {
      std::ostringstream rest;
      rest << f.stream.rdbuf();
      f.stream.clear();
      return contents(f, rest.str());
    }
    std::string chunk(static_cast<size_t>(size), '\0');
    f.stream.read(chunk.data(), size);
    chunk.resize(static_cast<size_t>(f.stream.gcount()));
    f.stream.clear();
    return contents(f, chunk);
  });
  add_method(t, "readline", [](Interpreter&, CallArgs& c) {
    FileObject& f = open_file(c, true);
    return contents(f, read_line(f));
  });
  add_method(t, "readlines", [](Interpreter&, CallArgs& c) {
    FileObject& f = open_file(c, true);
    std::vector<Ref> lines;
    for (std::string line; !(line = read_line(f)).empty();) lines.push_back(contents(f, line));
    return py_list(std::move(lines));
  });
  add_method(t, "__iter__", [](Interpreter&, CallArgs& c) {
    open_file(c, true);
    return c.args[0];
  });
  add_method(t, "__next__", [](Interpreter&, CallArgs& c) -> Ref {
    FileObject& f = open_file(c, true);
    std::string line = read_line(f);
    if (line.empty()) raise_bare(ExcType::StopIteration);
    return contents(f, line);
  });
  add_method(t, "write", [](Interpreter&, CallArgs& c) {
    FileObject& f = open_file(c, false);
    const std::string& data = payload(f, c.args.at(1), "write() argument");
    f.stream << data;
    return py_int(static_cast<int64_t>(data.size()));
  });
  add_method(t, "writelines", [](Interpreter& ip, CallArgs& c) {
    FileObject& f = open_file(c, false);
    for (const Ref& line : to_vector(ip, c.args.at(1))) f.stream << payload(f, line, "writelines() argument");
    return none();
  });
  add_method(t, "tell", [](Interpreter&, CallArgs& c) {
    FileObject& f = open_file(c, file_of(c).readable);
    return py_int(static_cast<int64_t>(f.readable ? f.stream.tellg() : f.stream.tellp()));
  });
  add_method(t, "seek", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("seek", c, {{"self"}, {"cookie"}, {"whence", false}});
    FileObject& f = open_file(c, file_of(c).readable);
    const int64_t whence = a[2] ? to_index(ip, a[2]) : 0;
    if (whence < 0 || whence > 2) raise_error(ExcType::ValueError, "invalid whence (" + std::to_string(whence) + ", should be 0, 1 or 2)");
    const std::ios::seekdir from = whence == 0 ? std::ios::beg : whence == 1 ? std::ios::cur : std::ios::end;
    f.stream.clear();
    f.stream.seekg(to_index(ip, a[1]), from);
    f.stream.seekp(f.stream.tellg());
    return py_int(static_cast<int64_t>(f.stream.tellg()));
  });
  add_method(t, "flush", [](Interpreter&, CallArgs& c) {
    if (!file_of(c).closed) file_of(c).stream.flush();
    return none();
  });
  add_method(t, "close", [](Interpreter&, CallArgs& c) {
    FileObject& f = file_of(c);
    if (!f.closed) f.stream.close();
    f.closed = true;
    return none();
  });
  add_method(t, "__enter__", [](Interpreter&, CallArgs& c) {
    open_file(c, file_of(c).readable);
    return c.args[0];
  });
  add_method(t, "__exit__", [](Interpreter&, CallArgs& c) {
    FileObject& f = file_of(c);
    if (!f.closed) f.stream.close();
    f.closed = true;
    return none();
  });
  add_getter(t, "closed", [](Interpreter&, const Ref& self) { return py_bool(static_cast<FileObject&>(*self).closed); });
  add_getter(t, "name", [](Interpreter&, const Ref& self) { return py_str(static_cast<FileObject&>(*self).name); });
  add_getter(t, "mode", [](Interpreter&, const Ref& self) { return py_str(static_cast<FileObject&>(*self).mode); });
  add_method(t, "__repr__", [](Interpreter&, CallArgs& c) {
    FileObject& f = file_of(c);
    if (f.binary) return py_str("<_io." + f.type->name + " name='" + f.name + "'>");
    return py_str("<_io.TextIOWrapper name='" + f.name + "' mode='" + f.mode + "' encoding='UTF-8'>");
  });
  return t;
}

// The class of an open file, as CPython's io picks it.
TypeObject* file_type(bool binary, bool readable, bool writable) {
  static TypeObject* text = make_file_type("TextIOWrapper");
  static TypeObject* reader = make_file_type("BufferedReader");
  static TypeObject* writer = make_file_type("BufferedWriter");
  static TypeObject* random = make_file_type("BufferedRandom");
  if (!binary) return text;
  return readable && writable ? random : readable ? reader : writer;
}

}  // namespace

Ref open_file(Interpreter& ip, CallArgs& c) {
  auto a = bind_native("open", c, {{"file"}, {"mode", false}, {"buffering", false}, {"encoding", false},
                                   {"errors", false}, {"newline", false}});
  const std::string name = fspath(ip, a[0], "open");
  const std::string mode = a[1] && !is_none(a[1]) ? to_str(a[1], "open() argument 'mode'") : "r";
  const bool binary = mode.find('b') != std::string::npos;
  const char kind = mode.empty() ? 'r' : mode[0];
  const bool plus = mode.find('+') != std::string::npos;
  if (mode.find_first_not_of("rwaxtb+") != std::string::npos || std::string("rwax").find(kind) == std::string::npos ||
      (binary && mode.find('t') != std::string::npos))
    raise_error(ExcType::ValueError, "invalid mode: '" + mode + "'");
  std::ios::openmode flags = std::ios::binary;  // newlines stay as written, as on POSIX
  if (kind == 'r') flags |= std::ios::in | (plus ? std::ios::out : std::ios::openmode{});
  if (kind == 'w' || kind == 'x') flags |= std::ios::out | std::ios::trunc | (plus ? std::ios::in : std::ios::openmode{});
  if (kind == 'a') flags |= std::ios::out | std::ios::app | (plus ? std::ios::in : std::ios::openmode{});
  if (kind == 'x' && std::ifstream(name).good()) raise_os_error(EEXIST, name);
  errno = 0;
  std::fstream stream(name, flags);
  if (!stream.is_open()) raise_os_error(errno ? errno : ENOENT, name);
  const bool readable = kind == 'r' || plus, writable = kind != 'r' || plus;
  return std::make_shared<FileObject>(file_type(binary, readable, writable), name, mode, std::move(stream), readable,
                                      writable, binary);
}

}  // namespace kiln::python
