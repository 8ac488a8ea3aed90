#include <gtest/gtest.h>

#include "libcompiler/tensor/elementwise_loop.h"
#include "libcompiler/tensor/factories.h"
#include "libcompiler/tensor/views.h"

namespace kiln::tensor {
namespace {

TEST(ElementwiseLoop, ContiguousOperandsAreOneRun) {
  Tensor out = Tensor::empty({4, 5, 6});
  ElementwiseLoop loop({out}, {zeros({4, 5, 6}), zeros({4, 5, 6}, DType::Float64)});
  EXPECT_EQ(loop.loop_shape(), (Shape{120}));
  int runs = 0;
  loop.for_each([&](char* const*, const int64_t* strides, int64_t n) {
    ++runs;
    EXPECT_EQ(n, 120);
    EXPECT_EQ(strides[0], 4);
    EXPECT_EQ(strides[2], 8);
  });
  EXPECT_EQ(runs, 1);
}

TEST(ElementwiseLoop, BroadcastInputGetsZeroStride) {
  Tensor out = Tensor::empty({3, 4}, DType::Int64);
  Tensor row = arange(4);
  Tensor col = view(arange(3), {3, 1});
  ElementwiseLoop loop({out}, {row, col});
  loop.for_each([&](char* const* data, const int64_t* strides, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      const int64_t a = *reinterpret_cast<int64_t*>(data[1] + i * strides[1]);
      const int64_t b = *reinterpret_cast<int64_t*>(data[2] + i * strides[2]);
      *reinterpret_cast<int64_t*>(data[0] + i * strides[0]) = 10 * b + a;
    }
  });
  const int64_t* o = out.data_ptr<int64_t>();
  EXPECT_EQ(o[0], 0);
  EXPECT_EQ(o[5], 11);
  EXPECT_EQ(o[11], 23);
}

TEST(ElementwiseLoop, VisitsATransposedOutputInMemoryOrder) {
  Tensor base = Tensor::empty({3, 4}, DType::Int64);
  Tensor out = t(base);  // sizes [4, 3], strides [1, 4]
  ElementwiseLoop loop({out}, {});
  EXPECT_EQ(loop.loop_shape(), (Shape{12}));
  int64_t counter = 0;
  loop.for_each([&](char* const* data, const int64_t* strides, int64_t n) {
    for (int64_t i = 0; i < n; ++i) *reinterpret_cast<int64_t*>(data[0] + i * strides[0]) = counter++;
  });
  for (int64_t i = 0; i < 12; ++i) EXPECT_EQ(base.data_ptr<int64_t>()[i], i);
}

TEST(ElementwiseLoop, SlicedOperandKeepsOuterDimension) {
  Tensor base = zeros({4, 6}, DType::Int64);
  // Every second column of all six is one uniform stride-2 walk: merged into one run.
  EXPECT_EQ(ElementwiseLoop({slice(base, 1, 0, 6, 2)}, {}).loop_shape(), (Shape{12}));
  Tensor out = slice(base, 1, 0, 4, 2);  // [4, 2] with strides [6, 2]: rows jump, no merge
  ElementwiseLoop loop({out}, {});
  EXPECT_EQ(loop.loop_shape(), (Shape{2, 4}));
  loop.for_each([&](char* const* data, const int64_t* strides, int64_t n) {
    for (int64_t i = 0; i < n; ++i) *reinterpret_cast<int64_t*>(data[0] + i * strides[0]) = 1;
  });
  int64_t sum = 0;
  for (int64_t i = 0; i < 24; ++i) sum += base.data_ptr<int64_t>()[i] * (i % 2 == 0 ? 1 : 100);
  EXPECT_EQ(sum, 8);  // columns 0 and 2 of each row, all at even positions
}

}  // namespace
}  // namespace kiln::tensor
