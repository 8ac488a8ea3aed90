#include "libcompiler/ops/meta_functions.h"

#include "libcompiler/tensor/torch_error.h"
#include "libcompiler/tensor/type_promotion.h"

namespace kiln::ops {

using size_generic::check_arithmetic;
using size_generic::check_matrix_product;
using size_generic::check_same_dtype_for_mm;
using size_generic::dtype_word;
using size_generic::elementwise;
using size_generic::factory_device;
using size_generic::factory_dtype;
using size_generic::mat_shape;
using size_generic::optional_dims;
using size_generic::reduced_meta;
using size_generic::single;
using size_generic::sum_like_dtype;
using tensor::throw_runtime_error;

TensorMeta meta_of(const Tensor& t) { return TensorMeta{t.sizes(), t.strides(), t.dtype(), t.device()}; }

TensorMeta contiguous_meta(const Shape& sizes, DType dtype, const Device& device) {
  return size_generic::contiguous(sizes, dtype, device);
}

namespace {

tensor::PromotionOperand promotion_operand(const IValue& value) {
  if (value.is_tensor()) {
    const Tensor& t = value.to_tensor();
    if (t.is_wrapped_number()) return tensor::PromotionOperand::python_scalar(t.dtype());
    return tensor::PromotionOperand::tensor(t.dtype(), t.dim());
  }
  return tensor::PromotionOperand::python_scalar(value.to_scalar().dtype());
}

std::vector<TensorMeta> inplace_result(const Arguments& args, const std::vector<size_t>& operands,
                                       bool check_cast) {
  const Tensor& self = args.tensor(0);
  const auto e = elementwise(args, operands);
  if (e.sizes != self.sizes())
    throw_runtime_error("output with shape " + tensor::shape_str(self.sizes()) +
                        " doesn't match the broadcast shape " + tensor::shape_str(e.sizes));
  if (check_cast) {
    DType result = e.common;
    if (args.schema().name == "div_" && !tensor::is_floating_point(result)) result = tensor::default_float_dtype();
    const bool narrowing = (tensor::is_floating_point(result) && !tensor::is_floating_point(self.dtype())) ||
                           (result != DType::Bool && self.dtype() == DType::Bool);
    if (narrowing)
      throw_runtime_error("result type " + dtype_word(result) + " can't be cast to the desired output type " +
                          dtype_word(self.dtype()));
  }
  return {meta_of(self)};
}

std::string dtype_c_name(DType dtype) {
  switch (dtype) {
    case DType::Float32: return "float";
    case DType::Float64: return "double";
    case DType::Float16: return "c10::Half";
    case DType::BFloat16: return "c10::BFloat16";
    case DType::Int64: return "long int";
    case DType::Int32: return "int";
    default: return std::string(tensor::dtype_name(dtype));
  }
}

}  // namespace

namespace size_generic {

std::string dtype_word(DType dtype) { return std::string(tensor::scalar_type_name(dtype)); }

void check_same_dtype_for_mm(DType a, DType b) {
  if (a != b)
    throw_runtime_error("expected m1 and m2 to have the same dtype, but got: " + dtype_c_name(a) + " != " +
                        dtype_c_name(b));
}

DType sum_like_dtype(DType self, std::optional<DType> dtype) {
  if (dtype) return *dtype;
  return tensor::is_integral(self, /*include_bool=*/true) ? DType::Int64 : self;
}

}  // namespace size_generic

DType result_type(const std::vector<IValue>& operands) {
  tensor::ResultTypeState state;
  for (const IValue& v : operands) state.update(promotion_operand(v));
  return state.result();
}

std::vector<TensorMeta> meta_binary_arithmetic(const Arguments& args) { return size_generic::meta_binary_arithmetic(args); }

std::vector<TensorMeta> meta_binary_float(const Arguments& args) { return size_generic::meta_binary_float(args); }

std::vector<TensorMeta> meta_div_mode(const Arguments& args) { return size_generic::meta_div_mode(args); }

std::vector<TensorMeta> meta_comparison(const Arguments& args) { return size_generic::meta_comparison(args); }

std::vector<TensorMeta> meta_unary(const Arguments& args) { return size_generic::meta_unary(args); }

std::vector<TensorMeta> meta_unary_float(const Arguments& args) { return size_generic::meta_unary_float(args); }

std::vector<TensorMeta> meta_unary_predicate(const Arguments& args) { return size_generic::meta_unary_predicate(args); }

std::vector<TensorMeta> meta_where(const Arguments& args) { return size_generic::meta_where(args); }

std::vector<TensorMeta> meta_clamp(const Arguments& args) { return size_generic::meta_clamp(args); }

std::vector<TensorMeta> meta_clone(const Arguments& args) { return size_generic::meta_clone(args); }

std::vector<TensorMeta> meta_to_copy(const Arguments& args) { return size_generic::meta_to_copy(args); }

std::vector<TensorMeta> meta_inplace_unary(const Arguments& args) { return {meta_of(args.tensor(0))}; }

std::vector<TensorMeta> meta_inplace_binary(const Arguments& args) {
  const std::vector<TensorMeta> result = inplace_result(args, {0, 1}, /*check_cast=*/true);
  check_arithmetic(args, elementwise(args, {0, 1}).common);
  return result;
}

std::vector<TensorMeta> meta_inplace_binary_any_dtype(const Arguments& args) {
  return inplace_result(args, {0, 1}, /*check_cast=*/false);
}

std::vector<TensorMeta> meta_inplace_ternary(const Arguments& args) { return inplace_result(args, {0, 1, 2}, true); }

std::vector<TensorMeta> meta_sum(const Arguments& args) { return size_generic::meta_sum(args); }

std::vector<TensorMeta> meta_mean(const Arguments& args) { return size_generic::meta_mean(args); }

std::vector<TensorMeta> meta_prod(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  if (args.size() == 2) return {contiguous_meta({}, sum_like_dtype(self.dtype(), args.optional_dtype(1)), self.device())};
  const auto mask = reduction_mask({args.int_value(1)}, self.dim());
  return {reduced_meta(self, mask, args.bool_value(2), sum_like_dtype(self.dtype(), args.optional_dtype(3)))};
}

std::vector<TensorMeta> meta_amax_amin(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  const auto mask = reduction_mask(args.int_list(1), self.dim());
  for (int64_t d = 0; d < self.dim(); ++d)
    if (mask[d] && self.sizes()[d] == 0)
      tensor::throw_index_error(args.schema().name + "(): Expected reduction dim " + std::to_string(d) +
                                  " to have non-zero size.");
  return {reduced_meta(self, mask, args.bool_value(2), self.dtype())};
}

std::vector<TensorMeta> meta_full_max_min(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  if (self.numel() == 0)
    throw_runtime_error(args.schema().name +
                        "(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim "
                        "with the 'dim' argument.");
  return {contiguous_meta({}, self.dtype(), self.device())};
}

std::vector<TensorMeta> meta_max_min_dim(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  const int64_t dim = tensor::wrap_dim(args.int_value(1), self.dim());
  if (self.dim() > 0 && self.sizes()[dim] == 0)
    tensor::throw_index_error(args.schema().name + "(): Expected reduction dim " + std::to_string(dim) +
                              " to have non-zero size.");
  const auto mask = reduction_mask({dim}, self.dim());
  const bool keepdim = args.bool_value(2);
  return {reduced_meta(self, mask, keepdim, self.dtype()), reduced_meta(self, mask, keepdim, DType::Int64)};
}

std::vector<TensorMeta> meta_argmax(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  const auto dim = args.optional_int(1);
  if (!dim && self.numel() == 0)
    throw_runtime_error("argmax(): Expected reduction dim to be specified for input.numel() == 0.");
  const auto mask = reduction_mask(dim ? std::vector<int64_t>{*dim} : std::vector<int64_t>{}, self.dim());
  return {reduced_meta(self, mask, args.bool_value(2), DType::Int64)};
}

std::vector<TensorMeta> meta_var_std(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  if (!tensor::is_floating_point(self.dtype()))
    throw_runtime_error("std and var only support floating point and complex dtypes");
  const auto mask = reduction_mask(optional_dims(args, 1), self.dim());
  return {reduced_meta(self, mask, args.bool_value(3), self.dtype())};
}

std::vector<TensorMeta> meta_var_mean(const Arguments& args) {
  const TensorMeta reduced = meta_var_std(args).at(0);
  return {reduced, reduced};
}

std::vector<TensorMeta> meta_softmax(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  tensor::wrap_dim(args.int_value(1), self.dim());
  if (!tensor::is_floating_point(self.dtype()))
    throw_runtime_error("\"" + std::string(args.schema().name == "_softmax" ? "softmax" : "log_softmax") +
                        "_lastdim_kernel_impl\" not implemented for '" + dtype_word(self.dtype()) + "'");
  const bool half_to_float = args.bool_value(2);
  if (half_to_float && self.dtype() != DType::Float16 && self.dtype() != DType::BFloat16)
    throw_runtime_error("conversion is supported for Half type only");
  return {contiguous_meta(self.sizes(), half_to_float ? DType::Float32 : self.dtype(), self.device())};
}

std::vector<TensorMeta> meta_softmax_backward(const Arguments& args) {
  const Tensor& grad = args.tensor(0);
  return {contiguous_meta(grad.sizes(), args[3].to_dtype(), grad.device())};
}

std::vector<TensorMeta> meta_mm(const Arguments& args) { return size_generic::meta_mm(args); }

std::vector<TensorMeta> meta_mv(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  const Tensor& vec = args.tensor(1);
  if (self.dim() != 2 || vec.dim() != 1)
    throw_runtime_error("vector + matrix @ vector expected, got 1, " + std::to_string(self.dim()) + ", " +
                        std::to_string(vec.dim()));
  if (self.sizes()[1] != vec.sizes()[0])
    throw_runtime_error("size mismatch, got input (" + std::to_string(self.sizes()[0]) + "), mat (" + mat_shape(self) +
                        "), vec (" + std::to_string(vec.sizes()[0]) + ")");
  check_same_dtype_for_mm(self.dtype(), vec.dtype());
  return {contiguous_meta({self.sizes()[0]}, self.dtype(), self.device())};
}

std::vector<TensorMeta> meta_addmm(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  const Tensor& mat1 = args.tensor(1);
  const Tensor& mat2 = args.tensor(2);
  if (mat1.dim() != 2) throw_runtime_error("mat1 must be a matrix, got " + std::to_string(mat1.dim()) + "-D tensor");
  if (mat2.dim() != 2) throw_runtime_error("mat2 must be a matrix, got " + std::to_string(mat2.dim()) + "-D tensor");
  check_matrix_product(mat1, mat2);
  const Shape out{mat1.sizes()[0], mat2.sizes()[1]};
  if (broadcast_sizes(self.sizes(), out) != out)
    throw_runtime_error("The expanded size of the tensor (" + std::to_string(out.back()) +
                        ") must match the existing size (" + std::to_string(self.sizes().back()) +
                        ") at non-singleton dimension 1.  Target sizes: " + tensor::shape_str(out) +
                        ".  Tensor sizes: " + tensor::shape_str(self.sizes()));
  if (self.dtype() != mat1.dtype())
    throw_runtime_error("self and mat2 must have the same dtype, but got " + dtype_word(self.dtype()) + " and " +
                        dtype_word(mat1.dtype()));
  return {contiguous_meta(out, mat1.dtype(), mat1.device())};
}

std::vector<TensorMeta> meta_bmm(const Arguments& args) { return size_generic::meta_bmm(args); }

std::vector<TensorMeta> meta_dot(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  const Tensor& other = args.tensor(1);
  if (self.dim() != 1 || other.dim() != 1)
    throw_runtime_error("1D tensors expected, but got " + std::to_string(self.dim()) + "D and " +
                        std::to_string(other.dim()) + "D tensors");
  if (self.dtype() != other.dtype())
    throw_runtime_error("dot : expected both vectors to have same dtype, but found " + dtype_word(self.dtype()) +
                        " and " + dtype_word(other.dtype()));
  if (self.numel() != other.numel())
    throw_runtime_error("inconsistent tensor size, expected tensor [" + std::to_string(self.numel()) +
                        "] and src [" + std::to_string(other.numel()) +
                        "] to have the same number of elements, but got " + std::to_string(self.numel()) + " and " +
                        std::to_string(other.numel()) + " elements respectively");
  return {contiguous_meta({}, self.dtype(), self.device())};
}

std::vector<TensorMeta> meta_native_layer_norm(const Arguments& args) {
  const Tensor& input = args.tensor(0);
  const auto& normalized = args.int_list(1);
  const int64_t axis = input.dim() - static_cast<int64_t>(normalized.size());
  bool matches = axis >= 0 && !normalized.empty();
  for (size_t i = 0; matches && i < normalized.size(); ++i) matches = input.sizes()[axis + i] == normalized[i];
  if (!matches) {
    std::string expected = "[*";
    for (int64_t s : normalized) expected += ", " + std::to_string(s);
    throw_runtime_error("Given normalized_shape=" + tensor::shape_str(normalized) + ", expected input with shape " +
                        expected + "], but got input of size" + tensor::shape_str(input.sizes()));
  }
  for (size_t w : {size_t{2}, size_t{3}}) {
    const Tensor param = args.optional_tensor(w);
    if (param.defined() && param.sizes() != normalized)
      throw_runtime_error("Expected " + std::string(w == 2 ? "weight" : "bias") + " to be of same shape as "
                          "normalized_shape, but got " + (w == 2 ? "weight" : "bias") + " of shape " +
                          tensor::shape_str(param.sizes()) + " and normalized_shape = " +
                          tensor::shape_str(normalized));
  }
  Shape stat_sizes(input.sizes().begin(), input.sizes().begin() + axis);
  stat_sizes.resize(input.sizes().size(), 1);
  return {contiguous_meta(input.sizes(), input.dtype(), input.device()),
          contiguous_meta(stat_sizes, input.dtype(), input.device()),
          contiguous_meta(stat_sizes, input.dtype(), input.device())};
}

std::vector<TensorMeta> meta_nll_loss_forward(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  const Tensor& target = args.tensor(1);
  if (self.dim() < 1 || self.dim() > 2) throw_runtime_error("input tensor should be 1D or 2D");
  if (target.dim() > 1) throw_runtime_error("0D or 1D target tensor expected, multi-target not supported");
  const bool no_batch = self.dim() == 1 && target.dim() == 0;
  if (!no_batch && self.sizes()[0] != (target.dim() == 0 ? 1 : target.sizes()[0]))
    throw_runtime_error("Expected input batch_size (" + std::to_string(self.sizes()[0]) +
                        ") to match target batch_size (" + std::to_string(target.dim() ? target.sizes()[0] : 1) + ").");
  if (target.dtype() != DType::Int64 && target.dtype() != DType::UInt8)
    throw_runtime_error("expected scalar type Long but found " + dtype_word(target.dtype()));
  const Tensor weight = args.optional_tensor(2);
  const int64_t classes = self.sizes().back();
  if (weight.defined() && weight.numel() != classes)
    throw_runtime_error("weight tensor should be defined either for all " + std::to_string(classes) +
                        " classes or no classes but got weight tensor of shape: " + tensor::shape_str(weight.sizes()));
  const bool unreduced = args.int_value(3) == static_cast<int64_t>(Reduction::None) && self.dim() == 2;
  const Shape out = unreduced ? Shape{self.sizes()[0]} : Shape{};
  return {contiguous_meta(out, self.dtype(), self.device()), contiguous_meta({}, self.dtype(), self.device())};
}

std::vector<TensorMeta> meta_mse_loss(const Arguments& args) {
  const auto e = elementwise(args, {0, 1});
  if (args.int_value(2) == static_cast<int64_t>(Reduction::None)) return single(e, e.common);
  return {contiguous_meta({}, e.common, e.device)};
}

std::vector<TensorMeta> meta_cat(const Arguments& args) {
  const auto& tensors = args.tensor_list(0);
  if (tensors.empty()) throw_runtime_error("torch.cat(): expected a non-empty list of Tensors");
  // Legacy behaviour: 1-D empty tensors are skipped whatever the other shapes.
  const Tensor* reference = nullptr;
  for (const Tensor& t : tensors)
    if (!(t.dim() == 1 && t.numel() == 0)) {
      reference = &t;
      break;
    }
  std::vector<IValue> operands(tensors.begin(), tensors.end());
  const DType dtype = result_type(operands);
  if (!reference) return {contiguous_meta({0}, dtype, tensors[0].device())};
  if (reference->dim() == 0)
    throw_runtime_error("zero-dimensional tensor (at position " + std::to_string(reference - tensors.data()) +
                        ") cannot be concatenated");
  const int64_t dim = tensor::wrap_dim(args.int_value(1), reference->dim());
  Shape out = reference->sizes();
  out[dim] = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (t.dim() == 1 && t.numel() == 0) continue;
    if (t.dim() != reference->dim())
      throw_runtime_error("Tensors must have same number of dimensions: got " + std::to_string(reference->dim()) +
                          " and " + std::to_string(t.dim()));
    for (int64_t d = 0; d < t.dim(); ++d)
      if (d != dim && t.sizes()[d] != reference->sizes()[d])
        throw_runtime_error("Sizes of tensors must match except in dimension " + std::to_string(dim) +
                            ". Expected size " + std::to_string(reference->sizes()[d]) + " but got size " +
                            std::to_string(t.sizes()[d]) + " for tensor number " + std::to_string(i) +
                            " in the list.");
    out[dim] += t.sizes()[dim];
  }
  return {contiguous_meta(out, dtype, reference->device())};
}

std::vector<TensorMeta> meta_stack(const Arguments& args) {
  const auto& tensors = args.tensor_list(0);
  if (tensors.empty()) throw_runtime_error("stack expects a non-empty TensorList");
  for (size_t i = 1; i < tensors.size(); ++i)
    if (tensors[i].sizes() != tensors[0].sizes())
      throw_runtime_error("stack expects each tensor to be equal size, but got " +
                          tensor::shape_str(tensors[0].sizes()) + " at entry 0 and " +
                          tensor::shape_str(tensors[i].sizes()) + " at entry " + std::to_string(i));
  const int64_t dim = tensor::wrap_dim(args.int_value(1), tensors[0].dim() + 1);
  Shape out = tensors[0].sizes();
  out.insert(out.begin() + dim, static_cast<int64_t>(tensors.size()));
  std::vector<IValue> operands(tensors.begin(), tensors.end());
  return {contiguous_meta(out, result_type(operands), tensors[0].device())};
}

std::vector<TensorMeta> meta_index_select(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  const Tensor& index = args.tensor(2);
  if (index.dim() > 1) throw tensor::TorchError(tensor::PyErrorKind::IndexError, "index_select(): Index is supposed to be a vector");
  if (index.dtype() != DType::Int64 && index.dtype() != DType::Int32)
    throw_runtime_error("index_select(): Expected dtype int32 or int64 for index");
  const int64_t dim = tensor::wrap_dim(args.int_value(1), self.dim());
  Shape out = self.sizes();
  if (self.dim() > 0) out[dim] = index.numel();
  return {contiguous_meta(out, self.dtype(), self.device())};
}

std::vector<TensorMeta> meta_gather(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  const Tensor& index = args.tensor(2);
  if (index.dtype() != DType::Int64) throw_runtime_error("gather(): Expected dtype int64 for index");
  if (index.dim() != self.dim() && !(self.dim() <= 1 && index.dim() <= 1))
    throw_runtime_error("Index tensor must have the same number of dimensions as input tensor");
  const int64_t dim = tensor::wrap_dim(args.int_value(1), self.dim());
  for (int64_t d = 0; d < index.dim(); ++d)
    if (d != dim && index.sizes()[d] > self.sizes()[d])
      throw_runtime_error("Size does not match at dimension " + std::to_string(d) + " expected index " +
                          tensor::shape_str(index.sizes()) + " to be smaller than self " +
                          tensor::shape_str(self.sizes()) + " apart from dimension " + std::to_string(dim));
  return {contiguous_meta(index.sizes(), self.dtype(), self.device())};
}

std::vector<TensorMeta> meta_embedding(const Arguments& args) {
  const Tensor& weight = args.tensor(0);
  const Tensor& indices = args.tensor(1);
  if (weight.dim() != 2) throw_runtime_error("'weight' must be 2-D");
  if (indices.dtype() != DType::Int64 && indices.dtype() != DType::Int32)
    throw_runtime_error(
        "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got " +
        std::string("torch.") + dtype_word(indices.dtype()) + "Tensor instead (while checking arguments for embedding)");
  Shape out = indices.sizes();
  out.push_back(weight.sizes()[1]);
  return {contiguous_meta(out, weight.dtype(), weight.device())};
}

std::vector<TensorMeta> meta_factory(const Arguments& args) { return size_generic::meta_factory(args); }

std::vector<TensorMeta> meta_full(const Arguments& args) { return size_generic::meta_full(args); }

std::vector<TensorMeta> meta_scalar_tensor(const Arguments& args) {
  return {contiguous_meta({}, factory_dtype(args).value_or(tensor::default_float_dtype()), factory_device(args))};
}

std::vector<TensorMeta> meta_randint(const Arguments& args) { return size_generic::meta_randint(args); }

std::vector<TensorMeta> meta_like(const Arguments& args) {
  const Tensor& self = args.tensor(0);
  const auto e = elementwise(args, {0});
  return {TensorMeta{e.sizes, e.strides, factory_dtype(args).value_or(self.dtype()),
                     args.optional_device(args.schema().argument_index("device").value()).value_or(self.device())}};
}

}  // namespace kiln::ops
