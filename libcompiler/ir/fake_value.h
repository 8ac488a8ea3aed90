#pragma once
// What a node produces at compile time, as FX keeps it in node.meta["val"]: the metadata of a
// fake tensor (dtype, symbolic sizes and strides, device), a symbolic scalar, or several tensors.
// Readable graphs print the first two as annotations: "f32[s77, 3][3, 1]cpu", "Sym(s77)".
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "libcompiler/ir/device.h"
#include "libcompiler/ir/dtype.h"
#include "libcompiler/ir/sym_expr.h"

namespace kiln::ir {

struct TensorMeta {
  Dtype dtype = Dtype::Float32;
  std::vector<SymExpr> sizes;
  std::vector<SymExpr> strides;
  Device device;
  bool requiresGrad = false;

  // Row-major strides of sizes.
  static std::vector<SymExpr> contiguousStrides(const std::vector<SymExpr>& sizes);
  // Whether a size or stride is not a constant.
  bool symbolic() const;
  friend bool operator==(const TensorMeta&, const TensorMeta&) = default;
};

// A SymInt/SymFloat/SymBool value: the expression it stands for.
struct SymScalar {
  SymExpr expr;
  friend bool operator==(const SymScalar&, const SymScalar&) = default;
};

// Several tensors (var_mean, split, a higher-order op): FX prints no annotation for these.
struct TensorTuple {
  std::vector<TensorMeta> elements;
  friend bool operator==(const TensorTuple&, const TensorTuple&) = default;
};

// An annotation this IR does not model, kept verbatim so that printing reproduces it.
struct OpaqueAnnotation {
  std::string text;
  friend bool operator==(const OpaqueAnnotation&, const OpaqueAnnotation&) = default;
};

using FakeValue = std::variant<std::monostate, TensorMeta, SymScalar, TensorTuple, OpaqueAnnotation>;

// The text between the quotes of a node's annotation, or nullopt when FX prints none; a tensor's
// strides and device are left out unless asked for ("f32[3, 3]" against "f32[3, 3][3, 1]cpu").
std::optional<std::string> annotationText(const FakeValue& value, bool withStrideAndDevice = true);
// The inverse: a tensor or Sym annotation, otherwise the text as an OpaqueAnnotation.
FakeValue parseAnnotation(std::string_view text);

}  // namespace kiln::ir
