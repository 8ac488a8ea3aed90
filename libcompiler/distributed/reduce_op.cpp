#include "libcompiler/distributed/reduce_op.h"

#include <algorithm>
#include <string>
#include <type_traits>

#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::distributed {

std::string_view reduce_op_name(ReduceOp op) {
  switch (op) {
#define KILN_REDUCE_OP(Name, Value) \
  case ReduceOp::Name:              \
    return #Name;
#include "libcompiler/distributed/reduce_op.def"
  }
  return "UNKNOWN";
}

std::optional<ReduceOp> reduce_op_from_value(int value) {
  switch (value) {
#define KILN_REDUCE_OP(Name, Value) \
  case Value:                       \
    return ReduceOp::Name;
#include "libcompiler/distributed/reduce_op.def"
  }
  return std::nullopt;
}

namespace {

// One element-wise loop per (type, operation); half types compute through float as Gloo's do.
template <typename T, typename Combine>
ReduceFunction elementwise(Combine combine) {
  return [combine](void* out, const void* a, const void* b, size_t n) {
    T* o = static_cast<T*>(out);
    const T* x = static_cast<const T*>(a);
    const T* y = static_cast<const T*>(b);
    for (size_t i = 0; i < n; ++i) o[i] = static_cast<T>(combine(x[i], y[i]));
  };
}

template <typename T>
ReduceFunction typed_reduce_function(ReduceOp op) {
  constexpr bool integral = std::is_integral_v<T>;
  switch (op) {
    case ReduceOp::SUM:
    case ReduceOp::AVG: return elementwise<T>([](T x, T y) { return x + y; });
    case ReduceOp::PRODUCT: return elementwise<T>([](T x, T y) { return x * y; });
    case ReduceOp::MIN: return elementwise<T>([](T x, T y) { return y < x ? y : x; });
    case ReduceOp::MAX: return elementwise<T>([](T x, T y) { return x < y ? y : x; });
    case ReduceOp::BAND:
    case ReduceOp::BOR:
    case ReduceOp::BXOR:
      if constexpr (integral) {
        if (op == ReduceOp::BAND) return elementwise<T>([](T x, T y) { return x & y; });
        if (op == ReduceOp::BOR) return elementwise<T>([](T x, T y) { return x | y; });
        return elementwise<T>([](T x, T y) { return x ^ y; });
      } else {
        tensor::throw_runtime_error("Cannot use ReduceOp." + std::string(reduce_op_name(op)) + " with non-integral dtype");
      }
    case ReduceOp::PREMUL_SUM:
    case ReduceOp::UNUSED: break;
  }
  tensor::throw_runtime_error("Cannot use ReduceOp." + std::string(reduce_op_name(op)) + " with Gloo");
}

}  // namespace

ReduceFunction reduce_function(ReduceOp op, tensor::DType dtype) {
  return tensor::visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return typed_reduce_function<T>(op);
  });
}

}  // namespace kiln::distributed
