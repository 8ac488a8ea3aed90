#include "libcompiler/ops/schema.h"

#include <cctype>
#include <stdexcept>
#include <utility>

namespace kiln::ops {

namespace {

struct BaseTypeName {
  std::string_view text;
  SchemaType::Base base;
};

constexpr BaseTypeName kBaseTypes[] = {
    {"Tensor", SchemaType::Base::Tensor},         {"SymInt", SchemaType::Base::SymInt},
    {"int", SchemaType::Base::Int},               {"float", SchemaType::Base::Float},
    {"bool", SchemaType::Base::Bool},             {"str", SchemaType::Base::Str},
    {"ScalarType", SchemaType::Base::ScalarType}, {"Scalar", SchemaType::Base::Scalar},
    {"Layout", SchemaType::Base::Layout},         {"Device", SchemaType::Base::Device},
    {"MemoryFormat", SchemaType::Base::MemoryFormat}, {"Generator", SchemaType::Base::Generator},
};

std::string_view base_name(SchemaType::Base base) {
  for (const auto& entry : kBaseTypes)
    if (entry.base == base) return entry.text;
  return "?";
}

class SchemaParser {
 public:
  explicit SchemaParser(std::string_view text) : text_(text) {}

  FunctionSchema parse() {
    FunctionSchema schema;
    schema.name = identifier();
    if (text_.substr(pos_).starts_with("::")) {
      pos_ += 2;
      schema.ns = std::exchange(schema.name, identifier());
    }
    if (peek() == '.') {
      ++pos_;
      schema.overload = identifier();
    }
    expect('(');
    bool kwarg_only = false;
    while (skip_spaces(), peek() != ')') {
      if (!schema.arguments.empty() || kwarg_only) expect(',');
      skip_spaces();
      if (peek() == '*') {
        ++pos_;
        kwarg_only = true;
        continue;
      }
      SchemaArgument arg;
      arg.type = type();
      skip_spaces();
      arg.name = identifier();
      arg.kwarg_only = kwarg_only;
      skip_spaces();
      if (peek() == '=') {
        ++pos_;
        arg.default_text = default_text();
        arg.default_value = default_value(arg.type, arg.default_text);
      }
      schema.arguments.push_back(std::move(arg));
    }
    expect(')');
    skip_spaces();
    expect('-');
    expect('>');
    skip_spaces();
    if (peek() == '(') {
      ++pos_;
      while (skip_spaces(), peek() != ')') {
        if (!schema.returns.empty()) expect(',');
        schema.returns.push_back(one_return());
      }
      ++pos_;
    } else {
      schema.returns.push_back(one_return());
    }
    skip_spaces();
    if (pos_ != text_.size()) fail("trailing text");
    return schema;
  }

 private:
  SchemaReturn one_return() {
    skip_spaces();
    SchemaReturn ret;
    ret.type = type();
    skip_spaces();
    if (pos_ < text_.size() && (std::isalpha(static_cast<unsigned char>(peek())) || peek() == '_'))
      ret.name = identifier();
    return ret;
  }

  SchemaType type() {
    SchemaType t;
    const std::string name = identifier();
    bool known = false;
    for (const auto& entry : kBaseTypes)
      if (entry.text == name) {
        t.base = entry.base;
        known = true;
      }
    if (!known) fail("unknown type '" + name + "'");
    if (peek() == '(') {  // alias annotation: (a), (a!), (a -> *)
      ++pos_;
      const size_t close = text_.find(')', pos_);
      if (close == std::string_view::npos) fail("unclosed alias annotation");
      std::string annotation(text_.substr(pos_, close - pos_));
      pos_ = close + 1;
      if (annotation.ends_with("!")) {
        t.is_write = true;
        annotation.pop_back();
      }
      t.alias_set = annotation;
    }
    if (peek() == '[') {
      ++pos_;
      t.is_list = true;
      if (peek() != ']') t.list_size = number_literal();
      expect(']');
    }
    if (peek() == '?') {
      ++pos_;
      t.is_optional = true;
    }
    return t;
  }

  int64_t number_literal() {
    const size_t start = pos_;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    if (start == pos_) fail("expected a number");
    return std::stoll(std::string(text_.substr(start, pos_ - start)));
  }

  // The default up to the next top-level ',' or ')'.
  std::string default_text() {
    const size_t start = pos_;
    int depth = 0;
    char quote = 0;
    for (; pos_ < text_.size(); ++pos_) {
      const char c = text_[pos_];
      if (quote) {
        if (c == quote) quote = 0;
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '[') {
        ++depth;
      } else if (c == ']') {
        --depth;
      } else if (depth == 0 && (c == ',' || c == ')')) {
        break;
      }
    }
    return std::string(text_.substr(start, pos_ - start));
  }

  IValue default_value(const SchemaType& type, const std::string& text) {
    if (text == "None") return IValue();
    if (text == "True") return IValue(true);
    if (text == "False") return IValue(false);
    if (text == "Mean") return IValue(static_cast<int64_t>(Reduction::Mean));
    if (text == "Sum") return IValue(static_cast<int64_t>(Reduction::Sum));
    if (text.front() == '\'' || text.front() == '"') return IValue(text.substr(1, text.size() - 2));
    if (text.front() == '[') {
      std::vector<int64_t> ints;
      std::vector<bool> bools;
      size_t i = 1;
      while (i < text.size() - 1) {
        const size_t end = std::min(text.find(',', i), text.size() - 1);
        std::string item = text.substr(i, end - i);
        item.erase(0, item.find_first_not_of(' '));
        if (item == "True" || item == "False") bools.push_back(item == "True");
        else if (!item.empty()) ints.push_back(std::stoll(item));
        i = end + 1;
      }
      if (type.base == SchemaType::Base::Bool) return IValue(bools);
      return IValue(ints);
    }
    const bool is_float_text = text.find_first_of(".eE") != std::string::npos && !std::isalpha(text.front());
    if (std::isdigit(static_cast<unsigned char>(text.front())) || text.front() == '-') {
      if (is_float_text || type.base == SchemaType::Base::Float) return IValue(std::stod(text));
      const int64_t value = std::stoll(text);
      // int[2] stride=1: the number for every element, as an argument given so is bound.
      if (type.is_list && type.list_size) return IValue(std::vector<int64_t>(static_cast<size_t>(*type.list_size), value));
      return IValue(value);
    }
    // Enum names such as contiguous_format: memory formats and layouts are torch globals, passed
    // by their qualified names (torch.contiguous_format, as graphs print them).
    if (type.base == SchemaType::Base::MemoryFormat || type.base == SchemaType::Base::Layout) return IValue("torch." + text);
    return IValue(text);
  }

  std::string identifier() {
    const size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      ++pos_;
    if (start == pos_) fail("expected a name");
    return std::string(text_.substr(start, pos_ - start));
  }

  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void skip_spaces() {
    while (pos_ < text_.size() && text_[pos_] == ' ') ++pos_;
  }
  void expect(char c) {
    skip_spaces();
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument("schema parse error at column " + std::to_string(pos_) + ": " + what + " in `" +
                                std::string(text_) + "`");
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

std::string SchemaType::str() const {
  std::string out(base_name(base));
  // Appended piece by piece: `"[" + string` trips GCC 12's -Wrestrict false positive.
  if (!alias_set.empty()) {
    out += '(';
    out += alias_set;
    if (is_write) out += '!';
    out += ')';
  }
  if (is_list) {
    out += '[';
    if (list_size) out += std::to_string(*list_size);
    out += ']';
  }
  if (is_optional) out += "?";
  return out;
}

std::string FunctionSchema::namespaced_name() const { return ns == "aten" ? name : ns + "::" + name; }

std::string FunctionSchema::qualified_name() const {
  return overload.empty() ? namespaced_name() : namespaced_name() + "." + overload;
}

std::string FunctionSchema::str() const {
  std::string out = qualified_name() + "(";
  bool kwarg_marker_written = false;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const SchemaArgument& arg = arguments[i];
    if (i > 0) out += ", ";
    if (arg.kwarg_only && !kwarg_marker_written) {
      out += "*, ";
      kwarg_marker_written = true;
    }
    out += arg.type.str() + " " + arg.name;
    if (arg.default_value) out += "=" + arg.default_text;
  }
  out += ") -> ";
  auto return_text = [](const SchemaReturn& r) { return r.type.str() + (r.name.empty() ? "" : " " + r.name); };
  if (returns.size() == 1) return out + return_text(returns[0]);
  out += "(";
  for (size_t i = 0; i < returns.size(); ++i) out += (i ? ", " : "") + return_text(returns[i]);
  return out + ")";
}

bool FunctionSchema::is_inplace() const {
  return !arguments.empty() && arguments[0].type.is_write && !arguments[0].type.is_list;
}

std::optional<size_t> FunctionSchema::argument_index(std::string_view arg_name) const {
  for (size_t i = 0; i < arguments.size(); ++i)
    if (arguments[i].name == arg_name) return i;
  return std::nullopt;
}

FunctionSchema parse_schema(std::string_view text) { return SchemaParser(text).parse(); }

}  // namespace kiln::ops
