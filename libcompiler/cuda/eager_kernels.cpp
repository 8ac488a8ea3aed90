#include "libcompiler/cuda/philox_random.h"
#include "libcompiler/cuda/eager_kernels.h"

#include "libcompiler/cuda/attention.h"
#include "libcompiler/cuda/cublas.h"
#include "libcompiler/cuda/indexing_ops.h"
#include "libcompiler/cuda/multi_tensor.h"
#include "libcompiler/cuda/pointwise.h"
#include "libcompiler/cuda/reduction.h"
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernel_registry.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/factories.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::cuda {

namespace {

using ops::Arguments;
using ops::OpId;
using ops::SchemaType;
using tensor::DType;
using tensor::Tensor;

bool is_host_scalar(const Tensor& t) { return t.device().type == tensor::DeviceType::CPU && t.dim() == 0; }

// The out-of-place result as the op's meta function lays it out, or an in-place op's self.
Tensor output_of(const ops::OpInfo& op, const Arguments& args) {
  const std::vector<ops::TensorMeta> metas = op.meta(args);
  return op.schema.is_inplace() ? args.tensor(0) : ops::allocate_outputs(metas)[0];
}

std::vector<Tensor> run_pointwise_op(const ops::OpInfo& op, const char* expression, const Arguments& args) {
  const Tensor out = output_of(op, args);
  std::vector<PointwiseInput> inputs;
  std::vector<PointwiseScalar> scalars;
  std::vector<ops::IValue> operands;
  for (size_t i = 0; i < op.schema.arguments.size(); ++i) {
    const ops::SchemaArgument& argument = op.schema.arguments[i];
    if (argument.type.is_list || args[i].is_none()) continue;
    switch (argument.type.base) {
      case SchemaType::Base::Tensor: {
        const Tensor& t = args.tensor(i);
        // A 0-dim host tensor joins device tensors as a number does.
        if (is_host_scalar(t)) scalars.push_back({argument.name, tensor::item(t)});
        else inputs.push_back({argument.name, t});
        if (argument.name != "condition" && argument.name != "mask") operands.push_back(args[i]);
        break;
      }
      case SchemaType::Base::Scalar:
      case SchemaType::Base::Int:
      case SchemaType::Base::Float:
      case SchemaType::Base::Bool:
        scalars.push_back({argument.name, args.scalar(i)});
        if (argument.name == "other" || argument.name == "exponent") operands.push_back(args[i]);
        break;
      default: break;
    }
  }
  // Comparisons compute in their operands' promoted dtype; everything else in its result's.
  const DType compute = out.dtype() == DType::Bool && !operands.empty() ? ops::result_type(operands) : out.dtype();
  run_pointwise(out, expression, compute, inputs, scalars);
  return {out};
}

template <OpId Id>
const char* pointwise_expression();
#define KILN_CUDA_POINTWISE(OpId_, expression) \
  template <>                                  \
  const char* pointwise_expression<OpId::OpId_>() { return expression; }
#include "libcompiler/cuda/pointwise_ops.def"

template <OpId Id>
std::vector<Tensor> pointwise_kernel(const Arguments& args) {
  return run_pointwise_op(ops::op_info(Id), pointwise_expression<Id>(), args);
}

// What a reduction accumulates in: float for the floating types below double (as ATen's CUDA
// kernels), int64 for integers and bools, the input's own dtype for amax/amin, bool for all/any
// (each element's truth: 0.5 is true).
DType accumulator(const Tensor& in, const Tensor& out, bool extremum) {
  if (extremum) return in.dtype();
  if (out.dtype() == DType::Bool) return DType::Bool;
  if (tensor::is_floating_point(out.dtype())) return out.dtype() == DType::Float64 ? DType::Float64 : DType::Float32;
  return DType::Int64;
}

template <OpId Id>
ReductionSpelling reduction_spelling();
#define KILN_CUDA_REDUCTION(OpId_, init, combine, finish) \
  template <>                                            \
  ReductionSpelling reduction_spelling<OpId::OpId_>() { return {init, combine, finish}; }
#include "libcompiler/cuda/reduction_ops.def"

template <OpId Id>
std::vector<Tensor> reduction_kernel(const Arguments& args) {
  const ops::OpInfo& op = ops::op_info(Id);
  const Tensor out = output_of(op, args);
  const Tensor& in = args.tensor(0);
  std::vector<int64_t> dims;
  if (const auto index = op.schema.argument_index("dim"))
    if (const auto listed = args.optional_int_list(*index)) dims = *listed;
  const bool extremum = Id == OpId::amax || Id == OpId::amin || Id == OpId::max || Id == OpId::min;
  run_reduction(out, in, dims, accumulator(in, out, extremum), reduction_spelling<Id>());
  return {out};
}

std::vector<Tensor> mm_kernel(const Arguments& args) {
  const Tensor out = output_of(ops::op_info(OpId::mm), args);
  gemm(out, args.tensor(0), args.tensor(1), 1.0, 0.0);
  return {out};
}

std::vector<Tensor> bmm_kernel(const Arguments& args) {
  const Tensor out = output_of(ops::op_info(OpId::bmm), args);
  gemm(out, args.tensor(0), args.tensor(1), 1.0, 0.0);
  return {out};
}

// out = beta * self + alpha * mat1 @ mat2: self broadcast into out first.
std::vector<Tensor> addmm_kernel(const Arguments& args) {
  const Tensor out = output_of(ops::op_info(OpId::addmm), args);
  const double beta = args.scalar(3).to<double>(), alpha = args.scalar(4).to<double>();
  const Tensor& self = args.tensor(0);
  if (beta == 1 && gemm_with_bias(out, args.tensor(1), args.tensor(2), self, alpha)) return {out};
  if (beta != 0) tensor::copy_elements(out, self);
  gemm(out, args.tensor(1), args.tensor(2), alpha, beta);
  return {out};
}

// arange(end), arange(start, end), arange(start, end, step): start + step * i in the result's
// compute type, as ATen's CUDA kernel computes it (`i` is the pointwise kernel's element position).
std::vector<Tensor> arange_kernel(const ops::OpInfo& op, const Arguments& args) {
  const Tensor out = output_of(op, args);
  const bool has_start = op.id != OpId::arange;
  const tensor::Scalar start = has_start ? args.scalar(0) : tensor::Scalar(int64_t{0});
  const tensor::Scalar step = op.id == OpId::arange_start_step ? args.scalar(2) : tensor::Scalar(int64_t{1});
  run_pointwise(out, "start + step * (C)i", out.dtype(), {}, {{"start", start}, {"step", step}});
  return {out};
}

template <OpId Id>
std::vector<Tensor> arange_kernel(const Arguments& args) {
  return arange_kernel(ops::op_info(Id), args);
}

std::vector<Tensor> amp_unscale_kernel(const Arguments& args) {
  amp_foreach_non_finite_check_and_unscale(args.tensor_list(0), args.tensor(1), args.tensor(2));
  return {};
}

}  // namespace

const char* pointwise_table_expression(OpId op) {
  switch (op) {
#define KILN_CUDA_POINTWISE(OpId_, expression) \
  case OpId::OpId_: return expression;
#include "libcompiler/cuda/pointwise_ops.def"
    default: return nullptr;
  }
}

void register_eager_kernels() {
  constexpr auto cuda = tensor::DeviceType::CUDA;
#define KILN_CUDA_POINTWISE(OpId_, expression) ops::register_kernel(OpId::OpId_, cuda, &pointwise_kernel<OpId::OpId_>);
#include "libcompiler/cuda/pointwise_ops.def"
#define KILN_CUDA_REDUCTION(OpId_, init, combine, finish) ops::register_kernel(OpId::OpId_, cuda, &reduction_kernel<OpId::OpId_>);
#include "libcompiler/cuda/reduction_ops.def"
#define KILN_CUDA_DEVICE_GENERIC(OpId_) ops::register_kernel(OpId::OpId_, cuda, ops::op_info(OpId::OpId_).cpu_kernel);
#include "libcompiler/cuda/device_generic_ops.def"
  ops::register_kernel(OpId::mm, cuda, &mm_kernel);
  ops::register_kernel(OpId::bmm, cuda, &bmm_kernel);
  ops::register_kernel(OpId::addmm, cuda, &addmm_kernel);
  ops::register_kernel(OpId::_amp_foreach_non_finite_check_and_unscale_, cuda, &amp_unscale_kernel);
  ops::register_kernel(OpId::_scaled_dot_product_efficient_attention, cuda, &efficient_attention_kernel);
  ops::register_kernel(OpId::_scaled_dot_product_efficient_attention_backward, cuda, &efficient_attention_backward_kernel);
  ops::register_kernel(OpId::randn, cuda, &randn_kernel);
  ops::register_kernel(OpId::randint_low, cuda, &randint_kernel);
  ops::register_kernel(OpId::arange, cuda, &arange_kernel<OpId::arange>);
  ops::register_kernel(OpId::arange_start, cuda, &arange_kernel<OpId::arange_start>);
  ops::register_kernel(OpId::arange_start_step, cuda, &arange_kernel<OpId::arange_start_step>);
  register_indexing_kernels();
  register_foreach_kernels();
}

}  // namespace kiln::cuda
