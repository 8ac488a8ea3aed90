// Meta functions that eager CPU calls never run must still describe what the kernels return: on
// int64 sizes their sizes, strides, dtype and device are compared with the kernels' outputs. These
// are the size-generic metas of views and composites (ops.def keeps nullptr in their meta column,
// so dispatch runs their kernels even on meta tensors) and the metas of kernels that compute their
// own output shape (backward ops, eye).
#include <gtest/gtest.h>

#include <tuple>

#include "libcompiler/ops/argument_binding.h"
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/views.h"
#include "tests/libcompiler/ops/ops_test_support.h"

namespace kiln::ops {
namespace {

using MetaFunction = std::vector<TensorMeta> (*)(const Arguments&);

void expect_meta_matches_kernel(OpId id, MetaFunction meta, const std::vector<IValue>& positional) {
  const OpInfo& op = op_info(id);
  const Arguments args = bind_arguments(op.schema, positional, {});
  // The meta first: squeeze_ changes its argument's geometry.
  const std::vector<TensorMeta> metas = meta(args);
  const std::vector<Tensor> outputs = call(op, args);
  ASSERT_EQ(metas.size(), outputs.size()) << op.qualified_name();
  for (size_t i = 0; i < metas.size(); ++i) {
    EXPECT_EQ(metas[i].sizes, outputs[i].sizes()) << op.qualified_name();
    EXPECT_EQ(metas[i].strides, outputs[i].strides()) << op.qualified_name();
    EXPECT_EQ(metas[i].dtype, outputs[i].dtype()) << op.qualified_name();
    EXPECT_EQ(metas[i].device, outputs[i].device()) << op.qualified_name();
  }
}

// Ranges 0..n-1 of the given sizes.
Tensor counting(const Shape& sizes, DType dtype = DType::Float32) {
  std::vector<double> data(static_cast<size_t>(tensor::numel_of(sizes)));
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<double>(i % 5);
  return test::values(data, sizes, dtype);
}

TEST(ViewMetaFunctions, AgreeWithTheViewKernels) {
  const Tensor x = counting({3, 4});
  const Tensor transposed = tensor::transpose(counting({4, 3}), 0, 1);  // [3, 4] with strides [1, 3]
  const Tensor empty = counting({0, 4});
  const auto view = &size_generic::meta_view<Arguments>;
  expect_meta_matches_kernel(OpId::view, view, {x, IValue::IntList{4, 3}});
  expect_meta_matches_kernel(OpId::view, view, {x, IValue::IntList{2, -1, 2}});
  expect_meta_matches_kernel(OpId::view, view, {x, IValue::IntList{12, 1}});
  expect_meta_matches_kernel(OpId::view, view, {empty, IValue::IntList{4, -1}});
  expect_meta_matches_kernel(OpId::view, view, {transposed, IValue::IntList{3, 2, 2}});
  expect_meta_matches_kernel(OpId::_unsafe_view, view, {x, IValue::IntList{-1}});
  const auto reshape = &size_generic::meta_reshape<Arguments>;
  expect_meta_matches_kernel(OpId::reshape, reshape, {x, IValue::IntList{6, 2}});
  expect_meta_matches_kernel(OpId::reshape, reshape, {transposed, IValue::IntList{-1}});
  expect_meta_matches_kernel(OpId::contiguous, &size_generic::meta_contiguous<Arguments>, {transposed});
  expect_meta_matches_kernel(OpId::contiguous, &size_generic::meta_contiguous<Arguments>, {x});
  expect_meta_matches_kernel(OpId::permute, &size_generic::meta_permute<Arguments>, {x, IValue::IntList{1, 0}});
  expect_meta_matches_kernel(OpId::transpose_int, &size_generic::meta_transpose<Arguments>, {x, int64_t{-1}, int64_t{0}});
  expect_meta_matches_kernel(OpId::t, &size_generic::meta_t<Arguments>, {x});
  expect_meta_matches_kernel(OpId::t, &size_generic::meta_t<Arguments>, {counting({5})});
  expect_meta_matches_kernel(OpId::unsqueeze, &size_generic::meta_unsqueeze<Arguments>, {x, int64_t{1}});
  expect_meta_matches_kernel(OpId::unsqueeze, &size_generic::meta_unsqueeze<Arguments>, {transposed, int64_t{-1}});
  expect_meta_matches_kernel(OpId::squeeze_dim, &size_generic::meta_squeeze_dim<Arguments>, {counting({3, 1}), int64_t{1}});
  expect_meta_matches_kernel(OpId::squeeze_dim, &size_generic::meta_squeeze_dim<Arguments>, {x, int64_t{0}});
  expect_meta_matches_kernel(OpId::expand, &size_generic::meta_expand<Arguments>,
                             {counting({3, 1}), IValue::IntList{2, -1, 4}});
  const auto slice = &size_generic::meta_slice<Arguments>;
  expect_meta_matches_kernel(OpId::slice_Tensor, slice, {x, int64_t{1}, int64_t{1}, int64_t{4}, int64_t{2}});
  expect_meta_matches_kernel(OpId::slice_Tensor, slice, {x, int64_t{0}, int64_t{-2}, IValue(), int64_t{1}});
  expect_meta_matches_kernel(OpId::slice_Tensor, slice, {x, int64_t{0}, int64_t{5}, int64_t{9}, int64_t{1}});
  expect_meta_matches_kernel(OpId::select_int, &size_generic::meta_select<Arguments>, {x, int64_t{1}, int64_t{-1}});
  expect_meta_matches_kernel(OpId::squeeze__dim, &size_generic::meta_squeeze_dim<Arguments>,
                             {counting({3, 1}), int64_t{1}});
  const auto split = &size_generic::meta_split<Arguments>;
  expect_meta_matches_kernel(OpId::split_Tensor, split, {x, int64_t{3}, int64_t{1}});
  expect_meta_matches_kernel(OpId::split_Tensor, split, {transposed, int64_t{2}, int64_t{0}});
  expect_meta_matches_kernel(OpId::split_Tensor, split, {empty, int64_t{0}, int64_t{0}});
  expect_meta_matches_kernel(OpId::chunk, &size_generic::meta_chunk<Arguments>, {x, int64_t{3}, int64_t{1}});
  expect_meta_matches_kernel(OpId::chunk, &size_generic::meta_chunk<Arguments>, {counting({5, 2}), int64_t{2}, int64_t{0}});
  expect_meta_matches_kernel(OpId::detach, &size_generic::meta_alias<Arguments>, {transposed});
  expect_meta_matches_kernel(OpId::slice_backward, &size_generic::meta_view_backward<Arguments>,
                             {counting({3, 2}), IValue::IntList{3, 4}, int64_t{1}, int64_t{0}, int64_t{4}, int64_t{2}});
  expect_meta_matches_kernel(OpId::select_backward, &size_generic::meta_view_backward<Arguments>,
                             {counting({3}), IValue::IntList{3, 4}, int64_t{1}, int64_t{2}});
}

TEST(ViewMetaFunctions, AgreeWithTheCompositeKernels) {
  const Tensor x = counting({3, 4});
  const Tensor transposed = tensor::transpose(counting({4, 3}), 0, 1);
  expect_meta_matches_kernel(OpId::softmax_int, &size_generic::meta_softmax_composite<Arguments>,
                             {transposed, int64_t{1}, IValue()});
  expect_meta_matches_kernel(OpId::log_softmax_int, &size_generic::meta_softmax_composite<Arguments>,
                             {x, int64_t{0}, IValue(DType::Float64)});
  expect_meta_matches_kernel(OpId::layer_norm, &size_generic::meta_layer_norm<Arguments>,
                             {x, IValue::IntList{4}, counting({4}), counting({4})});
  expect_meta_matches_kernel(OpId::nll_loss, &size_generic::meta_nll_loss<Arguments>,
                             {x, counting({3}, DType::Int64)});
  const auto dropout = &size_generic::meta_dropout<Arguments>;
  expect_meta_matches_kernel(OpId::dropout, dropout, {transposed, 0.5, true});
  expect_meta_matches_kernel(OpId::dropout, dropout, {transposed, 0.5, false});
  expect_meta_matches_kernel(OpId::dropout, dropout, {x, 1.0, true});
}

TEST(ViewMetaFunctions, MatmulAndLinearAgreeWithTheirKernels) {
  const auto matmul = &size_generic::meta_matmul<Arguments>;
  const Tensor batched = counting({2, 3, 4});
  // dot, mv, vector-matrix, mm, folded mm and mv, transposed fold, broadcast bmm.
  const std::vector<std::pair<Tensor, Tensor>> pairs = {
      {counting({4}), counting({4})},       {counting({3, 4}), counting({4})},
      {counting({4}), counting({4, 5})},    {counting({3, 4}), counting({4, 5})},
      {batched, counting({4, 5})},          {batched, counting({4})},
      {counting({3}), tensor::transpose(counting({2, 5, 3}), 1, 2)},
      {tensor::transpose(counting({2, 4, 3}), 1, 2), counting({4, 5})},
      {counting({3, 4}), counting({2, 4, 5})}, {counting({1, 3, 4}), counting({2, 1, 4, 5})}};
  for (const auto& [a, b] : pairs) expect_meta_matches_kernel(OpId::matmul, matmul, {a, b});
  const auto linear = &size_generic::meta_linear<Arguments>;
  expect_meta_matches_kernel(OpId::linear, linear, {counting({3, 4}), counting({5, 4}), counting({5})});
  expect_meta_matches_kernel(OpId::linear, linear, {batched, counting({5, 4}), counting({5})});
  expect_meta_matches_kernel(OpId::linear, linear, {counting({2, 2, 3, 4}), counting({5, 4}), counting({5})});
  expect_meta_matches_kernel(OpId::linear, linear, {batched, counting({5, 4}), IValue()});
}

// The meta raises what the kernel raises, for each way the operands can disagree.
TEST(ViewMetaFunctions, MatmulAndLinearRaiseTheKernelsErrors) {
  const std::vector<std::tuple<OpId, MetaFunction, std::vector<IValue>>> calls = {
      {OpId::matmul, &size_generic::meta_matmul<Arguments>, {counting({3}), counting({4})}},
      {OpId::matmul, &size_generic::meta_matmul<Arguments>, {counting({2, 3}), counting({4})}},
      {OpId::matmul, &size_generic::meta_matmul<Arguments>, {counting({3}), counting({4, 5})}},
      {OpId::matmul, &size_generic::meta_matmul<Arguments>, {counting({2, 2, 3}), counting({4, 5})}},
      {OpId::matmul, &size_generic::meta_matmul<Arguments>, {counting({2, 2, 3}), counting({4})}},
      {OpId::matmul, &size_generic::meta_matmul<Arguments>, {counting({2, 3}), counting({2, 4, 5})}},
      {OpId::matmul, &size_generic::meta_matmul<Arguments>, {counting({2, 2, 3}), counting({3, 3, 5})}},
      {OpId::matmul, &size_generic::meta_matmul<Arguments>, {counting({3}, DType::Float64), counting({3})}},
      {OpId::matmul, &size_generic::meta_matmul<Arguments>, {counting({2, 3}, DType::Float64), counting({3, 4})}},
      {OpId::linear, &size_generic::meta_linear<Arguments>, {counting({2, 3}), counting({5, 4})}},
      {OpId::linear, &size_generic::meta_linear<Arguments>, {counting({2, 2, 3}), counting({5, 3}), counting({4})}},
  };
  for (const auto& [id, meta, positional] : calls) {
    const OpInfo& op = op_info(id);
    const Arguments args = bind_arguments(op.schema, positional, {});
    const std::string kernel_error = test::error_of([&] { call(op, args); });
    EXPECT_FALSE(kernel_error.empty()) << op.qualified_name();
    EXPECT_EQ(test::error_of([&] { meta(args); }), kernel_error);
  }
}

TEST(ViewMetaFunctions, LossNormalizationAndRangeMetasAgreeWithTheirKernels) {
  const Tensor logits = counting({3, 4});
  expect_meta_matches_kernel(OpId::cross_entropy_loss, &size_generic::meta_cross_entropy_loss<Arguments>,
                             {logits, counting({3}, DType::Int64)});
  expect_meta_matches_kernel(OpId::cross_entropy_loss, &size_generic::meta_cross_entropy_loss<Arguments>,
                             {logits, counting({3}, DType::Int64), IValue(), int64_t{0}});
  expect_meta_matches_kernel(OpId::cross_entropy_loss, &size_generic::meta_cross_entropy_loss<Arguments>,
                             {counting({4}), test::values({1}, {}, DType::Int64)});
  const auto forward = call(OpId::native_layer_norm, {logits, IValue::IntList{4}, counting({4}), counting({4}), 1e-5});
  expect_meta_matches_kernel(OpId::native_layer_norm_backward, &size_generic::meta_native_layer_norm_backward<Arguments>,
                             {counting({3, 4}), logits, IValue::IntList{4}, forward[1], forward[2], counting({4}),
                              counting({4}), IValue(std::vector<bool>{true, true, true})});
  expect_meta_matches_kernel(OpId::arange, meta_arange, {int64_t{5}});
  expect_meta_matches_kernel(OpId::arange_start_step, meta_arange, {int64_t{1}, int64_t{10}, int64_t{3}});
  expect_meta_matches_kernel(OpId::arange_start_step, meta_arange, {int64_t{5}, int64_t{1}, int64_t{-2}});
  expect_meta_matches_kernel(OpId::arange_start, meta_arange, {1.0, 2.0});
  expect_meta_matches_kernel(OpId::arange_start_step, meta_arange, {1.0, 2.0, 0.3});
  expect_meta_matches_kernel(OpId::linspace, meta_linspace, {0.0, 1.0, int64_t{7}});
}

TEST(ViewMetaFunctions, SquareIsPowOfTwo) {
  expect_meta_matches_kernel(OpId::square, &size_generic::meta_square<Arguments>,
                             {tensor::transpose(counting({4, 3}), 0, 1)});
  expect_meta_matches_kernel(OpId::square, &size_generic::meta_square<Arguments>, {counting({3}, DType::Bool)});
}

TEST(KernelShapedMetaFunctions, AgreeWithTheKernels) {
  const Tensor logits = counting({3, 4});
  const Tensor target = counting({3}, DType::Int64);
  expect_meta_matches_kernel(OpId::nll_loss_backward, meta_loss_input_backward,
                             {test::values({1}, {}), logits, target, IValue(), int64_t{1}, int64_t{-100},
                              test::values({3}, {})});
  expect_meta_matches_kernel(OpId::mse_loss_backward, meta_mse_loss_backward,
                             {test::values({1}, {}), counting({3, 1}), counting({4}), int64_t{1}});
  expect_meta_matches_kernel(OpId::embedding_dense_backward, meta_embedding_dense_backward,
                             {counting({2, 3, 5}), counting({2, 3}, DType::Int64), int64_t{7}, int64_t{-1}, false});
  expect_meta_matches_kernel(OpId::eye, meta_eye, {int64_t{3}});
  expect_meta_matches_kernel(OpId::eye_m, meta_eye, {int64_t{2}, int64_t{5}});
  EXPECT_THROW(meta_eye(bind_arguments(op_info(OpId::eye).schema, {int64_t{-1}}, {})), tensor::TorchError);
}

TEST(ViewMetaFunctions, RaiseTheKernelsErrors) {
  const Tensor transposed = tensor::transpose(counting({4, 3}), 0, 1);
  const OpInfo& view = op_info(OpId::view);
  const Arguments args = bind_arguments(view.schema, {transposed, IValue::IntList{-1}}, {});
  std::string kernel_error, meta_error;
  try { call(view, args); } catch (const tensor::TorchError& e) { kernel_error = e.what(); }
  try { size_generic::meta_view(args); } catch (const tensor::TorchError& e) { meta_error = e.what(); }
  EXPECT_FALSE(kernel_error.empty());
  EXPECT_EQ(meta_error, kernel_error);
  const Arguments bad_shape = bind_arguments(view.schema, {transposed, IValue::IntList{5, -1}}, {});
  EXPECT_THROW(size_generic::meta_view(bad_shape), tensor::TorchError);
}

}  // namespace
}  // namespace kiln::ops
