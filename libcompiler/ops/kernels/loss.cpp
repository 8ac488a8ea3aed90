// Losses: nll_loss_forward/backward over (N, C) or (C) inputs with class weights and
// ignore_index, mse_loss and its backward, and the nll_loss / cross_entropy_loss composites.
#include <cmath>

#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernels/elementwise.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/views.h"

namespace kiln::ops {

namespace {

Reduction reduction_of(int64_t value) { return static_cast<Reduction>(value); }

// The (N, C) view of a (C) input and the (N) view of a () target.
Tensor as_batch(const Tensor& t, int64_t dims) { return t.dim() < dims ? tensor::unsqueeze(t, 0) : t; }

}  // namespace

std::vector<Tensor> kernel_nll_loss_forward(const Arguments& args) {
  std::vector<Tensor> outputs = allocate_outputs(meta_nll_loss_forward(args));
  const Tensor self = tensor::contiguous(as_batch(args.tensor(0), 2));
  const Tensor target = tensor::contiguous(tensor::to_dtype(as_batch(args.tensor(1), 1), tensor::DType::Int64));
  const Tensor weight = args.optional_tensor(2);
  const Reduction reduction = reduction_of(args.int_value(3));
  const int64_t ignore_index = args.int_value(4);
  const int64_t batch = self.sizes()[0], classes = self.sizes()[1];
  tensor::visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (tensor::kIsFloatLike<T>) {
      const Tensor w = weight.defined() ? tensor::contiguous(tensor::to_dtype(weight, self.dtype())) : Tensor();
      const T* x = self.data_ptr<T>();
      const int64_t* t = target.data_ptr<int64_t>();
      double total = 0, total_weight = 0;
      T* out = outputs[0].data_ptr<T>();
      for (int64_t n = 0; n < batch; ++n) {
        const int64_t cls = t[n];
        double loss = 0;
        if (cls != ignore_index) {
          if (cls < 0 || cls >= classes)
            tensor::throw_index_error("Target " + std::to_string(cls) + " is out of bounds.");
          const double wv = w.defined() ? static_cast<double>(w.data_ptr<T>()[cls]) : 1.0;
          loss = -static_cast<double>(x[n * classes + cls]) * wv;
          total_weight += wv;
        }
        total += loss;
        if (reduction == Reduction::None && outputs[0].dim() == 1) out[n] = static_cast<T>(loss);
      }
      if (reduction == Reduction::None && outputs[0].dim() == 0) out[0] = static_cast<T>(total);
      if (reduction == Reduction::Sum) out[0] = static_cast<T>(total);
      if (reduction == Reduction::Mean) out[0] = static_cast<T>(total / total_weight);
      *outputs[1].data_ptr<T>() = static_cast<T>(reduction == Reduction::None ? 0.0 : total_weight);
    } else {
      tensor::throw_runtime_error("\"nll_loss_out_frame\" not implemented for '" +
                                  std::string(tensor::scalar_type_name(self.dtype())) + "'");
    }
  });
  return outputs;
}

std::vector<Tensor> kernel_nll_loss_backward(const Arguments& args) {
  const Tensor& input = args.tensor(1);
  const Tensor grad_input = tensor::zeros(input.sizes(), input.dtype());
  const Tensor grad_rows = as_batch(grad_input, 2);
  const Tensor grad_output = tensor::contiguous(args.tensor(0));
  const Tensor target = tensor::contiguous(tensor::to_dtype(as_batch(args.tensor(2), 1), tensor::DType::Int64));
  const Tensor weight = args.optional_tensor(3);
  const Reduction reduction = reduction_of(args.int_value(4));
  const int64_t ignore_index = args.int_value(5);
  const int64_t batch = grad_rows.sizes()[0], classes = grad_rows.sizes()[1];
  tensor::visit_dtype(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (tensor::kIsFloatLike<T>) {
      const Tensor w = weight.defined() ? tensor::contiguous(tensor::to_dtype(weight, input.dtype())) : Tensor();
      const double total_weight = tensor::item(args.tensor(6)).to<double>();
      const int64_t* t = target.data_ptr<int64_t>();
      const T* g = grad_output.data_ptr<T>();
      T* gi = grad_rows.data_ptr<T>();
      const bool per_sample = reduction == Reduction::None && grad_output.dim() == 1;
      for (int64_t n = 0; n < batch; ++n) {
        const int64_t cls = t[n];
        if (cls == ignore_index) continue;
        const double wv = w.defined() ? static_cast<double>(w.data_ptr<T>()[cls]) : 1.0;
        double value = -wv * static_cast<double>(per_sample ? g[n] : g[0]);
        if (reduction == Reduction::Mean) value /= total_weight;
        gi[n * classes + cls] = static_cast<T>(value);
      }
    }
  });
  return {grad_input};
}

namespace {

// ATen's nll_loss_nd: inputs of more than two dims (N, C, d1, ...) with targets (N, d1, ...) are
// rows of C classes, one per position; per-position losses come back in the target's shape.
Tensor nll_loss_nd(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
                   int64_t ignore_index) {
  if (self.dim() <= 2) return std::get<0>(nll_loss_forward(self, target, weight, reduction, ignore_index));
  if (self.dim() == 4 && target.dim() != 3)  // ATen's nll_loss2d
    tensor::throw_runtime_error("only batches of spatial targets supported (3D tensors) but got targets of dimension: " +
                                std::to_string(target.dim()));
  tensor::Shape expected = {self.size(0)};
  for (int64_t d = 2; d < self.dim(); ++d) expected.push_back(self.size(d));
  if (target.sizes() != expected) {
    auto listed = [](const tensor::Shape& sizes) {
      std::string text = "[";
      for (size_t i = 0; i < sizes.size(); ++i) text += (i ? ", " : "") + std::to_string(sizes[i]);
      return text + "]";
    };
    tensor::throw_runtime_error("Expected target size " + listed(expected) + ", got " + listed(target.sizes()));
  }
  std::vector<int64_t> classes_last = {0};
  for (int64_t d = 2; d < self.dim(); ++d) classes_last.push_back(d);
  classes_last.push_back(1);
  const Tensor rows = ops::reshape(ops::permute(self, classes_last), {-1, self.size(1)});
  const Tensor flat_target = ops::reshape(target, {-1});
  const Tensor loss = std::get<0>(nll_loss_forward(rows, flat_target, weight, reduction, ignore_index));
  if (reduction != static_cast<int64_t>(Reduction::None)) return loss;
  return ops::reshape(loss, target.sizes());
}

}  // namespace

std::vector<Tensor> kernel_nll_loss(const Arguments& args) {
  return {nll_loss_nd(args.tensor(0), args.tensor(1), args.optional_tensor(2), args.int_value(3), args.int_value(4))};
}

std::vector<Tensor> kernel_cross_entropy_loss(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  const Tensor& target = args.tensor(1);
  const Tensor weight = args.optional_tensor(2);
  const int64_t reduction = args.int_value(3), ignore_index = args.int_value(4);
  const double label_smoothing = args.float_value(5);
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  const Tensor log_probabilities = log_softmax(self, class_dim);
  const Tensor nll = nll_loss_nd(log_probabilities, target, weight, reduction, ignore_index);
  if (label_smoothing <= 0.0) return {nll};
  if (weight.defined())
    tensor::throw_runtime_error("cross_entropy: label_smoothing with class weights is not supported by Kiln yet");
  // ATen: (1 - s) * nll + s / C * (sum over classes of -log p), ignored targets contributing 0.
  const Tensor ignored = eq(target, Scalar(ignore_index));
  const Tensor smooth = where(ignored, ops::zeros({}, self.dtype()), neg(sum(log_probabilities, {class_dim})));
  Tensor reduced = smooth;
  if (reduction == static_cast<int64_t>(Reduction::Sum)) reduced = sum(smooth);
  if (reduction == static_cast<int64_t>(Reduction::Mean))
    reduced = div(sum(smooth), sum(logical_not(ignored), std::optional<DType>(self.dtype())));
  const double classes = static_cast<double>(self.sizes()[class_dim]);
  return {add(mul(nll, 1.0 - label_smoothing), mul(reduced, label_smoothing / classes))};
}

// ATen's composite: the pointwise divergence target * (log target - input) (xlogy keeps 0 log 0 at
// 0), or exp(target) * (target - input) for a log-space target, then the reduction.
std::vector<Tensor> kernel_kl_div(const Arguments& args) {
  const Tensor& input = args.tensor(0);
  const Tensor& target = args.tensor(1);
  const Tensor pointwise = args.bool_value(3) ? ops::mul(ops::exp(target), ops::sub(target, input))
                                              : ops::sub(ops::xlogy(target, target), ops::mul(target, input));
  switch (reduction_of(args.int_value(2))) {
    case Reduction::Mean: return {ops::mean(pointwise)};
    case Reduction::Sum: return {ops::sum(pointwise)};
    case Reduction::None: break;
  }
  return {pointwise};
}

std::vector<Tensor> kernel_mse_loss(const Arguments& args) {
  const Tensor out = allocate_outputs(meta_mse_loss(args))[0];
  const Reduction reduction = reduction_of(args.int_value(2));
  const DType dtype = out.dtype();
  const Shape shape = broadcast_sizes(args.tensor(0).sizes(), args.tensor(1).sizes());
  const Tensor squares = reduction == Reduction::None ? out : Tensor::empty(shape, dtype);
  const Tensor a = operand_as(args[0], dtype), b = operand_as(args[1], dtype);
  tensor::visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    binary_loop<T, T>(squares, a, b, [](C x, C y) -> C { return static_cast<C>((x - y) * (x - y)); });
    if (reduction == Reduction::None) return;
    double total = 0;
    const T* s = squares.data_ptr<T>();
    for (int64_t i = 0; i < squares.numel(); ++i) total += static_cast<double>(s[i]);
    if (reduction == Reduction::Mean) total /= static_cast<double>(squares.numel());
    *out.data_ptr<T>() = static_cast<T>(total);
  });
  return {out};
}

std::vector<Tensor> kernel_mse_loss_backward(const Arguments& args) {
  const Tensor& self = args.tensor(1);
  const Tensor& target = args.tensor(2);
  const Shape shape = broadcast_sizes(self.sizes(), target.sizes());
  const double norm = reduction_of(args.int_value(3)) == Reduction::Mean ? 2.0 / tensor::numel_of(shape) : 2.0;
  const Tensor out = Tensor::empty(shape, self.dtype());
  const Tensor grad = tensor::to_dtype(args.tensor(0), self.dtype());
  const Tensor t = tensor::to_dtype(target, self.dtype());
  tensor::visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    const C scale = static_cast<C>(norm);
    ternary_loop<T, T, T>(out, self, t, grad, [scale](C x, C y, C g) -> C { return static_cast<C>(scale * (x - y) * g); });
  });
  return {out};
}

}  // namespace kiln::ops
