// Methods of str.
#include <algorithm>

#include "libcompiler/python/interp/builtin_setup.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/format_spec.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/interp/utf8_text.h"

namespace kiln::python {
namespace {

const std::string& self_str(const CallArgs& c) { return as<StrObject>(c.args.at(0)).value; }

Ref arg(const CallArgs& c, size_t i) { return i < c.args.size() ? c.args[i] : nullptr; }

bool is_ws(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v'; }

std::string strip_chars(const std::string& s, const Ref& chars, bool left, bool right) {
  auto strip_this = [&](char ch) {
    if (!chars || is_none(chars)) return is_ws(ch);
    return as<StrObject>(chars).value.find(ch) != std::string::npos;
  };
  size_t begin = 0, end = s.size();
  if (left)
    while (begin < end && strip_this(s[begin])) ++begin;
  if (right)
    while (end > begin && strip_this(s[end - 1])) --end;
  return s.substr(begin, end - begin);
}

std::vector<Ref> split(const std::string& s, const Ref& sep_arg, int64_t maxsplit) {
  std::vector<Ref> out;
  if (!sep_arg || is_none(sep_arg)) {
    size_t i = 0;
    while (i < s.size()) {
      while (i < s.size() && is_ws(s[i])) ++i;
      if (i >= s.size()) break;
      if (maxsplit >= 0 && static_cast<int64_t>(out.size()) == maxsplit) {
        size_t end = s.size();
        while (end > i && is_ws(s[end - 1])) --end;
        out.push_back(py_str(s.substr(i, end - i)));
        return out;
      }
      size_t j = i;
      while (j < s.size() && !is_ws(s[j])) ++j;
      out.push_back(py_str(s.substr(i, j - i)));
      i = j;
    }
    return out;
  }
  const std::string& sep = to_str(sep_arg, "sep");
  if (sep.empty()) raise_error(ExcType::ValueError, "empty separator");
  size_t start = 0;
  while (maxsplit < 0 || static_cast<int64_t>(out.size()) < maxsplit) {
    size_t pos = s.find(sep, start);
    if (pos == std::string::npos) break;
    out.push_back(py_str(s.substr(start, pos - start)));
    start = pos + sep.size();
  }
  out.push_back(py_str(s.substr(start)));
  return out;
}

// str.rsplit: split from the right, so that maxsplit keeps the head whole.
std::vector<Ref> rsplit(const std::string& s, const Ref& sep_arg, int64_t maxsplit) {
  std::vector<Ref> out;
  bool whitespace = !sep_arg || is_none(sep_arg);
  std::string sep = whitespace ? "" : to_str(sep_arg, "sep");
  if (!whitespace && sep.empty()) raise_error(ExcType::ValueError, "empty separator");
  size_t end = s.size();
  while (true) {
    if (whitespace)
      while (end > 0 && is_ws(s[end - 1])) --end;
    if (whitespace && end == 0) break;
    if (maxsplit >= 0 && static_cast<int64_t>(out.size()) == maxsplit) {
      size_t begin = 0;
      if (whitespace)
        while (begin < end && is_ws(s[begin])) ++begin;
      out.push_back(py_str(s.substr(begin, end - begin)));
      break;
    }
    size_t pos;
    if (whitespace) {
      pos = end;
      while (pos > 0 && !is_ws(s[pos - 1])) --pos;
      out.push_back(py_str(s.substr(pos, end - pos)));
      end = pos;
      continue;
    }
    pos = end >= sep.size() ? s.rfind(sep, end - sep.size()) : std::string::npos;
    if (pos == std::string::npos) {
      out.push_back(py_str(s.substr(0, end)));
      break;
    }
    out.push_back(py_str(s.substr(pos + sep.size(), end - pos - sep.size())));
    end = pos;
  }
  std::reverse(out.begin(), out.end());
  return out;
}

// The byte offset of code point `index` (clamped; negative counts from the end) in s.
size_t byte_offset(const std::string& s, int64_t index) {
  int64_t length = static_cast<int64_t>(utf8_length(s));
  if (index < 0) index = std::max<int64_t>(index + length, 0);
  size_t pos = 0;
  for (int64_t seen = 0; pos < s.size(); ++pos)
    if ((static_cast<unsigned char>(s[pos]) & 0xC0) != 0x80 && seen++ == index) break;
  return pos;
}

// find/rfind/index/rindex: the code point index of sub in s[start:end], or -1.
int64_t find_substring(Interpreter& ip, const CallArgs& c, bool from_right) {
  const std::string& s = self_str(c);
  const std::string& sub = to_str(c.args.at(1), "find() argument");
  size_t begin = c.args.size() > 2 && !is_none(c.args[2]) ? byte_offset(s, to_index(ip, c.args[2])) : 0;
  size_t end = c.args.size() > 3 && !is_none(c.args[3]) ? byte_offset(s, to_index(ip, c.args[3])) : s.size();
  if (begin > end || end - begin < sub.size()) return -1;
  std::string_view window(s.data() + begin, end - begin);
  size_t pos = from_right ? window.rfind(sub) : window.find(sub);
  if (pos == std::string::npos) return -1;
  return static_cast<int64_t>(utf8_length(std::string_view(s.data(), begin + pos)));
}

// str.format: {} / {0} / {name}, attribute and index lookups, !r/!s, format specs.
std::string str_format(Interpreter& ip, const std::string& format, const CallArgs& c) {
  std::string out;
  size_t auto_index = 0;
  for (size_t i = 0; i < format.size(); ++i) {
    char ch = format[i];
    if (ch == '}') {
      if (i + 1 < format.size() && format[i + 1] == '}') ++i;
      else raise_error(ExcType::ValueError, "Single '}' encountered in format string");
      out += '}';
      continue;
    }
    if (ch != '{') {
      out += ch;
      continue;
    }
    if (i + 1 < format.size() && format[i + 1] == '{') {
      out += '{';
      ++i;
      continue;
    }
    size_t close = i + 1;
    int depth = 1;
    while (close < format.size() && depth) {
      if (format[close] == '{') ++depth;
      if (format[close] == '}') --depth;
      if (depth) ++close;
    }
    if (close >= format.size()) raise_error(ExcType::ValueError, "Single '{' encountered in format string");
    std::string field = format.substr(i + 1, close - i - 1);
    i = close;
    std::string spec;
    char conversion = 0;
    if (size_t colon = field.find(':'); colon != std::string::npos) {
      spec = field.substr(colon + 1);
      field = field.substr(0, colon);
    }
    if (size_t bang = field.find('!'); bang != std::string::npos) {
      conversion = bang + 1 < field.size() ? field[bang + 1] : 0;
      field = field.substr(0, bang);
    }
    size_t name_end = field.find_first_of(".[");
    std::string head = field.substr(0, name_end);
    Ref value;
    if (head.empty()) {
      if (auto_index >= c.args.size() - 1)
        raise_error(ExcType::IndexError, "Replacement index " + std::to_string(auto_index) + " out of range for positional args tuple");
      value = c.args[1 + auto_index++];
    } else if (std::all_of(head.begin(), head.end(), ::isdigit)) {
      size_t index = std::stoul(head);
      if (index >= c.args.size() - 1)
        raise_error(ExcType::IndexError, "Replacement index " + head + " out of range for positional args tuple");
      value = c.args[1 + index];
    } else {
      for (const auto& [k, v] : c.kwargs)
        if (k == head) value = v;
      if (!value) throw PyException(call(ip, builtin_type_ref(exception_type(ExcType::KeyError)), std::vector<Ref>{py_str(head)}));
    }
    for (size_t p = name_end; p != std::string::npos && p < field.size();) {
      if (field[p] == '.') {
        size_t end = field.find_first_of(".[", p + 1);
        value = getattr(ip, value, field.substr(p + 1, end == std::string::npos ? std::string::npos : end - p - 1));
        p = end;
      } else {
        size_t end = field.find(']', p);
        std::string key = field.substr(p + 1, end - p - 1);
        Ref k = std::all_of(key.begin(), key.end(), ::isdigit) && !key.empty() ? py_int(std::stoll(key)) : py_str(key);
        value = getitem(ip, value, k);
        p = end + 1;
      }
    }
    if (conversion == 'r') value = py_str(repr(ip, value));
    else if (conversion == 's') value = py_str(str(ip, value));
    if (spec.find('{') != std::string::npos) spec = str_format(ip, spec, c);
    out += format_value(ip, value, spec);
  }
  return out;
}

void method(const std::string& name, NativeFn fn) { add_method(builtin_types().str, name, std::move(fn)); }

}  // namespace

void install_str_methods() {
  method("join", [](Interpreter& ip, CallArgs& c) {
    std::string out;
    const std::string& sep = self_str(c);
    bool first = true;
    for (const auto& item : to_vector(ip, c.args.at(1))) {
      if (item->kind != ObjectKind::Str)
        raise_error(ExcType::TypeError, "sequence item: expected str instance, " + type_name(item) + " found");
      if (!first) out += sep;
      first = false;
      out += as<StrObject>(item).value;
    }
    return py_str(std::move(out));
  });
  method("split", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("split", c, {{"self"}, {"sep", false}, {"maxsplit", false}});
    return py_list(split(self_str(c), a[1], a[2] ? to_index(ip, a[2]) : -1));
  });
  method("rsplit", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("rsplit", c, {{"self"}, {"sep", false}, {"maxsplit", false}});
    return py_list(rsplit(self_str(c), a[1], a[2] ? to_index(ip, a[2]) : -1));
  });
  method("strip", [](Interpreter&, CallArgs& c) { return py_str(strip_chars(self_str(c), arg(c, 1), true, true)); });
  method("lstrip", [](Interpreter&, CallArgs& c) { return py_str(strip_chars(self_str(c), arg(c, 1), true, false)); });
  method("rstrip", [](Interpreter&, CallArgs& c) { return py_str(strip_chars(self_str(c), arg(c, 1), false, true)); });
  auto affix = [](bool prefix) {
    return [prefix](Interpreter& ip, CallArgs& c) {
      const std::string& whole = self_str(c);
      // start/end as in find: code-point offsets (negative from the end), clamped.
      size_t begin = c.args.size() > 2 && !is_none(c.args[2]) ? byte_offset(whole, to_index(ip, c.args[2])) : 0;
      size_t end = c.args.size() > 3 && !is_none(c.args[3]) ? byte_offset(whole, to_index(ip, c.args[3])) : whole.size();
      if (begin > end) return py_false();
      // CPython: a start past the end matches nothing, not even "".
      if (c.args.size() > 2 && !is_none(c.args[2]) && to_index(ip, c.args[2]) > static_cast<int64_t>(utf8_length(whole)))
        return py_false();
      std::string_view s(whole.data() + begin, end - begin);
      auto check = [&](const Ref& candidate) {
        const std::string& p = to_str(candidate, prefix ? "startswith first arg" : "endswith first arg");
        if (p.size() > s.size()) return false;
        return prefix ? s.compare(0, p.size(), p) == 0 : s.compare(s.size() - p.size(), p.size(), p) == 0;
      };
      const Ref& what = c.args.at(1);
      if (what->kind == ObjectKind::Tuple) {
        for (const auto& item : as<TupleObject>(what).items)
          if (check(item)) return py_true();
        return py_false();
      }
      return py_bool(check(what));
    };
  };
  method("startswith", affix(true));
  method("endswith", affix(false));
  method("replace", [](Interpreter& ip, CallArgs& c) {
    const std::string& s = self_str(c);
    const std::string& old = to_str(c.args.at(1), "replace() argument 1");
    const std::string& rep = to_str(c.args.at(2), "replace() argument 2");
    int64_t count = c.args.size() > 3 ? to_index(ip, c.args[3]) : -1;
    std::string out;
    size_t start = 0;
    int64_t done = 0;
    if (old.empty()) return py_str(s);
    while (count < 0 || done < count) {
      size_t pos = s.find(old, start);
      if (pos == std::string::npos) break;
      out += s.substr(start, pos - start) + rep;
      start = pos + old.size();
      ++done;
    }
    return py_str(out + s.substr(start));
  });
  method("format", [](Interpreter& ip, CallArgs& c) { return py_str(str_format(ip, self_str(c), c)); });
  method("upper", [](Interpreter&, CallArgs& c) {
    std::string s = self_str(c);
    std::transform(s.begin(), s.end(), s.begin(), ::toupper);
    return py_str(s);
  });
  method("lower", [](Interpreter&, CallArgs& c) {
    std::string s = self_str(c);
    std::transform(s.begin(), s.end(), s.begin(), ::tolower);
    return py_str(s);
  });
  method("capitalize", [](Interpreter&, CallArgs& c) {
    std::string s = self_str(c);
    std::transform(s.begin(), s.end(), s.begin(), ::tolower);
    if (!s.empty()) s[0] = static_cast<char>(toupper(s[0]));
    return py_str(s);
  });
  method("title", [](Interpreter&, CallArgs& c) {
    std::string s = self_str(c);
    bool after_letter = false;
    for (char& ch : s) {
      ch = static_cast<char>(after_letter ? tolower(ch) : toupper(ch));
      after_letter = isalpha(static_cast<unsigned char>(ch));
    }
    return py_str(s);
  });
  method("swapcase", [](Interpreter&, CallArgs& c) {
    std::string s = self_str(c);
    for (char& ch : s) ch = static_cast<char>(isupper(ch) ? tolower(ch) : toupper(ch));
    return py_str(s);
  });
  method("istitle", [](Interpreter&, CallArgs& c) {
    bool after_letter = false, cased = false;
    for (char ch : self_str(c)) {
      if (isupper(ch) && after_letter) return py_false();
      if (islower(ch) && !after_letter) return py_false();
      cased = cased || isalpha(ch);
      after_letter = isalpha(ch);
    }
    return py_bool(cased);
  });
  method("isidentifier", [](Interpreter&, CallArgs& c) {
    const std::string& s = self_str(c);
    auto word = [](char ch) { return isalnum(static_cast<unsigned char>(ch)) || ch == '_' || (ch & 0x80); };
    return py_bool(!s.empty() && !isdigit(s[0]) && std::all_of(s.begin(), s.end(), word));
  });
  method("expandtabs", [](Interpreter& ip, CallArgs& c) {
    int64_t tabsize = c.args.size() > 1 ? to_index(ip, c.args[1]) : 8;
    std::string out;
    int64_t column = 0;
    for (const std::string& ch : utf8_characters(self_str(c))) {
      if (ch == "\t") {
        int64_t spaces = tabsize > 0 ? tabsize - column % tabsize : 0;
        out.append(static_cast<size_t>(spaces), ' ');
        column += spaces;
        continue;
      }
      out += ch;
      column = ch == "\n" || ch == "\r" ? 0 : column + 1;
    }
    return py_str(out);
  });
  method("find", [](Interpreter& ip, CallArgs& c) { return py_int(find_substring(ip, c, false)); });
  method("rfind", [](Interpreter& ip, CallArgs& c) { return py_int(find_substring(ip, c, true)); });
  auto index = [](bool from_right) {
    return [from_right](Interpreter& ip, CallArgs& c) {
      int64_t pos = find_substring(ip, c, from_right);
      if (pos < 0) raise_error(ExcType::ValueError, "substring not found");
      return py_int(pos);
    };
  };
  method("index", index(false));
  method("rindex", index(true));
  method("count", [](Interpreter&, CallArgs& c) {
    const std::string& s = self_str(c);
    const std::string& sub = to_str(c.args.at(1), "count() argument");
    if (sub.empty()) return py_int(static_cast<int64_t>(utf8_length(s)) + 1);
    int64_t n = 0;
    for (size_t pos = s.find(sub); pos != std::string::npos; pos = s.find(sub, pos + sub.size())) ++n;
    return py_int(n);
  });
  auto all_chars = [](int (*predicate)(int)) {
    return [predicate](Interpreter&, CallArgs& c) {
      const std::string& s = self_str(c);
      return py_bool(!s.empty() && std::all_of(s.begin(), s.end(), [&](char ch) { return predicate(static_cast<unsigned char>(ch)); }));
    };
  };
  method("isdigit", all_chars(::isdigit));
  method("isalpha", all_chars(::isalpha));
  method("isalnum", all_chars(::isalnum));
  method("isspace", all_chars(::isspace));
  method("isupper", all_chars(::isupper));
  method("islower", all_chars(::islower));
  auto justify = [](char align) {
    return [align](Interpreter& ip, CallArgs& c) {
      int64_t width = to_index(ip, c.args.at(1));
      std::string fill = c.args.size() > 2 ? to_str(c.args[2], "fill character") : " ";
      return py_str(format_value(ip, c.args[0], fill + align + std::to_string(width)));
    };
  };
  method("ljust", justify('<'));
  method("rjust", justify('>'));
  method("center", justify('^'));
  method("zfill", [](Interpreter& ip, CallArgs& c) {
    std::string s = self_str(c);
    int64_t width = to_index(ip, c.args.at(1));
    std::string sign;
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
      sign = s.substr(0, 1);
      s = s.substr(1);
    }
    int64_t missing = width - static_cast<int64_t>(utf8_length(sign + s));
    return py_str(sign + std::string(static_cast<size_t>(std::max<int64_t>(missing, 0)), '0') + s);
  });
  method("splitlines", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("splitlines", c, {{"self"}, {"keepends", false}});
    const bool keepends = a[1] && truthy(ip, a[1]);
    std::vector<Ref> out;
    const std::string& s = self_str(c);
    size_t start = 0;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '\n' || s[i] == '\r') {
        const size_t line_end = i;
        if (s[i] == '\r' && i + 1 < s.size() && s[i + 1] == '\n') ++i;
        out.push_back(py_str(s.substr(start, (keepends ? i + 1 : line_end) - start)));
        start = i + 1;
      }
    }
    if (start < s.size()) out.push_back(py_str(s.substr(start)));
    return py_list(std::move(out));
  });
  method("partition", [](Interpreter&, CallArgs& c) {
    const std::string& s = self_str(c);
    const std::string& sep = to_str(c.args.at(1), "sep");
    size_t pos = s.find(sep);
    if (pos == std::string::npos) return py_tuple({py_str(s), py_str(""), py_str("")});
    return py_tuple({py_str(s.substr(0, pos)), py_str(sep), py_str(s.substr(pos + sep.size()))});
  });
  method("rpartition", [](Interpreter&, CallArgs& c) {
    const std::string& s = self_str(c);
    const std::string& sep = to_str(c.args.at(1), "sep");
    size_t pos = s.rfind(sep);
    if (pos == std::string::npos) return py_tuple({py_str(""), py_str(""), py_str(s)});
    return py_tuple({py_str(s.substr(0, pos)), py_str(sep), py_str(s.substr(pos + sep.size()))});
  });
  method("removeprefix", [](Interpreter&, CallArgs& c) {
    const std::string& s = self_str(c);
    const std::string& prefix = to_str(c.args.at(1), "removeprefix() argument");
    return py_str(s.rfind(prefix, 0) == 0 ? s.substr(prefix.size()) : s);
  });
  method("removesuffix", [](Interpreter&, CallArgs& c) {
    const std::string& s = self_str(c);
    const std::string& suffix = to_str(c.args.at(1), "removesuffix() argument");
    bool ends = !suffix.empty() && s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
    return py_str(ends ? s.substr(0, s.size() - suffix.size()) : s);
  });
  method("__len__", [](Interpreter&, CallArgs& c) { return py_int(static_cast<int64_t>(utf8_length(self_str(c)))); });
}

}  // namespace kiln::python
