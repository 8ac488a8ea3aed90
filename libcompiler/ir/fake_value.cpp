#include "libcompiler/ir/fake_value.h"

#include <stdexcept>

namespace kiln::ir {

bool TensorMeta::symbolic() const {
  for (const auto* exprs : {&sizes, &strides})
    for (const SymExpr& e : *exprs)
      if (!e.constant()) return true;
  return false;
}

std::vector<SymExpr> TensorMeta::contiguousStrides(const std::vector<SymExpr>& sizes) {
  std::vector<SymExpr> strides(sizes.size());
  SymExpr running = SymExpr::integer(1);
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = running;
    running = running * sizes[i];
  }
  return strides;
}

namespace {

std::string bracketed(const std::vector<SymExpr>& values) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + values[i].str();
  return s + "]";
}

// Parses "[e, e, ...]" at text[pos], splitting at commas outside parentheses.
std::optional<std::vector<SymExpr>> parseBracketed(std::string_view text, size_t& pos) {
  if (pos >= text.size() || text[pos] != '[') return std::nullopt;
  size_t close = pos + 1;
  int depth = 0;
  std::vector<std::string_view> parts;
  size_t start = pos + 1;
  for (; close < text.size(); ++close) {
    char c = text[close];
    if (c == '(') ++depth;
    else if (c == ')') --depth;
    else if (depth == 0 && (c == ',' || c == ']')) {
      parts.push_back(text.substr(start, close - start));
      start = close + 1;
      if (c == ']') break;
    }
  }
  if (close >= text.size()) return std::nullopt;
  std::vector<SymExpr> values;
  if (!(parts.size() == 1 && parts[0].empty())) {
    for (auto part : parts) {
      try {
        values.push_back(SymExpr::parse(part));
      } catch (const std::exception&) {
        return std::nullopt;
      }
    }
  }
  pos = close + 1;
  return values;
}

std::optional<TensorMeta> parseTensorAnnotation(std::string_view text) {
  size_t bracket = text.find('[');
  if (bracket == std::string_view::npos) return std::nullopt;
  auto dtype = dtypeFromShortName(text.substr(0, bracket));
  if (!dtype) return std::nullopt;
  size_t pos = bracket;
  auto sizes = parseBracketed(text, pos);
  if (!sizes) return std::nullopt;
  auto strides = parseBracketed(text, pos);
  if (!strides || strides->size() != sizes->size()) return std::nullopt;
  auto device = Device::try_parse(text.substr(pos));
  if (!device) return std::nullopt;
  return TensorMeta{*dtype, std::move(*sizes), std::move(*strides), std::move(*device), false};
}

}  // namespace

std::optional<std::string> annotationText(const FakeValue& value, bool withStrideAndDevice) {
  if (const auto* t = std::get_if<TensorMeta>(&value))
    return std::string(dtypeShortName(t->dtype)) + bracketed(t->sizes) +
           (withStrideAndDevice ? bracketed(t->strides) + t->device.str() : "");
  if (const auto* s = std::get_if<SymScalar>(&value)) return "Sym(" + s->expr.str() + ")";
  if (const auto* o = std::get_if<OpaqueAnnotation>(&value)) return o->text;
  return std::nullopt;
}

FakeValue parseAnnotation(std::string_view text) {
  if (auto tensor = parseTensorAnnotation(text)) return *tensor;
  if (text.size() > 5 && text.substr(0, 4) == "Sym(" && text.back() == ')') {
    try {
      return SymScalar{SymExpr::parse(text.substr(4, text.size() - 5))};
    } catch (const std::exception&) {
    }
  }
  return OpaqueAnnotation{std::string(text)};
}

}  // namespace kiln::ir
