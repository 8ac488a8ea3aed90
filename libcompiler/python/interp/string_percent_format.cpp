#include "libcompiler/python/interp/string_percent_format.h"

#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/format_spec.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/interp/utf8_text.h"

namespace kiln::python {

// Each conversion is rewritten as a format spec and handed to format_value, so numbers come out
// as format() writes them.
Ref percent_format(Interpreter& interp, const std::string& format, const Ref& values) {
  std::vector<Ref> args =
      values->kind == ObjectKind::Tuple ? as<TupleObject>(values).items : std::vector<Ref>{values};
  size_t next_arg = 0;
  std::string out;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      out += format[i];
      continue;
    }
    if (++i >= format.size()) raise_error(ExcType::ValueError, "incomplete format");
    if (format[i] == '%') {
      out += '%';
      continue;
    }
    Ref mapped;  // %(name)s takes its value from a mapping
    if (format[i] == '(') {
      if (values->kind != ObjectKind::Dict && values->kind != ObjectKind::Instance)
        raise_error(ExcType::TypeError, "format requires a mapping");
      size_t close = format.find(')', i);
      if (close == std::string::npos) raise_error(ExcType::ValueError, "incomplete format key");
      mapped = getitem(interp, values, py_str(format.substr(i + 1, close - i - 1)));
      i = close + 1;
    }
    std::string flags;
    while (i < format.size() && std::string_view("-+ #0").find(format[i]) != std::string_view::npos) flags += format[i++];
    std::string width, precision;
    while (i < format.size() && isdigit(static_cast<unsigned char>(format[i]))) width += format[i++];
    if (i < format.size() && format[i] == '.') {
      precision = ".";
      ++i;
      while (i < format.size() && isdigit(static_cast<unsigned char>(format[i]))) precision += format[i++];
      if (precision == ".") precision = ".0";
    }
    if (i >= format.size()) raise_error(ExcType::ValueError, "incomplete format");
    char conversion = format[i];
    if (!mapped && next_arg >= args.size()) raise_error(ExcType::TypeError, "not enough arguments for format string");
    Ref arg = mapped ? mapped : args[next_arg++];
    std::string spec;
    if (flags.find('-') != std::string::npos) spec += '<';
    if (flags.find('+') != std::string::npos) spec += '+';
    else if (flags.find(' ') != std::string::npos) spec += ' ';
    if (flags.find('#') != std::string::npos) spec += '#';
    if (flags.find('0') != std::string::npos && flags.find('-') == std::string::npos) spec += '0';
    spec += width;
    switch (conversion) {
      case 's': out += format_value(interp, py_str(str(interp, arg)), spec + precision); break;
      case 'r': out += format_value(interp, py_str(repr(interp, arg)), spec + precision); break;
      case 'd':
      case 'i': {
        bool integral = arg->kind == ObjectKind::Int || arg->kind == ObjectKind::Bool;
        bool real = integral || arg->kind == ObjectKind::Float || arg->kind == ObjectKind::Instance || arg->kind == ObjectKind::Native;
        if (!real) raise_error(ExcType::TypeError, std::string("%") + conversion + " format: a real number is required, not " + type_name(arg));
        Ref whole = integral ? py_int(to_index(interp, arg)) : py_int(static_cast<int64_t>(to_double(interp, arg)));
        out += format_value(interp, whole, spec);
        break;
      }
      case 'f':
      case 'F':
      case 'e':
      case 'E':
      case 'g':
      case 'G':
        out += format_value(interp, py_float(to_double(interp, arg)), spec + (precision.empty() ? ".6" : precision) + conversion);
        break;
      case 'x':
      case 'X':
      case 'o':
        if (arg->kind == ObjectKind::Float)
          raise_error(ExcType::TypeError, std::string("%") + conversion + " format: an integer is required, not float");
        out += format_value(interp, py_int(to_index(interp, arg)), spec + conversion);
        break;
      case 'c': {
        bool one_char = arg->kind == ObjectKind::Str && utf8_length(as<StrObject>(arg).value) == 1;
        if (!one_char && arg->kind != ObjectKind::Int && arg->kind != ObjectKind::Bool)
          raise_error(ExcType::TypeError, "%c requires int or char");
        Ref character = one_char ? arg : call(interp, interp.builtins().get("chr"), std::vector<Ref>{arg});
        out += format_value(interp, character, spec);
        break;
      }
      default:
        raise_error(ExcType::ValueError, std::string("unsupported format character '") + conversion + "'");
    }
  }
  if (next_arg < args.size() && values->kind == ObjectKind::Tuple)
    raise_error(ExcType::TypeError, "not all arguments converted during string formatting");
  return py_str(std::move(out));
}

}  // namespace kiln::python
