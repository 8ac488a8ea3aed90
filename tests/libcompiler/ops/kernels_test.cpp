// Values of the eager kernels against hand-computed results: broadcasting, type promotion,
// output strides, integer semantics, reductions, matrix products, normalisation and losses,
// joining/indexing, creation, and PyTorch's error messages for bad calls.
#include <cmath>
#include <limits>

#include "libcompiler/ops/decompositions.h"
#include "libcompiler/tensor/parallel.h"
#include "libcompiler/tensor/random_ops.h"
#include "libcompiler/tensor/torch_error.h"
#include "libcompiler/tensor/views.h"
#include "ops_test_support.h"

namespace kiln::ops::test {

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

TEST(Elementwise, BroadcastingAndScalars) {
  const Tensor a = values({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor row = values({10, 20, 30}, {3});
  expect_values(add(a, row, 2), {21, 42, 63, 24, 45, 66}, {2, 3});
  expect_values(sub(a, values({1, 2}, {2, 1})), {0, 1, 2, 2, 3, 4}, {2, 3});
  expect_values(mul(a, Scalar(0.5)), {0.5, 1, 1.5, 2, 2.5, 3}, {2, 3});
  expect_values(rsub(a, Scalar(1)), {0, -1, -2, -3, -4, -5}, {2, 3});
  EXPECT_EQ(error_of([&] { add(a, values({1, 2}, {2})); }),
            "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1");
}

TEST(Elementwise, TypePromotion) {
  const Tensor ints = values({1, 2, 3}, {3}, DType::Int32);
  EXPECT_EQ(add(ints, Scalar(1)).dtype(), DType::Int32);         // int scalar keeps int32
  EXPECT_EQ(add(ints, Scalar(1.5)).dtype(), DType::Float32);     // float scalar: default dtype
  EXPECT_EQ(add(ints, values({1}, {1}, DType::Int64)).dtype(), DType::Int64);
  EXPECT_EQ(add(values({1}, {1}, DType::Float16), values({1}, {}, DType::Float64)).dtype(), DType::Float16);
  EXPECT_EQ(div(ints, values({2, 2, 2}, {3}, DType::Int32)).dtype(), DType::Float32);  // true division
  EXPECT_EQ(exp(ints).dtype(), DType::Float32);
  EXPECT_EQ(lt(ints, Scalar(2.5)).dtype(), DType::Bool);
  expect_values(lt(ints, Scalar(2.5)), {1, 1, 0}, {3});
  expect_values(add(values({1.5}, {1}, DType::Float64), ints), {2.5, 3.5, 4.5}, {3});
  EXPECT_EQ(error_of([&] { add_(values({1, 2}, {2}, DType::Int64), values({0.5, 1}, {2})); }),
            "result type Float can't be cast to the desired output type Long");
  EXPECT_EQ(error_of([&] { add(ints, ints, Scalar(0.5)); }),
            "For integral input tensors, argument alpha must not be a floating point number.");
  EXPECT_EQ(error_of([&] { sub(values({1}, {1}, DType::Bool), values({1}, {1}, DType::Bool)); }),
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
            "`logical_xor()` operator instead.");
}

TEST(Elementwise, OutputFollowsInputLayout) {
  const Tensor transposed = tensor::t(values({1, 2, 3, 4, 5, 6}, {2, 3}));  // [3, 2], strides [1, 3]
  const Tensor e = exp(transposed);
  EXPECT_EQ(e.strides(), (Shape{1, 3}));
  const Tensor sum_with_row = add(transposed, values({1, 1}, {2}));
  EXPECT_EQ(sum_with_row.strides(), (Shape{1, 3}));
  expect_values(sum_with_row, {2, 5, 3, 6, 4, 7}, {3, 2});
}

TEST(Elementwise, DivisionModesAndRemainder) {
  const Tensor a = values({7, -7, 7, -7}, {4});
  const Tensor b = values({2, 2, -2, -2}, {4});
  expect_values(div(a, b), {3.5, -3.5, -3.5, 3.5}, {4});
  expect_values(div(a, b, std::string("trunc")), {3, -3, -3, 3}, {4});
  expect_values(div(a, b, std::string("floor")), {3, -4, -4, 3}, {4});
  expect_values(remainder(a, b), {1, 1, -1, -1}, {4});
  const Tensor ia = ops::to_dtype(a, DType::Int64), ib = ops::to_dtype(b, DType::Int64);
  expect_values(floor_divide(ia, ib), {3, -4, -4, 3}, {4});
  expect_values(remainder(ia, ib), {1, 1, -1, -1}, {4});
  EXPECT_EQ(floor_divide(ia, ib).dtype(), DType::Int64);
  EXPECT_EQ(error_of([&] { div(ia, ia, std::string("round")); }),
            "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'round'");
  EXPECT_EQ(error_of([&] { floor_divide(ia, ops::to_dtype(values({0, 1, 1, 1}, {4}), DType::Int64)); }), "ZeroDivisionError");
  expect_values(pow(ia, Scalar(2)), {49, 49, 49, 49}, {4});
  EXPECT_EQ(error_of([&] { pow(ia, Scalar(-1)); }), "Integers to negative integer powers are not allowed.");
}

TEST(Elementwise, UnaryFunctions) {
  const Tensor x = values({-1, 0, 0.5, 2}, {4}, DType::Float64);
  expect_values(relu(x), {0, 0, 0.5, 2}, {4});
  expect_values(sigmoid(x), {1 / (1 + std::exp(1.0)), 0.5, 1 / (1 + std::exp(-0.5)), 1 / (1 + std::exp(-2.0))}, {4});
  expect_values(gelu(x), {-1 * 0.5 * (1 + std::erf(-1 / std::sqrt(2.0))), 0, 0.5 * 0.5 * (1 + std::erf(0.5 / std::sqrt(2.0))),
                          2 * 0.5 * (1 + std::erf(2 / std::sqrt(2.0)))}, {4}, 1e-12);
  const double k = std::sqrt(2 / M_PI);
  expect_values(gelu(x, "tanh"), {-0.5 * (1 + std::tanh(k * (-1 - 0.044715))), 0,
                                  0.25 * (1 + std::tanh(k * (0.5 + 0.044715 * 0.125))),
                                  1 + std::tanh(k * (2 + 0.044715 * 8))}, {4}, 1e-12);
  expect_values(abs(x), {1, 0, 0.5, 2}, {4});
  expect_values(sign(x), {-1, 0, 1, 1}, {4});
  expect_values(rsqrt(values({4, 0.25}, {2})), {0.5, 2}, {2});
  expect_values(clamp(x, Scalar(-0.5), Scalar(1)), {-0.5, 0, 0.5, 1}, {4});
  expect_values(clamp(values({kNaN, 3}, {2}), std::nullopt, Scalar(1)), {kNaN, 1}, {2});
  expect_values(maximum(values({1, kNaN}, {2}), values({2, 0}, {2})), {2, kNaN}, {2});
  expect_values(call_single(OpId::isfinite, {values({1, INFINITY, kNaN}, {3})}), {1, 0, 0}, {3});
  expect_values(call_single(OpId::isnan, {values({1, INFINITY, kNaN}, {3})}), {0, 0, 1}, {3});
  expect_values(where(values({1, 0}, {2}, DType::Bool), values({1, 2}, {2}), values({7}, {1})), {1, 7}, {2});
  expect_values(call_single(OpId::logical_xor, {values({1, 0, 2}, {3}), values({1, 1, 0}, {3})}), {0, 1, 1}, {3});
  EXPECT_EQ(error_of([&] { neg(values({1}, {1}, DType::Bool)); }),
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use "
            "the `~` or `logical_not()` operator instead.");
  EXPECT_EQ(error_of([&] { where(values({1}, {1}), x, x); }),
            "where expected condition to be a boolean tensor, but got a tensor with dtype Float");
}

TEST(Elementwise, InPlaceUpdatesBumpTheVersion) {
  const Tensor p = values({1, 2, 3}, {3});
  const uint32_t version = p.version();
  addcmul_(p, values({1, 1, 1}, {3}), values({2, 4, 6}, {3}), 0.5);
  expect_values(p, {2, 4, 6}, {3});
  addcdiv_(p, values({1, 1, 1}, {3}), values({2, 4, 1}, {3}), 2);
  expect_values(p, {3, 4.5, 8}, {3});
  lerp_(p, values({5, 5, 5}, {3}), 0.5);
  expect_values(p, {4, 4.75, 6.5}, {3});
  sqrt_(p);
  expect_values(p, {2, std::sqrt(4.75), std::sqrt(6.5)}, {3});
  EXPECT_EQ(p.version(), version + 4);
}

TEST(Elementwise, LargeTensorsUseTheThreadedPath) {
  const int64_t n = 3 * tensor::kGrainSize + 17;  // several chunks and a ragged tail
  const Tensor a = arange(0, n, 1, DType::Float64);
  const Tensor b = ops::transpose(ops::view(arange(0, n - 17, 1, DType::Float64), {3, tensor::kGrainSize}), 0, 1);  // strided
  const std::vector<double> sum_values = as_doubles(add(a, a));
  for (int64_t i = 0; i < n; i += 997) EXPECT_EQ(sum_values[i], 2.0 * i);
  const std::vector<double> strided = as_doubles(mul(b, Scalar(2)));
  EXPECT_EQ(strided[1], 2.0 * tensor::kGrainSize);  // element [0, 1] of the transpose is [1, 0] of the original
}

TEST(Reductions, SumMeanProdExtrema) {
  const Tensor a = values({1, 2, 3, 4, 5, 6}, {2, 3});
  expect_values(sum(a), {21}, {});
  expect_values(sum(a, {0}), {5, 7, 9}, {3});
  expect_values(sum(a, {1}, true), {6, 15}, {2, 1});
  expect_values(sum(a, {-1, 0}), {21}, {});
  EXPECT_EQ(sum(values({1, 2}, {2}, DType::Int32)).dtype(), DType::Int64);
  EXPECT_EQ(sum(values({1, 0}, {2}, DType::Bool)).dtype(), DType::Int64);
  expect_values(mean(a, {0}), {2.5, 3.5, 4.5}, {3});
  expect_values(prod(a, 1), {6, 120}, {2});
  expect_values(amax(a, {0}), {4, 5, 6}, {3});
  expect_values(amin(a, {1}, true), {1, 4}, {2, 1});
  expect_values(max(a), {6}, {});
  auto [values_, indices_] = min(values({3, 1, 1, 0, 5, 0}, {2, 3}), 1);
  expect_values(values_, {1, 0}, {2});
  expect_values(indices_, {1, 0}, {2});  // the first of equal minima
  EXPECT_EQ(indices_.dtype(), DType::Int64);
  expect_values(argmax(a), {5}, {});
  expect_values(argmax(a, 0, true), {1, 1, 1}, {1, 3});
  expect_values(var(a, std::vector<int64_t>{1}, std::nullopt), {1, 1}, {2});
  expect_values(var(a, std::nullopt, Scalar(0)), {35.0 / 12}, {});
  expect_values(ops::std(a, std::vector<int64_t>{0}, Scalar(1)), {std::sqrt(4.5), std::sqrt(4.5), std::sqrt(4.5)}, {3});
  expect_values(max(values({1, kNaN, 3}, {3})), {kNaN}, {});
  EXPECT_EQ(error_of([&] { mean(values({1, 2}, {2}, DType::Int64)); }),
            "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. "
            "Got: Long");
  EXPECT_EQ(error_of([&] { sum(a, {0, -2}); }), "dim 0 appears multiple times in the list of dims");
  EXPECT_EQ(error_of([&] { sum(a, {2}); }), "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  EXPECT_EQ(error_of([&] { max(values({}, {0})); }),
            "max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with "
            "the 'dim' argument.");
}

TEST(Reductions, Softmax) {
  const Tensor x = values({1, 2, 3, 1, 1, 1}, {2, 3}, DType::Float64);
  const double z = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
  expect_values(softmax(x, 1), {std::exp(1.0) / z, std::exp(2.0) / z, std::exp(3.0) / z, 1.0 / 3, 1.0 / 3, 1.0 / 3},
                {2, 3}, 1e-12);
  expect_values(log_softmax(x, 0), {std::log(std::exp(1.0) / (std::exp(1.0) + std::exp(1.0))),
                                    std::log(std::exp(2.0) / (std::exp(2.0) + std::exp(1.0))),
                                    std::log(std::exp(3.0) / (std::exp(3.0) + std::exp(1.0))),
                                    std::log(std::exp(1.0) / (std::exp(1.0) + std::exp(1.0))),
                                    std::log(std::exp(1.0) / (std::exp(2.0) + std::exp(1.0))),
                                    std::log(std::exp(1.0) / (std::exp(3.0) + std::exp(1.0)))},
                {2, 3}, 1e-12);
  // Large logits do not overflow: the max is subtracted first.
  expect_values(softmax(values({1000, 1000}, {2}), 0), {0.5, 0.5}, {2});
  EXPECT_EQ(softmax(values({1, 2}, {2}, DType::Float32), 0, DType::Float64).dtype(), DType::Float64);
}

TEST(MatrixProducts, AgainstHandComputedProducts) {
  const Tensor a = values({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor b = values({1, 0, 0, 1, 1, 1}, {3, 2});
  expect_values(mm(a, b), {4, 5, 10, 11}, {2, 2});
  expect_values(mm(tensor::t(b), tensor::t(a)), {4, 10, 5, 11}, {2, 2});  // transposed operands read in place
  expect_values(mm(ops::to_dtype(a, DType::Int64), ops::to_dtype(b, DType::Int64)), {4, 5, 10, 11}, {2, 2});
  expect_values(addmm(values({1, -1}, {2}), a, b, 2, 3), {14, 13, 32, 31}, {2, 2});
  expect_values(bmm(stack({a, a}), stack({b, b})), {4, 5, 10, 11, 4, 5, 10, 11}, {2, 2, 2});
  expect_values(dot(values({1, 2, 3}, {3}), values({4, 5, 6}, {3})), {32}, {});
  expect_values(matmul(values({1, 1}, {2}), a), {5, 7, 9}, {3});
  expect_values(matmul(a, values({1, 0, 1}, {3})), {4, 10}, {2});
  expect_values(matmul(stack({a, a}), b), {4, 5, 10, 11, 4, 5, 10, 11}, {2, 2, 2});
  expect_values(matmul(a, stack({b, b})), {4, 5, 10, 11, 4, 5, 10, 11}, {2, 2, 2});
  expect_values(linear(a, tensor::t(b), values({1, 2}, {2})), {5, 7, 11, 13}, {2, 2});
  EXPECT_EQ(error_of([&] { mm(a, values({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}, {4, 5})); }),
            "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
  EXPECT_EQ(error_of([&] { mm(a, values({1, 2, 3}, {3})); }), "mat2 must be a matrix");
  EXPECT_EQ(error_of([&] { mm(a, ops::to_dtype(b, DType::Float64)); }),
            "expected m1 and m2 to have the same dtype, but got: float != double");
  EXPECT_EQ(error_of([&] { bmm(stack({a}), stack({a})); }),
            "Expected size for first two dimensions of batch2 tensor to be: [1, 3] but got: [1, 2].");
}

// A slice of a transposed matrix (rows a whole leading dimension apart, as linear gets a slice
// of a transposed activation) as the first operand of products large enough for oneDNN's matmul,
// which reorders it to row-major first: exact on small integers, as the same product in float64
// (rounded once to the dtype).
TEST(MatrixProducts, SliceOfATransposedMatrixAsTheFirstOperand) {
  const auto small_integers = [](int64_t count, int seed) {
    std::vector<double> data(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) data[static_cast<size_t>(i)] = static_cast<double>((i * 7 + seed) % 5) - 2;
    return data;
  };
  for (const DType dtype : {DType::Float32, DType::BFloat16}) {
    const Tensor wide = values(small_integers(256 * 512, 1), {256, 512}, dtype);
    const Tensor a = tensor::slice(tensor::t(wide), 0, 0, 256);  // [256, 256], strides [1, 512]
    const Tensor weight = values(small_integers(256 * 256, 3), {256, 256}, dtype);
    const Tensor want = mm(ops::to_dtype(a, DType::Float64), tensor::t(ops::to_dtype(weight, DType::Float64)));
    EXPECT_EQ(as_doubles(linear(a, weight)), as_doubles(ops::to_dtype(want, dtype)));
    const Tensor batch = stack({a, a, a, a});  // contiguous; the transposed slice per matrix follows
    const Tensor batch_slice = tensor::slice(tensor::transpose(stack({wide, wide, wide, wide}), 1, 2), 1, 0, 256);
    const Tensor weights = stack({weight, weight, weight, weight});
    const Tensor want_batch = bmm(ops::to_dtype(batch, DType::Float64), ops::to_dtype(weights, DType::Float64));
    EXPECT_EQ(as_doubles(bmm(batch_slice, weights)), as_doubles(ops::to_dtype(want_batch, dtype)));
  }
}

TEST(Normalization, LayerNormAndLosses) {
  const Tensor x = values({1, 2, 3, 2, 4, 6}, {2, 3}, DType::Float64);
  auto [out, mu, rstd] = native_layer_norm(x, {3}, values({1, 1, 2}, {3}, DType::Float64),
                                           values({0, 0, 1}, {3}, DType::Float64), 0.0);
  const double s1 = std::sqrt(2.0 / 3), s2 = std::sqrt(8.0 / 3);
  expect_values(out, {-1 / s1, 0, 2 / s1 + 1, -2 / s2, 0, 4 / s2 + 1}, {2, 3}, 1e-12);
  expect_values(mu, {2, 4}, {2, 1});
  expect_values(rstd, {1 / s1, 1 / s2}, {2, 1}, 1e-12);

  const Tensor logp = values({-1, -2, -3, -0.5, -1.5, -2.5}, {2, 3});
  const Tensor target = tensor::tensor_from_values(std::vector<int64_t>{2, 0}, {2});
  expect_values(nll_loss(logp, target), {1.75}, {});
  expect_values(nll_loss(logp, target, Tensor(), static_cast<int64_t>(Reduction::None)), {3, 0.5}, {2});
  expect_values(nll_loss(logp, target, values({1, 1, 3}, {3})), {(9 + 0.5) / 4}, {});
  expect_values(nll_loss(logp, target, Tensor(), 1, 2), {0.5}, {});  // target 2 ignored
  const Tensor logits = values({0, 0, 0, 1, 2, 3}, {2, 3}, DType::Float64);
  const double expected = (std::log(3.0) + (std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0)) - 1)) / 2;
  expect_values(cross_entropy(logits, target), {expected}, {}, 1e-12);
  expect_values(mse_loss(values({1, 2}, {2}), values({3, 5}, {2})), {6.5}, {});
  expect_values(mse_loss(values({1, 2}, {2}), values({3, 5}, {2}), 2), {13}, {});
  EXPECT_EQ(error_of([&] { nll_loss(logp, tensor::tensor_from_values(std::vector<int64_t>{5, 0}, {2})); }),
            "Target 5 is out of bounds.");
  EXPECT_EQ(error_of([&] { native_layer_norm(x, {2}, Tensor(), Tensor(), 1e-5); }),
            "Given normalized_shape=[2], expected input with shape [*, 2], but got input of size[2, 3]");
}

// native_layer_norm takes rows two at a time (and a last odd row alone); each row's output,
// mean and rstd have the same bits as that row normalized by itself.
TEST(Normalization, LayerNormRowsInPairsAsEachAlone) {
  for (const DType dtype : {DType::Float32, DType::Float64, DType::BFloat16})
    for (const int64_t columns : {17, 300, 1024}) {
      const int64_t rows = 5;
      std::vector<double> data(static_cast<size_t>(rows * columns));
      for (size_t i = 0; i < data.size(); ++i) data[i] = std::sin(static_cast<double>(i) * 0.37) * 3 + 1;
      const Tensor x = values(data, {rows, columns}, dtype);
      const Tensor weight = values(std::vector<double>(static_cast<size_t>(columns), 1.5), {columns}, dtype);
      const auto [out, mean, rstd] = native_layer_norm(x, {columns}, weight, Tensor(), 1e-5);
      for (int64_t r = 0; r < rows; ++r) {
        const auto [row_out, row_mean, row_rstd] = native_layer_norm(tensor::slice(x, 0, r, r + 1), {columns}, weight, Tensor(), 1e-5);
        EXPECT_EQ(as_doubles(tensor::slice(out, 0, r, r + 1)), as_doubles(row_out)) << columns << " " << r;
        EXPECT_EQ(as_doubles(tensor::slice(mean, 0, r, r + 1)), as_doubles(row_mean)) << columns << " " << r;
        EXPECT_EQ(as_doubles(tensor::slice(rstd, 0, r, r + 1)), as_doubles(row_rstd)) << columns << " " << r;
      }
    }
}

TEST(ShapeOps, CatStackSplitIndexing) {
  const Tensor a = values({1, 2, 3, 4}, {2, 2});
  const Tensor b = values({5, 6}, {1, 2});
  expect_values(cat({a, b}), {1, 2, 3, 4, 5, 6}, {3, 2});
  expect_values(cat({a, tensor::t(b)}, 1), {1, 2, 5, 3, 4, 6}, {2, 3});
  EXPECT_EQ(cat({values({1}, {1}, DType::Int64), values({0.5}, {1})}).dtype(), DType::Float32);
  expect_values(stack({a, a}, 2), {1, 1, 2, 2, 3, 3, 4, 4}, {2, 2, 2});
  const std::vector<Tensor> pieces = split(arange(0, 5, 1, DType::Float32), 2);
  ASSERT_EQ(pieces.size(), 3u);
  expect_values(pieces[2], {4}, {1});
  EXPECT_TRUE(pieces[1].storage().is_alias_of(pieces[0].storage()));  // views
  EXPECT_EQ(chunk(arange(0, 5, 1, DType::Float32), 2).size(), 2u);
  expect_values(index_select(a, 1, tensor::tensor_from_values(std::vector<int64_t>{1, 1, 0}, {3})), {2, 2, 1, 4, 4, 3}, {2, 3});
  expect_values(gather(a, 1, tensor::tensor_from_values(std::vector<int64_t>{1, 0, 0, 0}, {2, 2})), {2, 1, 3, 3}, {2, 2});
  expect_values(scatter_add(zeros({2, 2}), 1, tensor::tensor_from_values(std::vector<int64_t>{1, 1, 0, 1}, {2, 2}), a),
                {0, 3, 3, 4}, {2, 2});
  expect_values(index_add(zeros({3}), 0, tensor::tensor_from_values(std::vector<int64_t>{2, 2}, {2}), values({1, 2}, {2}), 2),
                {0, 0, 6}, {3});
  expect_values(embedding(a, tensor::tensor_from_values(std::vector<int64_t>{1, 0, 1}, {3})), {3, 4, 1, 2, 3, 4}, {3, 2});
  EXPECT_EQ(error_of([&] { cat({a, values({1, 2, 3}, {1, 3})}); }),
            "Sizes of tensors must match except in dimension 0. Expected size 2 but got size 3 for tensor number 1 in "
            "the list.");
  EXPECT_EQ(error_of([&] { stack({a, b}); }),
            "stack expects each tensor to be equal size, but got [2, 2] at entry 0 and [1, 2] at entry 1");
  EXPECT_EQ(error_of([&] { embedding(a, tensor::tensor_from_values(std::vector<int64_t>{2}, {1})); }),
            "index out of range in self");
}

TEST(Creation, FactoriesAndCopies) {
  expect_values(arange(0, 5, 2, std::nullopt), {0, 2, 4}, {3});
  EXPECT_EQ(arange(0, 5, 2, std::nullopt).dtype(), DType::Int64);
  expect_values(arange(0, 1, 0.25, std::nullopt), {0, 0.25, 0.5, 0.75}, {4});
  EXPECT_EQ(arange(0, 1, 0.25, std::nullopt).dtype(), DType::Float32);
  expect_values(linspace(0, 1, 5), {0, 0.25, 0.5, 0.75, 1}, {5});
  expect_values(eye(2, 3), {1, 0, 0, 0, 1, 0}, {2, 3});
  EXPECT_EQ(ops::full({2}, Scalar(true)).dtype(), DType::Bool);
  EXPECT_EQ(ops::full({2}, Scalar(3)).dtype(), DType::Int64);
  expect_values(full_like(values({1, 2}, {2}), 7), {7, 7}, {2});
  expect_values(ones_like(values({1, 2}, {2}), DType::Int32), {1, 1}, {2});
  const Tensor t = tensor::t(values({1, 2, 3, 4, 5, 6}, {2, 3}));
  EXPECT_EQ(clone(t).strides(), t.strides());        // clone preserves a dense layout
  EXPECT_TRUE(ops::contiguous(t).is_contiguous());
  const Tensor dense = ops::contiguous(t);
  EXPECT_TRUE(ops::contiguous(dense).is_same(dense));  // already contiguous: itself
  expect_values(to_copy(values({1.7, -1.7}, {2}), DType::Int64), {1, -1}, {2});
  EXPECT_EQ(error_of([&] { zeros({-1}); }), "Trying to create tensor with negative dimension -1: [-1]");
  EXPECT_EQ(error_of([&] { arange(0, 5, 0); }), "step must be nonzero");
}

TEST(Creation, DropoutMatchesTheTensorLibrarysDropout) {
  // The composite (bernoulli_, div_, mul) draws and scales exactly like kiln_tensor's dropout,
  // which is checked against PyTorch's numbers.
  const Tensor x = values({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}, {20});
  tensor::manual_seed(0);
  const Tensor ours = ops::dropout(x, 0.3, true);
  tensor::manual_seed(0);
  const Tensor reference = tensor::dropout(x, 0.3, true);
  expect_values(ours, as_doubles(reference), {20}, 0);
  EXPECT_TRUE(ops::dropout(x, 0.3, false).is_same(x));
}

TEST(Decompositions, ComputeWhatTheKernelsCompute) {
  const Tensor x = values({0.3, -1.2, 2.5, 0.7, -0.1, 1.9}, {2, 3}, DType::Float64);
  const Tensor y = values({1.1, 0.4, -0.6, 0.2, 0.9, -1.3}, {2, 3}, DType::Float64);
  const Tensor row = tensor::select(y, 0, 0), target = values({2, 0}, {2}, DType::Int64);
  const Tensor log_probabilities = ops::log_softmax(x, 1);
  int checked = 0, declined = 0;
  for (const OpInfo& op : all_ops()) {
    if (!op.decomposition) continue;
    SCOPED_TRACE(op.qualified_name());
    std::vector<IValue> args;
    switch (op.id) {
      case OpId::rsub_Tensor: args = {x, y, 2}; break;
      case OpId::rsub_Scalar: args = {x, 1.5, 2}; break;
      case OpId::clamp: args = {x, -0.5, 1.0}; break;
      case OpId::addcmul:
      case OpId::addcdiv:
      case OpId::addcmul_:
      case OpId::addcdiv_: args = {ops::clone(x), y, add(y, Scalar(3)), 0.5}; break;
      case OpId::lerp__Scalar: args = {ops::clone(x), y, 0.3}; break;
      case OpId::_softmax:
      case OpId::_log_softmax: args = {x, 1, false}; break;
      case OpId::_softmax_backward_data: args = {y, ops::softmax(x, 1), 1, DType::Float64}; break;
      case OpId::_log_softmax_backward_data: args = {y, log_probabilities, 1, DType::Float64}; break;
      case OpId::native_layer_norm: args = {x, std::vector<int64_t>{3}, row, tensor::select(y, 0, 1), 1e-5}; break;
      case OpId::native_layer_norm_backward: {
        auto [out, mu, rstd] = ops::native_layer_norm(x, {3}, row, row, 1e-5);
        args = {y, x, std::vector<int64_t>{3}, mu, rstd, row, row, std::vector<bool>{true, true, true}};
        break;
      }
      case OpId::mse_loss: args = {x, y, 1}; break;
      case OpId::mse_loss_backward: args = {values({0.7}, {}, DType::Float64), x, y, 1}; break;
      case OpId::gelu: args = {x, "tanh"}; break;
      case OpId::softplus: args = {x, 2.0, 1.5}; break;
      case OpId::silu: args = {x}; break;
      case OpId::silu_backward: args = {y, x}; break;
      case OpId::softplus_backward: args = {y, x, 2.0, 1.5}; break;
      case OpId::xlogy_Tensor: args = {ops::where(ops::gt(x, Scalar(0.5)), x, ops::zeros({}, DType::Float64)), ops::abs(y)}; break;
      case OpId::gelu_backward: args = {y, x, "none"}; break;
      case OpId::leaky_relu: args = {x, 0.2}; break;
      case OpId::masked_fill_Scalar: args = {x, values({1, 0, 1}, {3}, DType::Bool), -4.5}; break;
      case OpId::masked_fill_Tensor: args = {x, values({0, 1, 1}, {3}, DType::Bool), values({2.5}, {}, DType::Float64)}; break;
      case OpId::tril: args = {x, 0}; break;
      case OpId::native_dropout: args = {x, 0.0, true}; break;
      case OpId::native_dropout_backward: args = {y, values({1, 0, 1, 1, 0, 0}, {2, 3}, DType::Bool), 1.25}; break;
      case OpId::triu: args = {x, 1}; break;
      case OpId::leaky_relu_backward: args = {y, x, 0.2, false}; break;
      case OpId::sigmoid_backward:
      case OpId::tanh_backward: args = {y, x}; break;
      case OpId::threshold_backward: args = {y, x, 0.5}; break;
      case OpId::nll_loss_forward: args = {log_probabilities, target, IValue(), 1, -100}; break;
      case OpId::nll_loss_backward:
        args = {values({0.5}, {}, DType::Float64), log_probabilities, target, IValue(), 1, -100, values({2.0}, {}, DType::Float64)};
        break;
      case OpId::detach:
      case OpId::t:
      case OpId::_unsafe_view: args = op.id == OpId::_unsafe_view ? std::vector<IValue>{x, std::vector<int64_t>{3, 2}} : std::vector<IValue>{x}; break;
      case OpId::transpose_int: args = {x, 0, -1}; break;
      case OpId::_to_copy: args = {x, DType::Float32}; break;
      case OpId::std_correction: args = {x, std::vector<int64_t>{1}, IValue(), false}; break;
      case OpId::zeros:
      case OpId::ones: args = {std::vector<int64_t>{2, 3}, DType::Float64}; break;
      case OpId::zeros_like:
      case OpId::ones_like: args = {x}; break;
      case OpId::full_like: args = {x, 2.5}; break;
      case OpId::fill__Scalar: args = {ops::clone(x), 1.5}; break;
      case OpId::zero_: args = {ops::clone(x)}; break;
      case OpId::mv: args = {x, tensor::select(y, 0, 1)}; break;
      case OpId::dot: args = {row, tensor::select(y, 0, 1)}; break;
      case OpId::floor_divide: args = {x, y}; break;
      case OpId::floor_divide_Scalar: args = {x, 0.4}; break;
      default: ADD_FAILURE() << "no test arguments for the decomposition"; continue;
    }
    for (size_t i = args.size(); i < op.schema.arguments.size(); ++i) args.push_back(*op.schema.arguments[i].default_value);
    std::vector<IValue> copy = args;
    if (op.schema.is_inplace()) copy[0] = ops::clone(args[0].to_tensor());
    const std::vector<Tensor> expected = call(op, Arguments(op.schema, args));
    const std::vector<Tensor> decomposed = op.decomposition(Arguments(op.schema, copy));
    if (decomposed.empty()) {
      ++declined;
      continue;
    }
    ASSERT_EQ(decomposed.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      if (!expected[i].defined()) continue;
      EXPECT_EQ(decomposed[i].dtype(), expected[i].dtype()) << "output " << i;
      expect_values(decomposed[i], as_doubles(expected[i]), expected[i].sizes(), 1e-12);
    }
    ++checked;
  }
  EXPECT_EQ(checked, 53);
  EXPECT_EQ(declined, 0);
}

TEST(Meta, MetaTensorsGetShapesWithoutData) {
  const Tensor a = Tensor::empty({2, 3}, DType::Float32, tensor::Device::parse("meta"));
  const Tensor b = Tensor::empty({3, 4}, DType::Float64, tensor::Device::parse("meta"));
  const Tensor product = mm(a, ops::to_dtype(b, DType::Float32));
  EXPECT_EQ(product.sizes(), (Shape{2, 4}));
  EXPECT_EQ(product.device().type, tensor::DeviceType::Meta);
  const Tensor summed = add(tensor::t(a), Scalar(1.5));
  EXPECT_EQ(summed.strides(), (Shape{1, 3}));
  EXPECT_EQ(sum(a, {1}, true).sizes(), (Shape{2, 1}));
  EXPECT_EQ(linear(a, Tensor::empty({5, 3}, DType::Float32, a.device())).sizes(), (Shape{2, 5}));
  EXPECT_EQ(error_of([&] { mm(a, a); }), "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)");
}

}  // namespace kiln::ops::test

namespace kiln::ops::test {

TEST(Kernels, ReciprocalRoundSquareAndInPlaceSub) {
  expect_values(call_single(OpId::reciprocal, {values({2, -0.5, 4}, {3})}), {0.5, -2, 0.25}, {3});
  // Half to even, as ATen rounds; decimals scale first (negative decimals divide).
  expect_values(call_single(OpId::round, {values({0.5, 1.5, 2.5, -0.5, -1.7}, {5})}), {0, 2, 2, -0, -2}, {5});
  expect_values(call_single(OpId::round_decimals, {values({1.234, 15.0}, {2}), 1}), {1.2, 15}, {2});
  expect_values(call_single(OpId::round_decimals, {values({1234, 1250}, {2}), -2}), {1200, 1200}, {2});
  const Tensor x = values({1, -3}, {2});
  const Tensor sq = call_single(OpId::square, {x});
  expect_values(sq, {1, 9}, {2});
  const Tensor y = values({5, 6}, {2});
  call(OpId::sub__Tensor, {y, values({1, 2}, {2}), 2});
  expect_values(y, {3, 2}, {2});
  call(OpId::sub__Scalar, {y, 1.0});
  expect_values(y, {2, 1}, {2});
}

TEST(Kernels, BitwiseOpsOnIntegersAndBools) {
  const Tensor a = values({12, 10, -1}, {3}, DType::Int64), b = values({10, 6, 3}, {3}, DType::Int64);
  expect_values(call_single(OpId::bitwise_and_Tensor, {a, b}), {8, 2, 3}, {3});
  expect_values(call_single(OpId::bitwise_or_Tensor, {a, b}), {14, 14, -1}, {3});
  expect_values(call_single(OpId::bitwise_xor_Scalar, {a, 1}), {13, 11, -2}, {3});
  expect_values(call_single(OpId::bitwise_not, {a}), {-13, -11, 0}, {3});
  const Tensor flags = values({1, 0}, {2}, DType::Bool);
  const Tensor negated = call_single(OpId::bitwise_not, {flags});
  EXPECT_EQ(negated.dtype(), DType::Bool);
  expect_values(negated, {0, 1}, {2});
  EXPECT_EQ(error_of([&] { call(OpId::bitwise_and_Tensor, {values({1.5}, {1}), b}); }),
            "\"bitwise_and_cpu\" not implemented for 'Float'");
  EXPECT_EQ(error_of([&] { call(OpId::bitwise_not, {values({1.5}, {1})}); }), "\"bitwise_not_cpu\" not implemented for 'Float'");
}

TEST(Kernels, ScalarTensorAndRandint) {
  const Tensor s = call_single(OpId::scalar_tensor, {3});
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(s.dtype(), DType::Float32);  // the default dtype even for an integer value
  expect_values(s, {3}, {});
  tensor::default_cpu_generator().manual_seed(0);
  const Tensor expected = tensor::randint(3, 10, {2, 5});
  tensor::default_cpu_generator().manual_seed(0);
  const Tensor low = call_single(OpId::randint_low, {3, 10, std::vector<int64_t>{2, 5}});
  EXPECT_EQ(low.dtype(), DType::Int64);
  expect_values(low, as_doubles(expected), {2, 5});
  tensor::default_cpu_generator().manual_seed(0);
  const Tensor from_zero = call_single(OpId::randint, {10, std::vector<int64_t>{4}, DType::Int32});
  EXPECT_EQ(from_zero.dtype(), DType::Int32);
  tensor::default_cpu_generator().manual_seed(0);
  expect_values(from_zero, as_doubles(tensor::randint(0, 10, {4}, DType::Int32)), {4});
  EXPECT_EQ(error_of([&] { call(OpId::randint_low, {5, 5, std::vector<int64_t>{1}}); }),
            "random_ expects 'from' to be less than 'to', but got from=5 >= to=5");
}

}  // namespace kiln::ops::test
