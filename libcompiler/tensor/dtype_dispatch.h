#pragma once
// Calls a generic lambda with the storage type of a runtime DType: the one switch over dtypes
// that kernels use instead of writing their own (AT_DISPATCH_* in PyTorch).
//
//   visit_dtype(t.dtype(), [&](auto tag) { using T = typename decltype(tag)::type; ... });
#include <utility>

#include "libcompiler/tensor/dtype.h"

namespace kiln::tensor {

template <typename T>
struct TypeTag {
  using type = T;
};

template <typename F>
decltype(auto) visit_dtype(DType dtype, F&& f) {
  switch (dtype) {
#define KILN_DTYPE(Enum, CppType, ItemSize, Name, ShortName, IsFloating, ScalarTypeName) \
  case DType::Enum:                                                      \
    return std::forward<F>(f)(TypeTag<CppType>{});
#include "libcompiler/tensor/dtype.def"
  }
  __builtin_unreachable();
}

}  // namespace kiln::tensor
