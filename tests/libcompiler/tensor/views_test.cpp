#include <gtest/gtest.h>

#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/factories.h"
#include "libcompiler/tensor/torch_error.h"
#include "libcompiler/tensor/views.h"

namespace kiln::tensor {
namespace {

// Reads element [indices...] through sizes/strides/offset, as any kernel would.
int64_t at(const Tensor& t, const std::vector<int64_t>& index) {
  int64_t offset = 0;
  for (size_t d = 0; d < index.size(); ++d) offset += index[d] * t.strides()[d];
  return t.data_ptr<int64_t>()[offset];
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const TorchError& e) {
    return e.what();
  }
  return "<no error>";
}

TEST(Views, ViewSharesStorageAndComputesStrides) {
  Tensor x = arange(12);
  Tensor v = view(x, {3, -1});
  EXPECT_EQ(v.sizes(), (Shape{3, 4}));
  EXPECT_EQ(v.strides(), (Shape{4, 1}));
  EXPECT_TRUE(v.storage().is_alias_of(x.storage()));
  EXPECT_TRUE(v.is_view());
  EXPECT_TRUE(v.base().is_same(x));
  EXPECT_TRUE(view(v, {12}).base().is_same(x));  // the base of a view of a view is the root
  EXPECT_EQ(at(v, {2, 3}), 11);
  // A transposed tensor can be split along a dimension but not merged across two.
  Tensor tr = transpose(view(x, {3, 4}), 0, 1);
  EXPECT_EQ(tr.strides(), (Shape{1, 4}));
  EXPECT_FALSE(tr.is_contiguous());
  Tensor split = view(tr, {2, 2, 3});
  EXPECT_EQ(split.strides(), (Shape{2, 1, 4}));
  EXPECT_EQ(error_of([&] { view(tr, {12}); }),
            "view size is not compatible with input tensor's size and stride (at least one dimension spans across "
            "two contiguous subspaces). Use .reshape(...) instead.");
  EXPECT_EQ(error_of([&] { view(x, {3, 5}); }), "shape '[3, 5]' is invalid for input of size 12");
  EXPECT_EQ(error_of([&] { view(x, {-1, -1}); }), "only one dimension can be inferred");
}

TEST(Views, ReshapeCopiesOnlyWhenItMust) {
  Tensor x = view(arange(6), {2, 3});
  Tensor same = reshape(x, {3, 2});
  EXPECT_TRUE(same.storage().is_alias_of(x.storage()));
  Tensor tr = t(x);
  Tensor copied = reshape(tr, {6});
  EXPECT_FALSE(copied.storage().is_alias_of(x.storage()));
  EXPECT_EQ(copied.version(), 0u);
  const std::vector<int64_t> expected = {0, 3, 1, 4, 2, 5};
  for (int64_t i = 0; i < 6; ++i) EXPECT_EQ(at(copied, {i}), expected[i]);
  EXPECT_TRUE(contiguous(x).is_same(x));
  EXPECT_FALSE(contiguous(tr).is_same(tr));
  EXPECT_TRUE(contiguous(tr).is_contiguous());
}

TEST(Views, PermuteTransposeTAndErrors) {
  Tensor x = view(arange(24), {2, 3, 4});
  Tensor p = permute(x, {2, 0, 1});
  EXPECT_EQ(p.sizes(), (Shape{4, 2, 3}));
  EXPECT_EQ(p.strides(), (Shape{1, 12, 4}));
  EXPECT_EQ(at(p, {3, 1, 2}), at(x, {1, 2, 3}));
  EXPECT_EQ(transpose(x, -1, 0).sizes(), (Shape{4, 3, 2}));
  EXPECT_EQ(error_of([&] { permute(x, {0, 0, 1}); }), "permute(): duplicate dims are not allowed.");
  EXPECT_EQ(error_of([&] { t(x); }), "t() expects a tensor with <= 2 dimensions, but self is 3D");
  EXPECT_EQ(error_of([&] { transpose(x, 3, 0); }),
            "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  Tensor v = arange(3);
  EXPECT_EQ(t(v).sizes(), (Shape{3}));
}

TEST(Views, UnsqueezeSqueezeAllForms) {
  Tensor x = view(arange(6), {1, 2, 1, 3});
  EXPECT_EQ(squeeze(x).sizes(), (Shape{2, 3}));
  EXPECT_EQ(squeeze(x, 2).sizes(), (Shape{1, 2, 3}));
  EXPECT_EQ(squeeze(x, 1).sizes(), (Shape{1, 2, 1, 3}));  // size 2: left alone
  EXPECT_EQ(squeeze(x, std::vector<int64_t>{0, -2}).sizes(), (Shape{2, 3}));
  Tensor y = view(arange(6), {2, 3});
  Tensor u = unsqueeze(y, 1);
  EXPECT_EQ(u.sizes(), (Shape{2, 1, 3}));
  EXPECT_EQ(u.strides(), (Shape{3, 3, 1}));
  EXPECT_EQ(unsqueeze(y, -1).strides(), (Shape{3, 1, 1}));
  EXPECT_EQ(unsqueeze(y, 2).sizes(), (Shape{2, 3, 1}));
  EXPECT_EQ(error_of([&] { unsqueeze(y, 3); }),
            "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  Tensor scalar = scalar_tensor(Scalar(int64_t{5}));
  EXPECT_EQ(unsqueeze(scalar, 0).sizes(), (Shape{1}));
  EXPECT_EQ(squeeze(scalar, 0).sizes(), (Shape{}));
}

TEST(Views, ExpandUsesZeroStrides) {
  Tensor x = view(arange(3), {3, 1});
  Tensor e = expand(x, {2, 3, 4});
  EXPECT_EQ(e.sizes(), (Shape{2, 3, 4}));
  EXPECT_EQ(e.strides(), (Shape{0, 1, 0}));
  EXPECT_EQ(at(e, {1, 2, 3}), 2);
  EXPECT_EQ(expand(x, {-1, 5}).sizes(), (Shape{3, 5}));
  EXPECT_EQ(error_of([&] { expand(arange(3), {2, 4}); }),
            "The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 1.  "
            "Target sizes: [2, 4].  Tensor sizes: [3]");
}

TEST(Views, SliceSelectNarrow) {
  Tensor x = view(arange(20), {4, 5});
  Tensor s = slice(x, 1, 1, std::nullopt, 2);  // x[:, 1::2]
  EXPECT_EQ(s.sizes(), (Shape{4, 2}));
  EXPECT_EQ(s.strides(), (Shape{5, 2}));
  EXPECT_EQ(s.storage_offset(), 1);
  EXPECT_EQ(at(s, {3, 1}), 18);
  EXPECT_EQ(slice(x, 0, -2, std::nullopt).storage_offset(), 10);  // x[-2:]
  EXPECT_EQ(slice(x, 0, 7, 9).sizes(), (Shape{0, 5}));           // clamped like Python
  EXPECT_EQ(slice(x, 0, 1, -1).sizes(), (Shape{2, 5}));           // x[1:-1]
  EXPECT_EQ(slice(x, 1, 0, 5, 3).sizes(), (Shape{4, 2}));
  EXPECT_EQ(error_of([&] { slice(x, 0, 0, 4, 0); }), "slice step must be positive");
  Tensor row = select(x, 0, -1);
  EXPECT_EQ(row.sizes(), (Shape{5}));
  EXPECT_EQ(row.storage_offset(), 15);
  Tensor col = select(x, 1, 2);
  EXPECT_EQ(col.strides(), (Shape{5}));
  EXPECT_EQ(at(col, {3}), 17);
  EXPECT_EQ(error_of([&] { select(x, 0, 4); }), "select(): index 4 out of range for tensor of size [4, 5] at dimension 0");
  Tensor n = narrow(x, 1, -3, 2);
  EXPECT_EQ(n.storage_offset(), 2);
  EXPECT_EQ(n.sizes(), (Shape{4, 2}));
  EXPECT_EQ(error_of([&] { narrow(x, 1, 4, 2); }), "start (4) + length (2) exceeds dimension size (5).");
}

TEST(Views, VersionCounterIsSharedByViews) {
  Tensor x = zeros({2, 3});
  EXPECT_EQ(x.version(), 0u);
  Tensor row = select(x, 0, 1);
  Tensor other = zeros({3});
  fill_(row, Scalar(7));
  EXPECT_EQ(x.version(), 1u);
  EXPECT_EQ(row.version(), 1u);
  copy_(transpose(x, 0, 1), ones({3, 2}));
  EXPECT_EQ(row.version(), 2u);
  EXPECT_EQ(other.version(), 0u);
  // The write through the row view is visible in the base.
  EXPECT_EQ(x.data_ptr<float>()[4], 1.0f);
  // Storage lives as long as any view does.
  const long holders = x.storage().use_count();
  {
    Tensor extra = view(x, {6});
    EXPECT_EQ(x.storage().use_count(), holders + 1);
  }
  EXPECT_EQ(x.storage().use_count(), holders);
}

TEST(Tensor, RequiresGradOnlyForFloatingTypes) {
  Tensor x = ones({2});
  x.set_requires_grad(true);
  EXPECT_TRUE(x.requires_grad());
  EXPECT_EQ(error_of([] { arange(3).set_requires_grad(true); }),
            "only Tensors of floating point and complex dtype can require gradients");
  EXPECT_EQ(error_of([] { Tensor::empty({2, -1}); }), "Trying to create tensor with negative dimension -1: [2, -1]");
}

}  // namespace
}  // namespace kiln::tensor
