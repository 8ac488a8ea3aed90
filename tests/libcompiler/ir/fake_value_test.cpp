#include "libcompiler/ir/fake_value.h"

#include <gtest/gtest.h>

namespace kiln::ir {
namespace {

TEST(FakeValue, ParsesAndPrintsTensorAnnotations) {
  FakeValue v = parseAnnotation("f32[s77, s27][s27, 1]cpu");
  const auto* t = std::get_if<TensorMeta>(&v);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->dtype, Dtype::Float32);
  ASSERT_EQ(t->sizes.size(), 2u);
  EXPECT_EQ(t->sizes[0], SymExpr::symbol("s77"));
  EXPECT_EQ(t->strides[1], SymExpr::integer(1));
  EXPECT_EQ(t->device, (Device{tensor::DeviceType::CPU, -1}));
  EXPECT_EQ(annotationText(v), "f32[s77, s27][s27, 1]cpu");

  FakeValue scalar = parseAnnotation("b8[][]cuda:0");
  ASSERT_TRUE(std::holds_alternative<TensorMeta>(scalar));
  EXPECT_EQ(std::get<TensorMeta>(scalar).device, (Device{tensor::DeviceType::CUDA, 0}));
  EXPECT_TRUE(std::get<TensorMeta>(scalar).sizes.empty());
  EXPECT_EQ(annotationText(scalar), "b8[][]cuda:0");

  EXPECT_EQ(annotationText(parseAnnotation("i64[2*s0, Max(1, s1)][Max(1, s1), 1]cpu")),
            "i64[2*s0, Max(1, s1)][Max(1, s1), 1]cpu");
}

TEST(FakeValue, ParsesSymbolicScalars) {
  FakeValue v = parseAnnotation("Sym(s77)");
  ASSERT_TRUE(std::holds_alternative<SymScalar>(v));
  EXPECT_EQ(std::get<SymScalar>(v).expr, SymExpr::symbol("s77"));
  EXPECT_EQ(annotationText(v), "Sym(s77)");
}

TEST(FakeValue, KeepsUnmodelledAnnotationsVerbatim) {
  for (const char* text : {"f32[10, 10]", "x32[3][1]cpu", "torch.Size", "f32[3][1, 1]cpu"}) {
    FakeValue v = parseAnnotation(text);
    EXPECT_TRUE(std::holds_alternative<OpaqueAnnotation>(v)) << text;
    EXPECT_EQ(annotationText(v), text);
  }
  EXPECT_EQ(annotationText(FakeValue{}), std::nullopt);
  EXPECT_EQ(annotationText(TensorTuple{}), std::nullopt);
}

TEST(FakeValue, ContiguousStridesAreRowMajor) {
  auto strides = TensorMeta::contiguousStrides({SymExpr::symbol("s0"), SymExpr::integer(3), SymExpr::symbol("s1")});
  ASSERT_EQ(strides.size(), 3u);
  EXPECT_EQ(strides[0].str(), "3*s1");
  EXPECT_EQ(strides[1].str(), "s1");
  EXPECT_EQ(strides[2].str(), "1");
}

}  // namespace
}  // namespace kiln::ir
