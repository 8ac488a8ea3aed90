#include "libcompiler/python/interp/format_spec.h"

#include <cmath>
#include <cstdio>

#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/interp/utf8_text.h"
#include "libcompiler/python/python_repr.h"

namespace kiln::python {
namespace {

struct Spec {
  std::string fill = " ";
  char align = 0;  // '<', '>', '^', '=' or 0 (the type's default)
  char sign = '-';
  bool alternate = false;
  int64_t width = -1;
  char grouping = 0;
  int64_t precision = -1;
  char type = 0;
};

Spec parse_spec(std::string_view text) {
  Spec spec;
  size_t i = 0;
  auto is_align = [](char c) { return c == '<' || c == '>' || c == '^' || c == '='; };
  // A fill character may be any code point followed by an align character.
  if (!text.empty()) {
    size_t first = 1;
    while (first < text.size() && (static_cast<unsigned char>(text[first]) & 0xC0) == 0x80) ++first;
    if (first < text.size() && is_align(text[first])) {
      spec.fill = std::string(text.substr(0, first));
      spec.align = text[first];
      i = first + 1;
    } else if (is_align(text[0])) {
      spec.align = text[0];
      i = 1;
    }
  }
  if (i < text.size() && (text[i] == '+' || text[i] == '-' || text[i] == ' ')) spec.sign = text[i++];
  if (i < text.size() && text[i] == '#') {
    spec.alternate = true;
    ++i;
  }
  if (i < text.size() && text[i] == '0') {
    if (!spec.align) {
      spec.fill.assign(1, '0');  // not = "0": GCC 12 warns falsely (-Wrestrict) on that
      spec.align = '=';
    }
    ++i;
  }
  auto digits = [&] {
    int64_t v = -1;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') v = (v < 0 ? 0 : v) * 10 + (text[i++] - '0');
    return v;
  };
  spec.width = digits();
  if (i < text.size() && (text[i] == ',' || text[i] == '_')) spec.grouping = text[i++];
  if (i < text.size() && text[i] == '.') {
    ++i;
    spec.precision = digits();
    if (spec.precision < 0) raise_error(ExcType::ValueError, "Format specifier missing precision");
  }
  if (i < text.size()) spec.type = text[i++];
  if (i < text.size()) raise_error(ExcType::ValueError, "Invalid format specifier '" + std::string(text) + "'");
  return spec;
}

std::string group_digits(const std::string& digits, char separator) {
  std::string out;
  int count = 0;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    if (count && count % 3 == 0) out.insert(out.begin(), separator);
    out.insert(out.begin(), *it);
    ++count;
  }
  return out;
}

// Pads `sign` + `body` to the width; '=' puts the padding between them.
std::string pad(const Spec& spec, const std::string& sign, const std::string& body, char default_align) {
  std::string text = sign + body;
  int64_t length = static_cast<int64_t>(utf8_length(text));
  if (spec.width <= length) return text;
  auto fill = [&](int64_t n) {
    std::string out;
    for (int64_t i = 0; i < n; ++i) out += spec.fill;
    return out;
  };
  int64_t missing = spec.width - length;
  switch (spec.align ? spec.align : default_align) {
    case '<': return text + fill(missing);
    case '^': return fill(missing / 2) + text + fill(missing - missing / 2);
    case '=': return sign + fill(missing) + body;
    default: return fill(missing) + text;
  }
}

std::string sign_of(bool negative, char sign) {
  if (negative) return "-";
  if (sign == '+') return "+";
  if (sign == ' ') return " ";
  return "";
}

std::string format_int(int64_t value, const Spec& spec) {
  bool negative = value < 0;
  uint64_t magnitude = negative ? uint64_t(0) - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  std::string digits, prefix;
  switch (spec.type) {
    case 0:
    case 'd':
    case 'n': digits = std::to_string(magnitude); break;
    case 'b':
      do {
        digits.insert(digits.begin(), char('0' + (magnitude & 1)));
        magnitude >>= 1;
      } while (magnitude);
      if (spec.alternate) prefix = "0b";
      break;
    case 'o':
    case 'x':
    case 'X': {
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, spec.type == 'o' ? "%lo" : spec.type == 'x' ? "%lx" : "%lX",
                    static_cast<unsigned long>(magnitude));
      digits = buffer;
      if (spec.alternate) prefix = spec.type == 'o' ? "0o" : spec.type == 'x' ? "0x" : "0X";
      break;
    }
    case 'c': {
      std::string out;
      out += static_cast<char>(value);
      return pad(spec, "", out, '<');
    }
    default:
      raise_error(ExcType::ValueError, std::string("Unknown format code '") + spec.type + "' for object of type 'int'");
  }
  if (spec.precision >= 0) raise_error(ExcType::ValueError, "Precision not allowed in integer format specifier");
  if (spec.grouping) digits = group_digits(digits, spec.grouping);
  return pad(spec, sign_of(negative, spec.sign) + prefix, digits, '>');
}

std::string c_format(double value, char type, int64_t precision) {
  char format[32];
  std::snprintf(format, sizeof format, "%%.%lld%c", static_cast<long long>(precision), type);
  char buffer[512];
  int n = std::snprintf(buffer, sizeof buffer, format, value);
  if (n >= static_cast<int>(sizeof buffer)) {
    std::string big(static_cast<size_t>(n) + 1, '\0');
    std::snprintf(big.data(), big.size(), format, value);
    big.resize(static_cast<size_t>(n));
    return big;
  }
  return std::string(buffer, static_cast<size_t>(n));
}

std::string format_float(double value, const Spec& spec) {
  bool negative = std::signbit(value) && !std::isnan(value);
  double magnitude = std::fabs(value);
  char type = spec.type;
  std::string body;
  bool upper = type == 'E' || type == 'F' || type == 'G';
  if (std::isnan(value) || std::isinf(value)) {
    body = std::isnan(value) ? "nan" : "inf";
    if (upper) body = std::isnan(value) ? "NAN" : "INF";
    if (type == '%') body += "%";
  } else {
    switch (type) {
      case 0:
        if (spec.precision < 0) {
          body = repr_float(magnitude);
        } else {
          body = c_format(magnitude, 'g', spec.precision == 0 ? 1 : spec.precision);
          if (body.find_first_of(".e") == std::string::npos) body += ".0";
        }
        break;
      case 'e':
      case 'E':
      case 'f':
      case 'F': body = c_format(magnitude, type, spec.precision < 0 ? 6 : spec.precision); break;
      case 'g':
      case 'G':
      case 'n': {
        int64_t p = spec.precision < 0 ? 6 : spec.precision == 0 ? 1 : spec.precision;
        body = c_format(magnitude, type == 'n' ? 'g' : type, p);
        if (spec.alternate && body.find('.') == std::string::npos) body += ".";
        break;
      }
      case '%': body = c_format(magnitude * 100, 'f', spec.precision < 0 ? 6 : spec.precision) + "%"; break;
      default:
        raise_error(ExcType::ValueError, std::string("Unknown format code '") + type + "' for object of type 'float'");
    }
    if (spec.grouping) {
      size_t end = body.find_first_of(".eE%");
      if (end == std::string::npos) end = body.size();
      body = group_digits(body.substr(0, end), spec.grouping) + body.substr(end);
    }
  }
  return pad(spec, sign_of(negative, spec.sign), body, '>');
}

}  // namespace

std::string format_value(Interpreter& interp, const Ref& value, std::string_view text) {
  if (value->kind == ObjectKind::Instance || value->kind == ObjectKind::Native) {
    if (Ref r = call_dunder(interp, value, "__format__", {py_str(std::string(text))})) return to_str(r, "__format__ result");
  }
  if (text.empty()) return str(interp, value);
  Spec spec = parse_spec(text);
  switch (value->kind) {
    case ObjectKind::Str: {
      if (spec.type && spec.type != 's')
        raise_error(ExcType::ValueError, std::string("Unknown format code '") + spec.type + "' for object of type 'str'");
      if (spec.align == '=') raise_error(ExcType::ValueError, "'=' alignment not allowed in string format specifier");
      std::string s = as<StrObject>(value).value;
      if (spec.precision >= 0) {
        auto chars = utf8_characters(s);
        if (static_cast<int64_t>(chars.size()) > spec.precision) {
          s.clear();
          for (int64_t i = 0; i < spec.precision; ++i) s += chars[static_cast<size_t>(i)];
        }
      }
      return pad(spec, "", s, '<');
    }
    case ObjectKind::Bool:
    case ObjectKind::Int: {
      int64_t v = value->kind == ObjectKind::Int ? as<IntObject>(value).value : as<BoolObject>(value).value;
      if (spec.type && std::string_view("eEfFgG%").find(spec.type) != std::string_view::npos)
        return format_float(static_cast<double>(v), spec);
      return format_int(v, spec);
    }
    case ObjectKind::Float: return format_float(as<FloatObject>(value).value, spec);
    default: break;
  }
  raise_error(ExcType::TypeError, "unsupported format string passed to " + type_name(value) + ".__format__");
}

}  // namespace kiln::python
