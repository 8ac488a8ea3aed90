// Layer normalisation: native_layer_norm (output, mean, rstd per row), its backward kernel, and
// the layer_norm composite. Statistics accumulate in double, outputs round to the input dtype.
#include <cmath>

#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernels/elementwise.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/kernels/parallel.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/views.h"

namespace kiln::ops {

namespace {

// Rows x columns: the leading dims by the normalized dims.
std::pair<int64_t, int64_t> rows_and_columns(const Tensor& input, const std::vector<int64_t>& normalized) {
  const int64_t columns = tensor::numel_of(normalized);
  return {columns == 0 ? 0 : input.numel() / columns, columns};
}

void check_floating(const Tensor& input) {
  if (!tensor::is_floating_point(input.dtype()))
    tensor::throw_runtime_error("\"LayerNormKernelImpl\" not implemented for '" +
                                std::string(tensor::scalar_type_name(input.dtype())) + "'");
}

}  // namespace

std::vector<Tensor> kernel_native_layer_norm(const Arguments& args) {
  std::vector<Tensor> outputs = allocate_outputs(meta_native_layer_norm(args));
  const Tensor input = tensor::contiguous(args.tensor(0));
  check_floating(input);
  const auto [rows, columns] = rows_and_columns(input, args.int_list(1));
  const Tensor weight = args.optional_tensor(2), bias = args.optional_tensor(3);
  const Tensor w = weight.defined() ? tensor::contiguous(tensor::to_dtype(weight, input.dtype())) : Tensor();
  const Tensor b = bias.defined() ? tensor::contiguous(tensor::to_dtype(bias, input.dtype())) : Tensor();
  const double eps = args.float_value(4);
  tensor::visit_dtype(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* x = input.data_ptr<T>();
    const T* wp = w.defined() ? w.data_ptr<T>() : nullptr;
    const T* bp = b.defined() ? b.data_ptr<T>() : nullptr;
    T* out = outputs[0].data_ptr<T>();
    T* mean_out = outputs[1].data_ptr<T>();
    T* rstd_out = outputs[2].data_ptr<T>();
    parallel_for(0, rows, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(columns, 1)), [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) {
        const T* row = x + r * columns;
        double mean = 0, squares = 0;
        for (int64_t c = 0; c < columns; ++c) mean += static_cast<double>(row[c]);
        mean /= static_cast<double>(columns);
        for (int64_t c = 0; c < columns; ++c) {
          const double d = static_cast<double>(row[c]) - mean;
          squares += d * d;
        }
        const double rstd = 1.0 / std::sqrt(squares / static_cast<double>(columns) + eps);
        for (int64_t c = 0; c < columns; ++c) {
          double y = (static_cast<double>(row[c]) - mean) * rstd;
          if (wp) y *= static_cast<double>(wp[c]);
          if (bp) y += static_cast<double>(bp[c]);
          out[r * columns + c] = static_cast<T>(y);
        }
        mean_out[r] = static_cast<T>(mean);
        rstd_out[r] = static_cast<T>(rstd);
      }
    });
  });
  return outputs;
}

std::vector<Tensor> kernel_native_layer_norm_backward(const Arguments& args) {
  const Tensor grad = tensor::contiguous(args.tensor(0));
  const Tensor input = tensor::contiguous(args.tensor(1));
  const auto [rows, columns] = rows_and_columns(input, args.int_list(2));
  const Tensor mean = tensor::contiguous(args.tensor(3)), rstd = tensor::contiguous(args.tensor(4));
  const Tensor weight = args.optional_tensor(5);
  const auto& mask = args[7].to_bool_list();
  const Tensor w = weight.defined() ? tensor::contiguous(weight) : Tensor();
  Tensor grad_input = mask[0] ? Tensor::empty(input.sizes(), input.dtype()) : Tensor();
  Tensor grad_weight = mask[1] && weight.defined() ? Tensor::empty(weight.sizes(), weight.dtype()) : Tensor();
  Tensor grad_bias = mask[2] && args.optional_tensor(6).defined() ? Tensor::empty(weight.sizes(), weight.dtype()) : Tensor();
  tensor::visit_dtype(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* g = grad.data_ptr<T>();
    const T* x = input.data_ptr<T>();
    const T* m = mean.data_ptr<T>();
    const T* s = rstd.data_ptr<T>();
    const T* wp = w.defined() ? w.data_ptr<T>() : nullptr;
    std::vector<double> dweight(columns, 0.0), dbias(columns, 0.0);
    for (int64_t r = 0; r < rows; ++r) {
      const double mu = static_cast<double>(m[r]), rs = static_cast<double>(s[r]);
      double sum_g = 0, sum_g_xhat = 0;
      for (int64_t c = 0; c < columns; ++c) {
        const double gv = static_cast<double>(g[r * columns + c]);
        const double xhat = (static_cast<double>(x[r * columns + c]) - mu) * rs;
        const double gw = wp ? gv * static_cast<double>(wp[c]) : gv;
        sum_g += gw;
        sum_g_xhat += gw * xhat;
        dweight[c] += gv * xhat;
        dbias[c] += gv;
      }
      if (!grad_input.defined()) continue;
      T* gi = grad_input.data_ptr<T>() + r * columns;
      for (int64_t c = 0; c < columns; ++c) {
        const double gv = static_cast<double>(g[r * columns + c]);
        const double gw = wp ? gv * static_cast<double>(wp[c]) : gv;
        const double xhat = (static_cast<double>(x[r * columns + c]) - mu) * rs;
        gi[c] = static_cast<T>(rs * (gw - sum_g / columns - xhat * sum_g_xhat / columns));
      }
    }
    if (grad_weight.defined()) {
      T* gw = grad_weight.data_ptr<T>();
      for (int64_t c = 0; c < columns; ++c) gw[c] = static_cast<T>(dweight[c]);
    }
    if (grad_bias.defined()) {
      T* gb = grad_bias.data_ptr<T>();
      for (int64_t c = 0; c < columns; ++c) gb[c] = static_cast<T>(dbias[c]);
    }
  });
  return {grad_input, grad_weight, grad_bias};
}

std::vector<Tensor> kernel_layer_norm(const Arguments& args) {
  return {std::get<0>(native_layer_norm(args.tensor(0), args.int_list(1), args.optional_tensor(2),
                                        args.optional_tensor(3), args.float_value(4)))};
}

}  // namespace kiln::ops
