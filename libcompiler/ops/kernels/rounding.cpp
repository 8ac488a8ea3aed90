// round and round.decimals: half to even (std::nearbyint under the default rounding mode), as
// ATen rounds; with decimals, x * 10^d rounded and divided back (negative d divides first).
#include <cmath>

#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernels/elementwise.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::ops {

std::vector<Tensor> kernel_round(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  const int64_t decimals = args.schema().overload == "decimals" ? args.int_value(1) : 0;
  if (decimals != 0 && !tensor::is_floating_point(self.dtype()))
    tensor::throw_runtime_error("\"round_cpu\" not implemented for '" + std::string(tensor::scalar_type_name(self.dtype())) + "'");
  const Tensor out = args.schema().is_inplace() ? self : allocate_outputs(meta_unary(args))[0];
  tensor::visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    if constexpr (std::is_floating_point_v<C>) {
      const bool negative = decimals < 0;
      const C ten_pow = static_cast<C>(std::pow(C(10), static_cast<C>(negative ? -decimals : decimals)));
      unary_loop<T, T>(out, self, [=](C x) -> C {
        if (decimals == 0) return std::nearbyint(x);
        return negative ? std::nearbyint(x / ten_pow) * ten_pow : std::nearbyint(x * ten_pow) / ten_pow;
      });
    } else {
      unary_loop<T, T>(out, self, [](C x) -> C { return x; });  // integers are already round
    }
  });
  return {out};
}

}  // namespace kiln::ops
