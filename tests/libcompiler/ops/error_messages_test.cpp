// A bad call raises PyTorch's message: one row per mistake, across op families. The expected texts
// are what torch 2.11 prints for the same call (the Python line is in each row's name).
#include <gtest/gtest.h>

#include <functional>

#include "libcompiler/ops/argument_binding.h"
#include "libcompiler/ops/dispatch.h"
#include "tests/libcompiler/ops/ops_test_support.h"

namespace kiln::ops {
namespace {

using tensor::ones;

struct BadCall {
  const char* python;
  std::function<void()> call;
  const char* message;
};

// None for a Tensor that is not optional: torch.* functions refuse it, op overloads (and graphs'
// calls of them) take it as an undefined tensor, as an AOT backward passes attn_bias.
TEST(ArgumentBinding, NoneBindsToATensorOnlyForOpOverloads) {
  const OpInfo& op = op_info(OpId::_scaled_dot_product_efficient_attention_backward);
  std::vector<IValue> positional(12);
  for (size_t i : {0, 1, 2, 3, 5, 6, 7, 8}) positional[i] = IValue(Tensor::empty({1}, DType::Float32));
  positional[9] = IValue(0.0);
  positional[10] = IValue(std::vector<bool>{true, true, true, false});
  positional[11] = IValue(false);
  EXPECT_EQ(test::error_of([&] { bind_arguments(op.schema, positional, {}); }),
            "_scaled_dot_product_efficient_attention_backward(): argument 'attn_bias' (position 5) must be Tensor, not NoneType");
  const Arguments args = bind_arguments(op.schema, positional, {}, NoneForTensor::Undefined);
  EXPECT_FALSE(args.optional_tensor(4).defined());
}

TEST(ErrorMessages, BadCallsRaisePyTorchsText) {
  const std::vector<BadCall> rows = {
      {"add(ones(2,3), ones(4))", [] { call(OpId::add_Tensor, {ones({2, 3}), ones({4})}); },
       "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"},
      {"mm(ones(2,3), ones(4,5))", [] { call(OpId::mm, {ones({2, 3}), ones({4, 5})}); },
       "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"},
      {"mm(ones(3), ones(3,5))", [] { call(OpId::mm, {ones({3}), ones({3, 5})}); }, "self must be a matrix"},
      {"bmm(ones(2,2,3), ones(2,4,5))", [] { call(OpId::bmm, {ones({2, 2, 3}), ones({2, 4, 5})}); },
       "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4]."},
      {"dot(ones(3), ones(4))", [] { call(OpId::dot, {ones({3}), ones({4})}); },
       "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of elements, but got 3 and "
       "4 elements respectively"},
      {"mv(ones(2,3), ones(4))", [] { call(OpId::mv, {ones({2, 3}), ones({4})}); },
       "size mismatch, got input (2), mat (2x3), vec (4)"},
      {"matmul(ones(2,2,3), ones(3,3,5))", [] { call(OpId::matmul, {ones({2, 2, 3}), ones({3, 3, 5})}); },
       "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"},
      {"index_select(ones(3), 0, zeros(2))", [] { call(OpId::index_select, {ones({3}), 0, ones({2})}); },
       "index_select(): Expected dtype int32 or int64 for index"},
      {"ones(2,3).sum(5)", [] { call(OpId::sum_dim_IntList, {ones({2, 3}), IValue::IntList{5}}); },
       "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
      {"ones(2,3).transpose(0, 3)", [] { call(OpId::transpose_int, {ones({2, 3}), 0, 3}); },
       "Dimension out of range (expected to be in range of [-2, 1], but got 3)"},
      {"cat([ones(2,3), ones(2,4)])", [] { call(OpId::cat, {IValue::TensorList{ones({2, 3}), ones({2, 4})}}); },
       "Sizes of tensors must match except in dimension 0. Expected size 3 but got size 4 for tensor number 1 in the "
       "list."},
      {"cat([ones(2,3), ones(3)])", [] { call(OpId::cat, {IValue::TensorList{ones({2, 3}), ones({3})}}); },
       "Tensors must have same number of dimensions: got 2 and 1"},
      {"stack([ones(2), ones(3)])", [] { call(OpId::stack, {IValue::TensorList{ones({2}), ones({3})}}); },
       "stack expects each tensor to be equal size, but got [2] at entry 0 and [3] at entry 1"},
      {"ones(2,3).view(4)", [] { call(OpId::view, {ones({2, 3}), IValue::IntList{4}}); },
       "shape '[4]' is invalid for input of size 6"},
      {"ones(4,3).t().view(12)", [] { call(OpId::view, {call_single(OpId::t, {ones({4, 3})}), IValue::IntList{12}}); },
       "view size is not compatible with input tensor's size and stride (at least one dimension spans across two "
       "contiguous subspaces). Use .reshape(...) instead."},
      {"ones(2,3).view(-1,-1)", [] { call(OpId::view, {ones({2, 3}), IValue::IntList{-1, -1}}); },
       "only one dimension can be inferred"},
      {"ones(3).expand(2)", [] { call(OpId::expand, {ones({3}), IValue::IntList{2}}); },
       "The expanded size of the tensor (2) must match the existing size (3) at non-singleton dimension 0.  Target "
       "sizes: [2].  Tensor sizes: [3]"},
      {"ones(2,3).permute(0)", [] { call(OpId::permute, {ones({2, 3}), IValue::IntList{0}}); },
       "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired "
       "ordering of dimensions i.e. input.dim() = 2 is not equal to len(dims) = 1"},
      {"ones(2,3).permute(0,0)", [] { call(OpId::permute, {ones({2, 3}), IValue::IntList{0, 0}}); },
       "permute(): duplicate dims are not allowed."},
      {"ones(3).select(0, 5)", [] { call(OpId::select_int, {ones({3}), 0, 5}); },
       "select(): index 5 out of range for tensor of size [3] at dimension 0"},
      {"ones(()).select(0,0)", [] { call(OpId::select_int, {ones({}), 0, 0}); },
       "select() cannot be applied to a 0-dim tensor."},
      {"ones(2,3).softmax(2)", [] { call(OpId::_softmax, {ones({2, 3}), 2, false}); },
       "Dimension out of range (expected to be in range of [-2, 1], but got 2)"},
      {"where(ones(2), ones(2), ones(2))", [] { call(OpId::where_self, {ones({2}), ones({2}), ones({2})}); },
       "where expected condition to be a boolean tensor, but got a tensor with dtype Float"},
      {"ones(2,dtype=bool) - ones(2,dtype=bool)",
       [] { call(OpId::sub_Tensor, {ones({2}, DType::Bool), ones({2}, DType::Bool)}); },
       "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` "
       "operator instead."},
      {"ones(2,dtype=long).add_(ones(2))", [] { call(OpId::add__Tensor, {ones({2}, DType::Int64), ones({2})}); },
       "result type Float can't be cast to the desired output type Long"},
      {"ones(2).add_(ones(3,2))", [] { call(OpId::add__Tensor, {ones({2}), ones({3, 2})}); },
       "output with shape [2] doesn't match the broadcast shape [3, 2]"},
      {"ones(2,dtype=long).mean()", [] { call(OpId::mean, {ones({2}, DType::Int64)}); },
       "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: "
       "Long"},
      {"layer_norm(ones(2,3), [4])",
       [] { call(OpId::native_layer_norm, {ones({2, 3}), IValue::IntList{4}, IValue(), IValue(), 1e-5}); },
       "Given normalized_shape=[4], expected input with shape [*, 4], but got input of size[2, 3]"},
      {"ones(0,3).amax(0)", [] { call(OpId::amax, {ones({0, 3}), IValue::IntList{0}}); },
       "amax(): Expected reduction dim 0 to have non-zero size."},
      {"ones(2,3).unsqueeze(4)", [] { call(OpId::unsqueeze, {ones({2, 3}), 4}); },
       "Dimension out of range (expected to be in range of [-3, 2], but got 4)"},
      {"aten.slice(ones(2,3), 1, 0, 2, 0)", [] { call(OpId::slice_Tensor, {ones({2, 3}), 1, 0, 2, 0}); },
       "slice step must be positive"},
      {"clamp(ones(2))", [] { call(OpId::clamp, {ones({2})}); },
       "torch.clamp: At least one of 'min' or 'max' must not be None"},
      {"ones(2,dtype=long).var()", [] { call(OpId::var_correction, {ones({2}, DType::Int64)}); },
       "std and var only support floating point and complex dtypes"},
      {"ones(2).bitwise_and(ones(2))", [] { call(OpId::bitwise_and_Tensor, {ones({2}), ones({2})}); },
       "\"bitwise_and_cpu\" not implemented for 'Float'"},
      {"arange(10, 0, 1)", [] { call(OpId::arange_start_step, {10, 0, 1}); },
       "upper bound and lower bound inconsistent with step sign"},
      {"arange(0, 10, 0)", [] { call(OpId::arange_start_step, {0, 10, 0}); }, "step must be nonzero"},
      {"linspace(0, 1, -1)", [] { call(OpId::linspace, {0, 1, -1}); }, "number of steps must be non-negative"},
  };
  for (const BadCall& row : rows) EXPECT_EQ(test::error_of(row.call), row.message) << row.python;
}

}  // namespace
}  // namespace kiln::ops
