#include "libcompiler/python/interp/bytes_object.h"

#include <algorithm>
#include <cstdio>
#include <functional>

#include "libcompiler/python/interp/builtin_setup.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {
namespace {

struct BytesObject : NativeObject {
  BytesObject(TypeObject* type, std::string data) : NativeObject(type), data(std::move(data)) {}
  const std::string data;
};

const std::string& self_data(const CallArgs& c) { return static_cast<BytesObject&>(*c.args.at(0)).data; }

// The position of the first invalid UTF-8 sequence, or npos: decode()'s check.
size_t invalid_utf8_at(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t extra = c < 0x80 ? 0 : (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xE ? 2 : (c >> 3) == 0x1E ? 3 : 4;
    if (extra == 4 || i + extra >= s.size() + (extra ? 0 : 1)) return i;
    for (size_t k = 1; k <= extra; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return i;
    i += extra + 1;
  }
  return std::string::npos;
}

void check_codec(const Ref& encoding, const char* function) {
  if (!encoding) return;
  std::string name = to_str(encoding, function);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char ch) { return std::tolower(ch); });
  std::replace(name.begin(), name.end(), '_', '-');
  if (name != "utf-8" && name != "utf8" && name != "ascii" && name != "latin-1")
    raise_error(ExcType::LookupError, "unknown encoding: " + to_str(encoding, function));
}

std::string decode_utf8(const std::string& data) {
  const size_t bad = invalid_utf8_at(data);
  if (bad != std::string::npos) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned char>(data[bad]));
    raise_error(ExcType::UnicodeDecodeError, std::string("'utf-8' codec can't decode byte ") + hex + " in position " +
                                                  std::to_string(bad) + ": invalid start byte");
  }
  return data;
}

Ref make_bytes(Interpreter& ip, CallArgs& c) {
  auto a = bind_native("bytes", c, {{"source", false}, {"encoding", false}, {"errors", false}});
  if (!a[0]) return py_bytes("");
  const Ref& source = a[0];
  if (source->kind == ObjectKind::Str) {
    if (!a[1]) raise_error(ExcType::TypeError, "string argument without an encoding");
    check_codec(a[1], "bytes() argument 'encoding'");
    return py_bytes(as<StrObject>(source).value);
  }
  if (is_bytes(source)) return source;
  if (source->kind == ObjectKind::Int) {
    const int64_t n = as<IntObject>(source).value;
    if (n < 0) raise_error(ExcType::ValueError, "negative count");
    return py_bytes(std::string(static_cast<size_t>(n), '\0'));
  }
  std::string data;
  for (const Ref& item : to_vector(ip, source)) {
    const int64_t value = to_index(ip, item);
    if (value < 0 || value > 255) raise_error(ExcType::ValueError, "bytes must be in range(0, 256)");
    data += static_cast<char>(value);
  }
  return py_bytes(std::move(data));
}

void method(const char* name, NativeFn fn) { add_method(bytes_type(), name, std::move(fn)); }

// A comparison of two byte strings; NotImplemented against anything else.
void comparison(const char* name, std::function<bool(const std::string&, const std::string&)> test) {
  method(name, [test](Interpreter&, CallArgs& c) -> Ref {
    if (!is_bytes(c.args.at(1))) return not_implemented();
    return py_bool(test(self_data(c), bytes_data(c.args[1])));
  });
}

void install_methods() {
  method("__len__", [](Interpreter&, CallArgs& c) { return py_int(static_cast<int64_t>(self_data(c).size())); });
  method("__getitem__", [](Interpreter& ip, CallArgs& c) -> Ref {
    const std::string& data = self_data(c);
    const Ref& key = c.args.at(1);
    if (key->kind == ObjectKind::Slice) {
      SliceBounds b = slice_bounds(ip, as<SliceObject>(key), static_cast<int64_t>(data.size()));
      std::string out;
      for (int64_t i = 0, j = b.start; i < b.length; ++i, j += b.step) out += data[static_cast<size_t>(j)];
      return py_bytes(std::move(out));
    }
    const size_t i = sequence_index(to_index(ip, key), data.size(), "index");
    return py_int(static_cast<unsigned char>(data[i]));
  });
  method("__iter__", [](Interpreter& ip, CallArgs& c) {
    std::vector<Ref> values;
    for (char ch : self_data(c)) values.push_back(py_int(static_cast<unsigned char>(ch)));
    return iter(ip, py_list(std::move(values)));
  });
  method("__contains__", [](Interpreter& ip, CallArgs& c) {
    const std::string& data = self_data(c);
    const Ref& item = c.args.at(1);
    if (is_bytes(item)) return py_bool(data.find(bytes_data(item)) != std::string::npos);
    const int64_t value = to_index(ip, item);
    return py_bool(data.find(static_cast<char>(value)) != std::string::npos);
  });
  method("__add__", [](Interpreter&, CallArgs& c) -> Ref {
    if (!is_bytes(c.args.at(1)))
      raise_error(ExcType::TypeError, "can't concat " + type_name(c.args[1]) + " to bytes");
    return py_bytes(self_data(c) + bytes_data(c.args[1]));
  });
  method("__mul__", [](Interpreter& ip, CallArgs& c) {
    std::string out;
    for (int64_t i = 0, n = to_index(ip, c.args.at(1)); i < n; ++i) out += self_data(c);
    return py_bytes(std::move(out));
  });
  comparison("__eq__", std::equal_to<std::string>());
  comparison("__ne__", std::not_equal_to<std::string>());
  comparison("__lt__", std::less<std::string>());
  comparison("__le__", std::less_equal<std::string>());
  comparison("__gt__", std::greater<std::string>());
  comparison("__ge__", std::greater_equal<std::string>());
  method("__hash__", [](Interpreter&, CallArgs& c) {
    return py_int(static_cast<int64_t>(std::hash<std::string>()(self_data(c)) >> 1));
  });
  method("__repr__", [](Interpreter&, CallArgs& c) { return py_str(bytes_repr(self_data(c))); });
  method("__str__", [](Interpreter&, CallArgs& c) { return py_str(bytes_repr(self_data(c))); });
  method("decode", [](Interpreter&, CallArgs& c) {
    auto a = bind_native("decode", c, {{"self"}, {"encoding", false}, {"errors", false}});
    check_codec(a[1], "decode() argument 'encoding'");
    return py_str(decode_utf8(self_data(c)));
  });
  method("hex", [](Interpreter&, CallArgs& c) {
    std::string out;
    char pair[3];
    for (char ch : self_data(c)) {
      std::snprintf(pair, sizeof pair, "%02x", static_cast<unsigned char>(ch));
      out += pair;
    }
    return py_str(out);
  });
  method("startswith", [](Interpreter&, CallArgs& c) {
    const std::string &data = self_data(c), &prefix = bytes_data(c.args.at(1));
    return py_bool(data.compare(0, prefix.size(), prefix) == 0);
  });
  method("endswith", [](Interpreter&, CallArgs& c) {
    const std::string &data = self_data(c), &suffix = bytes_data(c.args.at(1));
    return py_bool(data.size() >= suffix.size() && data.compare(data.size() - suffix.size(), suffix.size(), suffix) == 0);
  });
  method("find", [](Interpreter&, CallArgs& c) {
    const size_t at = self_data(c).find(bytes_data(c.args.at(1)));
    return py_int(at == std::string::npos ? -1 : static_cast<int64_t>(at));
  });
  method("split", [](Interpreter&, CallArgs& c) {
    const std::string& data = self_data(c);
    std::vector<Ref> parts;
    if (c.args.size() < 2 || is_none(c.args[1])) {
      size_t i = 0;
      while (true) {
        i = data.find_first_not_of(" \t\n\r\v\f", i);
        if (i == std::string::npos) break;
        size_t end = data.find_first_of(" \t\n\r\v\f", i);
        parts.push_back(py_bytes(data.substr(i, end - i)));
        if (end == std::string::npos) break;
        i = end;
      }
      return py_list(std::move(parts));
    }
    const std::string& sep = bytes_data(c.args[1]);
    if (sep.empty()) raise_error(ExcType::ValueError, "empty separator");
    size_t start = 0;
    for (size_t at; (at = data.find(sep, start)) != std::string::npos; start = at + sep.size())
      parts.push_back(py_bytes(data.substr(start, at - start)));
    parts.push_back(py_bytes(data.substr(start)));
    return py_list(std::move(parts));
  });
  method("join", [](Interpreter& ip, CallArgs& c) {
    std::string out;
    bool first = true;
    for (const Ref& part : to_vector(ip, c.args.at(1))) {
      if (!first) out += self_data(c);
      out += bytes_data(part);
      first = false;
    }
    return py_bytes(std::move(out));
  });
  for (auto [name, convert] : {std::pair{"upper", &::toupper}, {"lower", &::tolower}})
    method(name, [convert](Interpreter&, CallArgs& c) {
      std::string out = self_data(c);
      for (char& ch : out) ch = static_cast<char>(convert(static_cast<unsigned char>(ch)));
      return py_bytes(std::move(out));
    });
  method("strip", [](Interpreter&, CallArgs& c) {
    const std::string& data = self_data(c);
    const size_t begin = data.find_first_not_of(" \t\n\r\v\f");
    if (begin == std::string::npos) return py_bytes("");
    return py_bytes(data.substr(begin, data.find_last_not_of(" \t\n\r\v\f") - begin + 1));
  });
  add_method(builtin_types().str, "encode", [](Interpreter&, CallArgs& c) {
    auto a = bind_native("encode", c, {{"self"}, {"encoding", false}, {"errors", false}});
    check_codec(a[1], "encode() argument 'encoding'");
    return py_bytes(as<StrObject>(a[0]).value);
  });
  bytes_type()->attrs["fromhex"] = native_function("fromhex", [](Interpreter&, CallArgs& c) {
    const std::string& text = to_str(c.args.at(0), "fromhex() argument");
    std::string out;
    for (size_t i = 0; i < text.size();) {
      if (text[i] == ' ') {
        ++i;
        continue;
      }
      if (i + 1 >= text.size() || !std::isxdigit(static_cast<unsigned char>(text[i])) ||
          !std::isxdigit(static_cast<unsigned char>(text[i + 1])))
        raise_error(ExcType::ValueError, "non-hexadecimal number found in fromhex() arg at position " + std::to_string(i));
      out += static_cast<char>(std::stoi(text.substr(i, 2), nullptr, 16));
      i += 2;
    }
    return py_bytes(std::move(out));
  });
}

}  // namespace

TypeObject* bytes_type() {
  static TypeObject* type = make_builtin_type("bytes", {});
  return type;
}

Ref py_bytes(std::string data) { return std::make_shared<BytesObject>(bytes_type(), std::move(data)); }

bool is_bytes(const Ref& value) { return value->type == bytes_type(); }

const std::string& bytes_data(const Ref& value) {
  if (!is_bytes(value)) raise_error(ExcType::TypeError, "a bytes-like object is required, not '" + type_name(value) + "'");
  return static_cast<BytesObject&>(*value).data;
}

std::string bytes_repr(const std::string& data) {
  const bool double_quotes = data.find('\'') != std::string::npos && data.find('"') == std::string::npos;
  const char quote = double_quotes ? '"' : '\'';
  std::string out = std::string("b") + quote;
  for (char ch : data) {
    const auto c = static_cast<unsigned char>(ch);
    if (ch == quote || ch == '\\') out += std::string("\\") + ch;
    else if (ch == '\t') out += "\\t";
    else if (ch == '\n') out += "\\n";
    else if (ch == '\r') out += "\\r";
    else if (c < 0x20 || c >= 0x7f) {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    } else {
      out += ch;
    }
  }
  return out + quote;
}

void install_bytes_type(DictObject& builtins) {
  static const bool installed = [] {
    bytes_type()->constructor = make_bytes;
    install_methods();
    return true;
  }();
  (void)installed;
  builtins.set("bytes", builtin_type_ref(bytes_type()));
}

}  // namespace kiln::python
