// rand, randn, randint and randint.low, multinomial, bernoulli.p and the in-place initialisers
// normal_, uniform_, exponential_ and bernoulli_, through the CPU generator
// (tensor/distributions.h, tensor/random_ops.h), so seeded values equal PyTorch's.
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/distributions.h"
#include "libcompiler/tensor/random_ops.h"

namespace kiln::ops {

namespace {

// distributions.h bumps the version of what it fills; filling a scratch tensor laid out as self
// (contiguous: the fills' fast paths key on it) leaves self to be bumped once, by the dispatcher.
template <typename Fill>
std::vector<Tensor> fill_in_place(const Tensor& self, const Fill& fill) {
  const Tensor scratch = Tensor::empty(self.sizes(), self.dtype());
  fill(scratch);
  tensor::copy_elements(self, scratch);
  return {self};
}

}  // namespace

std::vector<Tensor> kernel_randint(const Arguments& args) {
  const TensorMeta meta = meta_randint(args).at(0);
  const bool has_low = args.schema().overload == "low";
  const int64_t low = has_low ? args.int_value(0) : 0, high = args.int_value(has_low ? 1 : 0);
  return {tensor::randint(low, high, meta.sizes, meta.dtype)};
}

std::vector<Tensor> kernel_rand(const Arguments& args) {
  const TensorMeta meta = meta_factory(args).at(0);
  return {tensor::rand(meta.sizes, meta.dtype)};
}

std::vector<Tensor> kernel_randn(const Arguments& args) {
  const TensorMeta meta = meta_factory(args).at(0);
  return {tensor::randn(meta.sizes, meta.dtype)};
}

std::vector<Tensor> kernel_multinomial(const Arguments& args) {
  meta_multinomial(args);
  return {tensor::multinomial(args.tensor(0), args.int_value(1), args.bool_value(2))};
}

std::vector<Tensor> kernel_normal_(const Arguments& args) {
  return fill_in_place(args.tensor(0), [&](const Tensor& t) {
    tensor::normal_(t, args.float_value(1), args.float_value(2), tensor::default_cpu_generator());
  });
}

std::vector<Tensor> kernel_uniform_(const Arguments& args) {
  return fill_in_place(args.tensor(0), [&](const Tensor& t) {
    tensor::uniform_(t, args.float_value(1), args.float_value(2), tensor::default_cpu_generator());
  });
}

std::vector<Tensor> kernel_bernoulli_(const Arguments& args) {
  return fill_in_place(args.tensor(0), [&](const Tensor& t) {
    tensor::bernoulli_(t, args.float_value(1), tensor::default_cpu_generator());
  });
}

// Laid out as self (empty_like's preserve_format): the draws fill it in memory order, so a
// transposed self gets PyTorch's mask.
std::vector<Tensor> kernel_bernoulli_p(const Arguments& args) {
  const Tensor out = allocate_outputs(meta_clone(args))[0];
  tensor::bernoulli_(out, args.float_value(1), tensor::default_cpu_generator());
  return {out};
}

std::vector<Tensor> kernel_exponential_(const Arguments& args) {
  return fill_in_place(args.tensor(0), [&](const Tensor& t) {
    tensor::exponential_(t, args.float_value(1), tensor::default_cpu_generator());
  });
}

}  // namespace kiln::ops
