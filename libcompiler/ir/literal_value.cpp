#include "libcompiler/ir/literal_value.h"

#include "libcompiler/ir/tensor_types.h"

namespace kiln::ir {

std::optional<ops::IValue> literalValue(const Argument& argument) {
  using ops::IValue;
  const auto& v = argument.value;
  if (std::holds_alternative<NoneValue>(v)) return IValue();
  if (const auto* b = std::get_if<bool>(&v)) return IValue(*b);
  if (const auto* i = std::get_if<int64_t>(&v)) return IValue(*i);
  if (const auto* d = std::get_if<double>(&v)) return IValue(*d);
  if (const auto* s = std::get_if<std::string>(&v)) return IValue(*s);
  if (const auto* d = std::get_if<Dtype>(&v)) {
    if (const auto dtype = tensorDtype(*d)) return IValue(*dtype);
    return std::nullopt;
  }
  if (const auto* d = std::get_if<Device>(&v)) return IValue(tensor::Device::parse(d->str()));
  if (const auto* g = std::get_if<GlobalName>(&v)) return IValue(g->qualifiedName);
  if (const auto* e = std::get_if<SymExpr>(&v))
    if (const auto constant = e->constant()) return IValue(*constant);
  return std::nullopt;
}

}  // namespace kiln::ir
