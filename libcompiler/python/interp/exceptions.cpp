#include "libcompiler/python/interp/exceptions.h"

#include <cerrno>
#include <cstring>

#include "libcompiler/python/ast.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {
namespace {

std::vector<TypeObject*> make_exception_types() {
  std::vector<TypeObject*> types;
#define KILN_PY_EXCEPTION(Enum, python_name, base)                                                        \
  types.push_back(make_builtin_type(                                                                        \
      python_name, ExcType::Enum == ExcType::BaseException                                                \
                       ? std::vector<TypeObject*>{}                                                         \
                       : std::vector<TypeObject*>{types[static_cast<size_t>(ExcType::base)]}));
#include "libcompiler/python/interp/exceptions.def"
  TypeObject* base = types[static_cast<size_t>(ExcType::BaseException)];
  add_method(base, "__init__", [](Interpreter&, CallArgs& c) {
    std::vector<Ref> args(c.args.begin() + 1, c.args.end());
    as<InstanceObject>(c.args[0]).dict["args"] = py_tuple(std::move(args));
    return none();
  });
  add_method(base, "__str__", [](Interpreter& interp, CallArgs& c) {
    Ref args = try_getattr(interp, c.args[0], "args");
    if (!args || args->kind != ObjectKind::Tuple) return py_str("");
    const auto& items = as<TupleObject>(args).items;
    if (items.empty()) return py_str("");
    if (items.size() == 1) return py_str(str(interp, items[0]));
    return py_str(repr(interp, args));
  });
  add_method(base, "__repr__", [](Interpreter& interp, CallArgs& c) {
    Ref args = try_getattr(interp, c.args[0], "args");
    std::string inner = args ? repr(interp, args) : "()";
    if (args && args->kind == ObjectKind::Tuple && as<TupleObject>(args).items.size() == 1)
      // append: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string here.
      inner = std::string("(").append(repr(interp, as<TupleObject>(args).items[0])).append(")");
    return py_str(type_name(c.args[0]) + inner);
  });
  // As in CPython, setting __cause__ (what `raise ... from` does) also sets __suppress_context__.
  auto cause_getter = native_function("__cause__", [](Interpreter&, CallArgs& c) {
    auto& dict = as<InstanceObject>(c.args.at(0)).dict;
    auto it = dict.find("__cause__");
    return it == dict.end() ? none() : it->second;
  });
  auto cause_setter = native_function("__cause__", [](Interpreter&, CallArgs& c) {
    auto& dict = as<InstanceObject>(c.args.at(0)).dict;
    dict["__cause__"] = c.args.at(1);
    dict["__suppress_context__"] = py_true();
    return none();
  });
  base->attrs["__cause__"] = std::make_shared<PropertyObject>(cause_getter, cause_setter);
  base->attrs["__context__"] = none();
  base->attrs["__suppress_context__"] = py_false();
  // SystemExit(code): the code sys.exit was given (None without one, the tuple with several).
  add_method(types[static_cast<size_t>(ExcType::SystemExit)], "__init__", [](Interpreter&, CallArgs& c) {
    std::vector<Ref> args(c.args.begin() + 1, c.args.end());
    auto& dict = as<InstanceObject>(c.args[0]).dict;
    dict["code"] = args.empty() ? none() : args.size() == 1 ? args[0] : py_tuple(args);
    dict["args"] = py_tuple(std::move(args));
    return none();
  });
  // OSError(errno, strerror[, filename]) names its parts and prints "[Errno 2] No such file or
  // directory: 'x'"; errors kiln raises natively carry the whole text as their one argument.
  TypeObject* os_error = types[static_cast<size_t>(ExcType::OSError)];
  for (const char* field : {"errno", "strerror", "filename", "filename2"}) os_error->attrs[field] = none();
  add_method(os_error, "__init__", [](Interpreter&, CallArgs& c) {
    std::vector<Ref> args(c.args.begin() + 1, c.args.end());
    auto& dict = as<InstanceObject>(c.args[0]).dict;
    if (args.size() >= 2 && args.size() <= 5 && args[0]->kind == ObjectKind::Int) {
      dict["errno"] = args[0];
      dict["strerror"] = args[1];
      if (args.size() >= 3) dict["filename"] = args[2];
      if (args.size() >= 5) dict["filename2"] = args[4];
      args.resize(2);  // CPython keeps (errno, strerror) as args
    }
    dict["args"] = py_tuple(std::move(args));
    return none();
  });
  add_method(os_error, "__str__", [](Interpreter& interp, CallArgs& c) {
    const Ref& self = c.args[0];
    Ref errno_value = try_getattr(interp, self, "errno"), strerror = try_getattr(interp, self, "strerror");
    if (!errno_value || is_none(errno_value) || !strerror || is_none(strerror)) {
      Ref args = try_getattr(interp, self, "args");
      if (!args || args->kind != ObjectKind::Tuple || as<TupleObject>(args).items.empty()) return py_str("");
      const auto& items = as<TupleObject>(args).items;
      return py_str(items.size() == 1 ? str(interp, items[0]) : repr(interp, args));
    }
    std::string text = "[Errno " + str(interp, errno_value) + "] " + str(interp, strerror);
    Ref filename = try_getattr(interp, self, "filename");
    if (filename && !is_none(filename)) text += ": " + repr(interp, filename);
    Ref filename2 = try_getattr(interp, self, "filename2");
    if (filename2 && !is_none(filename2)) text += " -> " + repr(interp, filename2);
    return py_str(text);
  });
  // KeyError shows the missing key's repr.
  add_method(types[static_cast<size_t>(ExcType::KeyError)], "__str__", [](Interpreter& interp, CallArgs& c) {
    Ref args = try_getattr(interp, c.args[0], "args");
    if (args && args->kind == ObjectKind::Tuple && as<TupleObject>(args).items.size() == 1)
      return py_str(repr(interp, as<TupleObject>(args).items[0]));
    return py_str(args ? (as<TupleObject>(args).items.empty() ? "" : repr(interp, args)) : "");
  });
  return types;
}

const std::vector<TypeObject*>& exception_types() {
  static const std::vector<TypeObject*> types = make_exception_types();
  return types;
}

std::string strip(std::string_view line, size_t& leading) {
  size_t begin = line.find_first_not_of(" \t\f");
  if (begin == std::string_view::npos) {
    leading = line.size();
    return "";
  }
  size_t end = line.find_last_not_of(" \t\f\r\n");
  leading = begin;
  return std::string(line.substr(begin, end - begin + 1));
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\f'; }

}  // namespace

const char* PyException::what() const noexcept {
  if (what_.empty()) {
    what_ = exception->type->name;
    if (exception->kind == ObjectKind::Instance) {
      auto& dict = as<InstanceObject>(exception).dict;
      auto it = dict.find("args");
      if (it != dict.end() && it->second->kind == ObjectKind::Tuple && !as<TupleObject>(it->second).items.empty()) {
        const Ref& first = as<TupleObject>(it->second).items[0];
        if (first->kind == ObjectKind::Str) what_ += ": " + as<StrObject>(first).value;
      }
    }
  }
  return what_.c_str();
}

TypeObject* exception_type(ExcType type) { return exception_types()[static_cast<size_t>(type)]; }

std::vector<TypeObject*> all_exception_types() { return exception_types(); }

Ref make_exception(ExcType type, std::string message) {
  auto instance = std::make_shared<InstanceObject>(builtin_type_ref(exception_type(type)));
  instance->dict["args"] = py_tuple({py_str(std::move(message))});
  return instance;
}

void raise_error(ExcType type, std::string message) { throw PyException(make_exception(type, std::move(message))); }

void raise_os_error(int error_number) {
  raise_error(ExcType::OSError, "[Errno " + std::to_string(error_number) + "] " + std::strerror(error_number));
}

void raise_os_error(int error_number, const std::string& filename) {
  ExcType type = ExcType::OSError;
  switch (error_number) {
    case ENOENT: type = ExcType::FileNotFoundError; break;
    case EEXIST: type = ExcType::FileExistsError; break;
    case EISDIR: type = ExcType::IsADirectoryError; break;
    case ENOTDIR: type = ExcType::NotADirectoryError; break;
    case EACCES: case EPERM: type = ExcType::PermissionError; break;
    default: break;
  }
  auto instance = std::make_shared<InstanceObject>(builtin_type_ref(exception_type(type)));
  Ref strerror = py_str(std::strerror(error_number));
  instance->dict["args"] = py_tuple({py_int(error_number), strerror});
  instance->dict["errno"] = py_int(error_number);
  instance->dict["strerror"] = strerror;
  instance->dict["filename"] = py_str(filename);
  throw PyException(instance);
}

void raise_bare(ExcType type) {
  Ref exception = make_exception(type, "");
  as<InstanceObject>(exception).dict["args"] = py_tuple({});
  throw PyException(exception);
}

void raise_int_too_big(const std::string& expression) {
  raise_error(ExcType::NotImplementedError, "kiln does not support integers beyond 64 bits: " + expression + " does not fit");
}

bool is_exception_instance(const Ref& value) {
  return value->kind == ObjectKind::Instance && value->type->is_subtype_of(exception_type(ExcType::BaseException));
}

bool is_exception_class(const Ref& value) {
  return value->kind == ObjectKind::Type &&
         as<TypeObject>(value).is_subtype_of(exception_type(ExcType::BaseException));
}

std::string exception_message(Interpreter& interp, const Ref& exception) { return str(interp, exception); }

std::string exception_summary(Interpreter& interp, const Ref& exception) {
  std::string name = exception->type->qualified_name();
  std::string message = exception_message(interp, exception);
  return message.empty() ? name : name + ": " + message;
}

TracebackEntry traceback_entry(const Node& where, std::string function) {
  TracebackEntry entry{where.loc, std::move(function)};
  if (!where.loc.file || where.loc.line != where.loc.end_line) return entry;
  std::string_view line = where.loc.file->line_text(where.loc.line);
  auto at = [&](size_t i) { return i < line.size() ? line[i] : '\0'; };
  size_t end = std::min<size_t>(where.loc.end_col, line.size());
  if (auto* binop = dyn_cast<BinOp>(&where)) {
    size_t left = binop->left->loc.end_col;
    size_t right_start = binop->right->loc.col;
    if (binop->left->loc.end_line != where.loc.line || right_start > line.size() || left > right_start) return entry;
    size_t offset = 0;
    while (left + offset < right_start && is_space(line[left + offset])) ++offset;
    size_t anchor = left + offset;
    size_t anchor_end = anchor + 1;
    if (anchor + 1 < right_start && !is_space(line[anchor + 1])) ++anchor_end;
    while (anchor < end && (is_space(at(anchor)) || at(anchor) == ')' || at(anchor) == '#')) {
      ++anchor;
      ++anchor_end;
    }
    entry.anchor_begin = static_cast<int32_t>(anchor);
    entry.anchor_end = static_cast<int32_t>(anchor_end);
  } else if (auto* subscript = dyn_cast<Subscript>(&where)) {
    size_t left = subscript->value->loc.end_col;
    size_t right = subscript->slice->loc.end_col + 1;
    while (left < end && at(left) != '[') ++left;
    while (right < end && at(right) != ']') ++right;
    if (right < end) ++right;
    entry.anchor_begin = static_cast<int32_t>(left);
    entry.anchor_end = static_cast<int32_t>(right);
  }
  return entry;
}

std::string format_traceback(Interpreter& interp, const PyException& error) {
  std::string out = "Traceback (most recent call last):\n";
  // Like CPython, a run of more than three identical frames (recursion) is summarised.
  size_t repeated = 0;
  const TracebackEntry* previous = nullptr;
  auto flush_repeats = [&] {
    if (repeated > 3)
      out += "  [Previous line repeated " + std::to_string(repeated - 3) + " more time" + (repeated - 3 == 1 ? "" : "s") + "]\n";
  };
  for (auto it = error.traceback.rbegin(); it != error.traceback.rend(); ++it) {
    const SourceRange& where = it->where;
    bool same = previous && previous->where.file == where.file && previous->where.line == where.line &&
                previous->function == it->function;
    previous = &*it;
    if (same) {
      if (++repeated > 3) continue;
    } else {
      flush_repeats();
      repeated = 1;
    }
    std::string filename = where.file ? where.file->name() : "<unknown>";
    out += "  File \"" + filename + "\", line " + std::to_string(where.line) + ", in " + it->function + "\n";
    if (!where.file || filename.empty() || filename[0] == '<') continue;
    std::string_view line = where.file->line_text(where.line);
    size_t leading_bytes = 0;
    std::string stripped = strip(line, leading_bytes);
    if (stripped.empty()) continue;
    out += "    " + stripped + "\n";
    int64_t stripped_chars = char_column(line, static_cast<uint32_t>(leading_bytes));
    int64_t stripped_length = char_column(stripped, static_cast<uint32_t>(stripped.size()));
    int64_t start = char_column(line, where.col);
    int64_t end = where.end_line == where.line ? char_column(line, std::min<uint32_t>(where.end_col, line.size()))
                                               : stripped_chars + stripped_length;
    bool anchored = it->anchor_begin >= 0;
    int64_t left = anchored ? char_column(line, static_cast<uint32_t>(it->anchor_begin)) - start : 0;
    int64_t right = anchored ? char_column(line, std::min<uint32_t>(static_cast<uint32_t>(it->anchor_end), line.size())) - start : 0;
    if (end - start < stripped_length || (anchored && right - left > 0)) {
      std::string markers;
      if (anchored) {
        markers += std::string(static_cast<size_t>(std::max<int64_t>(left, 0)), '~');
        markers += std::string(static_cast<size_t>(std::max<int64_t>(right - left, 0)), '^');
        markers += std::string(static_cast<size_t>(std::max<int64_t>(end - start - right, 0)), '~');
      } else {
        markers = std::string(static_cast<size_t>(std::max<int64_t>(end - start, 0)), '^');
      }
      out += "    " + std::string(static_cast<size_t>(std::max<int64_t>(start - stripped_chars, 0)), ' ') + markers + "\n";
    }
  }
  flush_repeats();
  return out + exception_summary(interp, error.exception) + "\n";
}

}  // namespace kiln::python
