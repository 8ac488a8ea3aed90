#include "libcompiler/ops/argument_binding.h"

#include <algorithm>
#include <optional>
#include <variant>

#include <boost/container/small_vector.hpp>

#include "libcompiler/tensor/factories.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::ops {

namespace {

using tensor::PyErrorKind;
using tensor::TorchError;

[[noreturn]] void type_error(const std::string& message) { throw TorchError(PyErrorKind::TypeError, message); }

// Ops whose Tensor parameters also take Python numbers (PyTorch's should_allow_numbers_as_tensors),
// so `torch.add(x, 2)` binds add.Tensor with a wrapped number and records AddBackward0.
constexpr std::string_view kNumbersAsTensors[] = {"add", "add_", "sub", "sub_", "rsub", "mul", "mul_",
                                                  "div", "div_", "remainder", "floor_divide", "eq", "ne",
                                                  "lt", "le", "gt", "ge", "maximum", "minimum", "where",
                                                  "logical_and", "logical_or", "logical_xor"};

bool allows_numbers_as_tensors(const std::string& name) {
  return std::find(std::begin(kNumbersAsTensors), std::end(kNumbersAsTensors), name) != std::end(kNumbersAsTensors);
}

std::string python_name(const SchemaArgument& arg) { return arg.name == "self" ? "input" : arg.name; }

std::string python_type(const SchemaType& type) {
  using Base = SchemaType::Base;
  if (type.is_list) {
    if (type.base == Base::Tensor) return "tuple of Tensors";
    if (type.base == Base::Bool) return "tuple of bools";
    return "tuple of ints";
  }
  switch (type.base) {
    case Base::Tensor: return "Tensor";
    case Base::Int: return "int";
    case Base::SymInt: return "SymInt";
    case Base::Float: return "float";
    case Base::Bool: return "bool";
    case Base::Str: return "str";
    case Base::Scalar: return "Number";
    case Base::ScalarType: return "torch.dtype";
    case Base::Layout: return "torch.layout";
    case Base::Device: return "torch.device";
    case Base::MemoryFormat: return "torch.memory_format";
    case Base::Generator: return "torch.Generator";
  }
  return "?";
}

// The value as the parameter's type, or nullopt when the Python parser would reject it.
// `op_name` is looked up in kNumbersAsTensors only when a number meets a Tensor parameter: the
// name comparisons would cost more than binding a call of tensors.
std::optional<IValue> convert(const SchemaType& type, const IValue& value, const std::string& op_name, NoneForTensor none) {
  using Base = SchemaType::Base;
  if (value.is_none()) {
    const bool undefined_tensor = none == NoneForTensor::Undefined && type.base == Base::Tensor && !type.is_list;
    return type.is_optional || undefined_tensor ? std::optional<IValue>(value) : std::nullopt;
  }
  if (type.is_list) {
    if (type.base == Base::Tensor) return value.is_tensor_list() ? std::optional<IValue>(value) : std::nullopt;
    if (type.base == Base::Bool) return value.is_bool_list() ? std::optional<IValue>(value) : std::nullopt;
    if (value.is_int_list()) return value;
    if (value.is_int() && type.list_size)
      return IValue(std::vector<int64_t>(static_cast<size_t>(*type.list_size), value.to_int()));
    return std::nullopt;
  }
  switch (type.base) {
    case Base::Tensor:
      if (value.is_tensor()) return value;
      if (value.is_number() && allows_numbers_as_tensors(op_name)) return IValue(tensor::wrapped_number(value.to_scalar()));
      return std::nullopt;
    case Base::Int:
    case Base::SymInt:
      return value.is_int() ? std::optional<IValue>(value) : std::nullopt;
    case Base::Float:
      return value.is_number() ? std::optional<IValue>(IValue(value.to_double())) : std::nullopt;
    case Base::Bool:
      return value.is_bool() ? std::optional<IValue>(value) : std::nullopt;
    case Base::Scalar:
      return value.is_number() ? std::optional<IValue>(value) : std::nullopt;
    case Base::Str:
      return value.is_string() ? std::optional<IValue>(value) : std::nullopt;
    case Base::ScalarType:
      return value.is_dtype() ? std::optional<IValue>(value) : std::nullopt;
    case Base::Device:
      if (value.is_device()) return value;
      if (value.is_string()) return IValue(tensor::Device::parse(value.to_string()));
      return std::nullopt;
    case Base::Layout:
    case Base::MemoryFormat:
    case Base::Generator:
      return value.is_string() ? std::optional<IValue>(value) : std::nullopt;
  }
  return std::nullopt;
}

// Why a binding failed: a wrong type (positions marked for the combined message) or anything else.
struct BindFailure {
  std::string message;
  bool type_mismatch;
  std::vector<bool> mismatched_positions;
};

// Appends rather than `"\"" + name`, which GCC 12 misreports under -Wrestrict.
std::string quoted(const std::string& name) {
  std::string out(1, '"');
  out += name;
  out += '"';
  return out;
}

BindFailure failure(std::string message) { return BindFailure{std::move(message), false, {}}; }

std::variant<Arguments, BindFailure> try_bind(const FunctionSchema& schema, const std::vector<IValue>& positional,
                                              const std::vector<KeywordArgument>& keywords,
                                              NoneForTensor none = NoneForTensor::Refused) {
  const std::string& name = schema.name;
  const auto& params = schema.arguments;
  size_t max_positional = 0;
  while (max_positional < params.size() && !params[max_positional].kwarg_only) ++max_positional;
  if (positional.size() > max_positional) {
    const bool plural = max_positional != 1;
    return failure(name + "() takes " + std::to_string(max_positional) + " positional argument" +
                       (plural ? "s" : "") + " but " + std::to_string(positional.size()) + " " +
                       (positional.size() == 1 ? "was" : "were") + " given");
  }
  // Values land in place; which are bound is kept on the stack for the argument counts of most
  // ops (binding runs on every op call).
  std::vector<IValue> values(params.size());
  boost::container::small_vector<bool, 16> bound(params.size(), false);
  BindFailure mismatch{"", true, {}};  // positions marked only once one mismatches (binding is per call)
  for (size_t i = 0; i < positional.size(); ++i) {
    auto converted = convert(params[i].type, positional[i], name, none);
    if (!converted) {
      if (mismatch.message.empty())
        mismatch.message = name + "(): argument '" + python_name(params[i]) + "' (position " + std::to_string(i + 1) +
                           ") must be " + python_type(params[i].type) + ", not " + positional[i].python_type_name();
      mismatch.mismatched_positions.resize(positional.size());
      mismatch.mismatched_positions[i] = true;
      continue;
    }
    values[i] = std::move(*converted);
    bound[i] = true;
  }
  for (const KeywordArgument& kw : keywords) {
    const auto it = std::find_if(params.begin(), params.end(),
                                 [&](const SchemaArgument& a) { return python_name(a) == kw.name || a.name == kw.name; });
    if (it == params.end()) return failure(name + "() got an unexpected keyword argument '" + kw.name + "'");
    const size_t index = static_cast<size_t>(it - params.begin());
    if (index < positional.size()) return failure(name + "() got multiple values for argument '" + kw.name + "'");
    auto converted = convert(it->type, kw.value, name, none);
    if (!converted) {
      if (mismatch.message.empty())
        mismatch.message = name + "(): argument '" + python_name(*it) + "' must be " + python_type(it->type) +
                           ", not " + kw.value.python_type_name();
      continue;
    }
    values[index] = std::move(*converted);
    bound[index] = true;
  }
  if (!mismatch.message.empty()) {
    mismatch.mismatched_positions.resize(positional.size());
    return mismatch;
  }
  std::vector<std::string> missing;
  for (size_t i = 0; i < params.size(); ++i) {
    if (bound[i]) continue;
    if (params[i].default_value) values[i] = *params[i].default_value;
    else missing.push_back(quoted(python_name(params[i])));
  }
  if (!missing.empty()) {
    std::string list;
    for (size_t i = 0; i < missing.size(); ++i) list += (i ? ", " : "") + missing[i];
    // PyTorch's parser writes "argument" + "s" exactly when one is missing; kept for fidelity.
    return failure(name + "() missing " + std::to_string(missing.size()) + " required positional argument" +
                       (missing.size() == 1 ? "s" : "") + ": " + list);
  }
  return Arguments(schema, std::move(values));
}

}  // namespace

std::string python_signature(const FunctionSchema& schema) {
  std::string out;
  bool star_written = false;
  for (size_t i = 0; i < schema.arguments.size(); ++i) {
    const SchemaArgument& arg = schema.arguments[i];
    if (i) out += ", ";
    if (arg.kwarg_only && !star_written) {
      out += "*, ";
      star_written = true;
    }
    out += python_type(arg.type) + " " + python_name(arg);
    if (arg.default_value) out += " = " + arg.default_text;
  }
  return out;
}

Arguments bind_arguments(const FunctionSchema& schema, const std::vector<IValue>& positional,
                         const std::vector<KeywordArgument>& keywords, NoneForTensor none) {
  auto result = try_bind(schema, positional, keywords, none);
  if (auto* failure = std::get_if<BindFailure>(&result)) type_error(failure->message);
  return std::get<Arguments>(std::move(result));
}

std::pair<const OpInfo*, Arguments> resolve_overload(std::string_view name, const std::vector<IValue>& positional,
                                                     const std::vector<KeywordArgument>& keywords) {
  const std::vector<const OpInfo*>& candidates = overloads_of(name);
  if (candidates.empty()) type_error("no operator named '" + std::string(name) + "'");
  return resolve_overload(name, candidates, positional, keywords);
}

std::pair<const OpInfo*, Arguments> resolve_overload(std::string_view name, const std::vector<const OpInfo*>& candidates,
                                                     const std::vector<IValue>& positional,
                                                     const std::vector<KeywordArgument>& keywords) {
  std::vector<BindFailure> failures;
  for (const OpInfo* op : candidates) {
    auto result = try_bind(op->schema, positional, keywords);
    if (auto* args = std::get_if<Arguments>(&result)) return {op, std::move(*args)};
    failures.push_back(std::get<BindFailure>(std::move(result)));
  }
  if (candidates.size() == 1) type_error(failures[0].message);
  std::string got;
  for (const IValue& v : positional) got += (got.empty() ? "" : ", ") + v.python_type_name();
  for (const KeywordArgument& kw : keywords) got += (got.empty() ? "" : ", ") + kw.name + "=" + kw.value.python_type_name();
  std::string message = std::string(name) + "() received an invalid combination of arguments - got (" + got +
                        "), but expected one of:\n";
  for (size_t c = 0; c < candidates.size(); ++c) {
    message += " * (" + python_signature(candidates[c]->schema) + ")\n";
    if (!failures[c].type_mismatch) continue;
    std::string marked;
    for (size_t i = 0; i < positional.size(); ++i) {
      const std::string type = positional[i].python_type_name();
      marked += (i ? ", " : "") + (failures[c].mismatched_positions[i] ? "!" + type + "!" : type);
    }
    message += "      didn't match because some of the arguments have invalid types: (" + marked + ")\n";
  }
  message.pop_back();
  type_error(message);
}

}  // namespace kiln::ops
