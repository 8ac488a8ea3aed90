#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/factories.h"
#include "libcompiler/tensor/parallel.h"
#include "libcompiler/tensor/scalar_cast.h"
#include "libcompiler/tensor/torch_error.h"
#include "libcompiler/tensor/views.h"

namespace kiln::tensor {
namespace {

TEST(ScalarCast, PyTorchConversionRules) {
  EXPECT_EQ(cast_scalar<int64_t>(2.9), 2);
  EXPECT_EQ(cast_scalar<int64_t>(-2.9f), -2);                   // truncation toward zero
  EXPECT_EQ(cast_scalar<int32_t>(3e9), std::numeric_limits<int32_t>::min());  // x86 "integer indefinite"
  EXPECT_EQ(cast_scalar<int64_t>(std::nan("")), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(cast_scalar<uint8_t>(-1.0f), 255);                  // through int64, then wraps
  EXPECT_EQ(cast_scalar<uint8_t>(300.5), 44);
  EXPECT_EQ(cast_scalar<int8_t>(200.0f), -56);                  // through int32, then wraps
  EXPECT_EQ(cast_scalar<int8_t>(int64_t{200}), -56);
  EXPECT_TRUE(cast_scalar<bool>(0.1f));
  EXPECT_TRUE(cast_scalar<bool>(std::nan("")));
  EXPECT_FALSE(cast_scalar<bool>(-0.0));
  EXPECT_TRUE(cast_scalar<bool>(Half(0.5f)));
  EXPECT_EQ(cast_scalar<float>(true), 1.0f);
  EXPECT_EQ(cast_scalar<int32_t>(BFloat16(-7.5f)), -7);
  // double -> half goes through float, like c10 (double rounding is part of the contract).
  EXPECT_EQ(cast_scalar<Half>(1.0 + 0x1p-11 + 0x1p-40).bits, Half(static_cast<float>(1.0 + 0x1p-11 + 0x1p-40)).bits);
  EXPECT_EQ(cast_scalar<float>(int64_t{16777217}), 16777216.0f);  // int -> float rounds to nearest even
}

TEST(Copy, BetweenStridesAndDtypes) {
  Tensor src = view(tensor_from_values(std::vector<double>{0.5, -1.5, 2.7, -3.2, 250.0, 1e10}, {2, 3}), {2, 3});
  Tensor dst = Tensor::empty({3, 2}, DType::Int32);
  copy_(t(dst), src);  // dst^T = src, so dst holds src transposed
  const int32_t* d = dst.data_ptr<int32_t>();
  const int32_t expected[] = {0, -3, -1, 250, 2, std::numeric_limits<int32_t>::min()};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(d[i], expected[i]) << i;
  EXPECT_EQ(dst.version(), 1u);

  Tensor flags = to_dtype(src, DType::Bool);
  EXPECT_EQ(flags.dtype(), DType::Bool);
  for (int i = 0; i < 6; ++i) EXPECT_TRUE(flags.data_ptr<bool>()[i]);
  Tensor halves = to_dtype(src, DType::Float16);
  EXPECT_EQ(halves.data_ptr<Half>()[2].bits, Half(2.7f).bits);
  EXPECT_TRUE(std::isinf(static_cast<float>(halves.data_ptr<Half>()[5])));
  EXPECT_TRUE(to_dtype(src, DType::Float32).is_same(src));
}

// Reads element (r, c) of a 2-d tensor of element type T, whatever its strides.
template <typename T>
T element_at(const Tensor& t, int64_t r, int64_t c) {
  T value;
  std::memcpy(&value, static_cast<const char*>(t.data_ptr()) + (r * t.stride(0) + c * t.stride(1)) * sizeof(T), sizeof(T));
  return value;
}

// Every dtype pair, on walks long enough to be split over threads, between contiguous, transposed,
// row-sliced and broadcast layouts: each element must be what cast_scalar makes of it alone.
TEST(Copy, EveryDtypePairAndLayoutMatchesElementByElementCasts) {
  const int64_t rows = 3 * kGrainSize / 64 + 5, cols = 67;  // several chunks, ragged ends
  const double specials[] = {std::nan(""), INFINITY, -INFINITY, -0.0, 1e10, -1e10, 300.5, -1.5, 65504.0, 70000.0};
  std::vector<double> values(static_cast<size_t>(rows * cols));
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = i % 97 < 10 ? specials[i % 97] : (static_cast<double>(i % 601) - 300.0) * 0.37;
  const Tensor row_major = tensor_from_values(values, {rows, cols}, DType::Float64);
  const Tensor column_major = t(tensor_from_values(values, {cols, rows}, DType::Float64));
  std::vector<double> wider_values(static_cast<size_t>(rows * (cols + 1)));
  for (size_t i = 0; i < wider_values.size(); ++i) wider_values[i] = values[i % values.size()];
  const Tensor wider = tensor_from_values(wider_values, {rows, cols + 1}, DType::Float64);
  const DType dtypes[] = {DType::UInt8, DType::Int8,    DType::Int16, DType::Int32, DType::Int64,
                          DType::Float16, DType::Float32, DType::Float64, DType::Bool, DType::BFloat16};
  for (DType from : dtypes) {
    const Tensor contiguous = to_dtype(row_major, from);
    const Tensor sources[] = {contiguous, t(to_dtype(t(column_major), from)), narrow(to_dtype(wider, from), 1, 1, cols),
                              expand(narrow(contiguous, 0, 2, 1), {rows, cols})};
    for (DType to : dtypes)
      for (const Tensor& src : sources)
        for (bool transposed_dst : {false, true}) {
          const Tensor dst = transposed_dst ? t(Tensor::empty({cols, rows}, to)) : Tensor::empty({rows, cols}, to);
          copy_(dst, src);
          int64_t mismatches = 0;
          visit_dtype(to, [&](auto to_tag) {
            using To = typename decltype(to_tag)::type;
            visit_dtype(from, [&](auto from_tag) {
              using From = typename decltype(from_tag)::type;
              for (int64_t r = 0; r < rows; ++r)
                for (int64_t c = 0; c < cols; ++c) {
                  const To expected = cast_scalar<To>(element_at<From>(src, r, c));
                  const To got = element_at<To>(dst, r, c);
                  mismatches += std::memcmp(&expected, &got, sizeof(To)) != 0;
                }
            });
          });
          EXPECT_EQ(mismatches, 0) << scalar_type_name(from) << " -> " << scalar_type_name(to) << ", source strides "
                                   << src.stride(0) << "x" << src.stride(1) << ", transposed result " << transposed_dst;
        }
  }
}

TEST(Copy, BroadcastsSourceAndRejectsMismatch) {
  Tensor dst = zeros({2, 3}, DType::Float64);
  copy_(dst, tensor_from_values(std::vector<int64_t>{1, 2, 3}, {3}));
  const double* d = dst.data_ptr<double>();
  EXPECT_EQ(d[0], 1.0);
  EXPECT_EQ(d[5], 3.0);
  try {
    copy_(dst, zeros({4}));
    FAIL() << "expected an error";
  } catch (const TorchError& e) {
    EXPECT_STREQ(e.what(), "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  }
}

TEST(Broadcast, ShapesAndPyTorchMessage) {
  EXPECT_EQ(broadcast_shapes({3, 1}, {1, 4}), (Shape{3, 4}));
  EXPECT_EQ(broadcast_shapes({5, 1, 4}, {3, 1}), (Shape{5, 3, 4}));
  EXPECT_EQ(broadcast_shapes({}, {2}), (Shape{2}));
  EXPECT_EQ(broadcast_shapes({0, 1}, {1, 3}), (Shape{0, 3}));
  try {
    broadcast_shapes({2, 3}, {2, 4});
    FAIL() << "expected an error";
  } catch (const TorchError& e) {
    EXPECT_EQ(e.kind(), PyErrorKind::RuntimeError);
    EXPECT_STREQ(e.what(), "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
  }
  try {
    broadcast_shapes({2, 3, 4}, {5, 4});
    FAIL() << "expected an error";
  } catch (const TorchError& e) {
    EXPECT_STREQ(e.what(), "The size of tensor a (3) must match the size of tensor b (5) at non-singleton dimension 1");
  }
}

TEST(Fill, ConvertsTheScalarAndItemReadsBack) {
  Tensor x = full({2, 2}, Scalar(2.5), DType::Int64);
  EXPECT_EQ(x.data_ptr<int64_t>()[3], 2);
  EXPECT_EQ(full({1}, Scalar(true)).dtype(), DType::Bool);
  EXPECT_EQ(full({1}, Scalar(3)).dtype(), DType::Int64);
  EXPECT_EQ(full({1}, Scalar(3.0)).dtype(), DType::Float32);
  EXPECT_EQ(item(scalar_tensor(Scalar(0.1))).to<double>(), static_cast<double>(0.1f));
  EXPECT_EQ(item(scalar_tensor(Scalar(int64_t{1} << 62))).to<int64_t>(), int64_t{1} << 62);
  Tensor wrapped = wrapped_number(Scalar(1.5));
  EXPECT_TRUE(wrapped.is_wrapped_number());
  EXPECT_EQ(wrapped.dtype(), DType::Float64);
  EXPECT_THROW(item(zeros({2})), TorchError);
}

}  // namespace
}  // namespace kiln::tensor
