// Guards hold or fail with Dynamo's reasons, and print as its guard lines.
#include <gtest/gtest.h>

#include "libcompiler/capture/guards.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/torch/tensor_object.h"
#include "libcompiler/python/torch/torch_module.h"
#include "libcompiler/tensor/factories.h"

namespace kiln::capture {
namespace {

using namespace python;

class GuardsTest : public ::testing::Test {
 protected:
  GuardsTest() { install_torch(interp); }
  Interpreter interp;
};

Guard tensor_guard(const std::string& name, std::vector<std::optional<int64_t>> sizes, std::vector<std::optional<int64_t>> strides) {
  Guard g(GuardKind::TensorMatch, Source::local(name));
  g.dtype = tensor::DType::Float32;
  g.sizes = std::move(sizes);
  g.strides = std::move(strides);
  return g;
}

TEST_F(GuardsTest, TensorMatchReasons) {
  GuardSet guards;
  guards.add(tensor_guard("x", {3, 3}, {3, 1}));
  FrameInputs inputs;
  inputs.locals = {{"x", wrap_tensor(tensor::ones({3, 3}))}};
  EXPECT_EQ(guards.check(interp, inputs), std::nullopt);
  inputs.locals = {{"x", wrap_tensor(tensor::ones({4, 4}))}};
  EXPECT_EQ(guards.check(interp, inputs), "tensor 'x' size mismatch at index 0. expected 3, actual 4");
  inputs.locals = {{"x", wrap_tensor(tensor::ones({3, 3}, tensor::DType::Float64))}};
  EXPECT_EQ(guards.check(interp, inputs), "tensor 'x' dtype mismatch. expected Float, actual Double");
  inputs.locals = {{"x", wrap_tensor(tensor::ones({3}))}};
  EXPECT_EQ(guards.check(interp, inputs), "tensor 'x' rank mismatch. expected 2, actual 1");
  tensor::Tensor grad = tensor::ones({3, 3});
  grad.set_requires_grad(true);
  inputs.locals = {{"x", wrap_tensor(grad)}};
  EXPECT_EQ(guards.check(interp, inputs), "tensor 'x' requires_grad mismatch. expected requires_grad=0");
  // Dynamic sizes (None) take any value.
  GuardSet dynamic;
  dynamic.add(tensor_guard("x", {std::nullopt, 3}, {3, 1}));
  inputs.locals = {{"x", wrap_tensor(tensor::ones({7, 3}))}};
  EXPECT_EQ(dynamic.check(interp, inputs), std::nullopt);
}

TEST_F(GuardsTest, ConstantGuardsNameLocalsAndShowTheUserStack) {
  GuardSet guards;
  Guard equals(GuardKind::EqualsMatch, Source::local("c"), py_float(1.5));
  guards.add(equals);
  guards.attribute(0, "return x + c  # home/user/f.py:5 in fn", UserFrame{"/home/user/f.py", 5, "fn", "return x + c", true});
  FrameInputs inputs;
  inputs.locals = {{"c", py_float(1.5)}};
  EXPECT_EQ(guards.check(interp, inputs), std::nullopt);
  inputs.locals = {{"c", py_float(2.5)}};
  EXPECT_EQ(guards.check(interp, inputs),
            "c == 1.5                                                 # return x + c  # home/user/f.py:5 in fn\n"
            "User stack trace:\n"
            "  File \"/home/user/f.py\", line 5, in fn\n"
            "    return x + c");
  // An int is not a float of the same value.
  inputs.locals = {{"c", py_int(1)}};
  EXPECT_NE(guards.check(interp, inputs), std::nullopt);
}

TEST_F(GuardsTest, ContainerAndShapeGuards) {
  GuardSet guards;
  Guard length(GuardKind::LengthCheck, Source::local("xs"));
  length.length = 2;
  guards.add(length);
  Guard bound(GuardKind::SizeLowerBound, Source::item(Source::local("xs"), py_int(0)));
  bound.dim = 0;
  guards.add(bound);
  FrameInputs inputs;
  inputs.locals = {{"xs", py_list({wrap_tensor(tensor::ones({5})), py_int(1)})}};
  EXPECT_EQ(guards.check(interp, inputs), std::nullopt);
  inputs.locals = {{"xs", py_list({wrap_tensor(tensor::ones({1})), py_int(1)})}};
  EXPECT_EQ(guards.check(interp, inputs), "2 <= xs[0].size()[0]");
  inputs.locals = {{"xs", py_list({py_int(1)})}};
  EXPECT_EQ(guards.check(interp, inputs), "len(xs) == 2");
  EXPECT_EQ(guard_line(bound), "2 <= L['xs'][0].size()[0]");
}

}  // namespace
}  // namespace kiln::capture
