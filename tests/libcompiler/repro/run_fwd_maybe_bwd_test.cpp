// run_fwd_maybe_bwd and same_two_models' backward half: PyTorch's loss (sum / numel per tensor,
// the mean over the output tuple), the input gradients it collects, and a compiled run whose
// forward is exact but whose gradient is doubled, caught unless only_fwd.
#include <gtest/gtest.h>

#include "libcompiler/ir/readable_parser.h"
#include "libcompiler/ops/autograd/autograd_meta.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/repro/graph_accuracy.h"
#include "libcompiler/repro/run_fwd_maybe_bwd.h"
#include "libcompiler/tensor/factories.h"

namespace kiln::repro {
namespace {

using ops::IValue;
using tensor::Tensor;

Tensor values(std::vector<double> v) { return tensor::tensor_from_values(v, {int64_t(v.size())}); }

Tensor leaf(std::vector<double> v) {
  Tensor t = values(std::move(v));
  t.set_requires_grad(true);
  return t;
}

std::vector<double> elements(const Tensor& t) {
  const Tensor wide = ops::to_copy(ops::contiguous(t), tensor::DType::Float64);
  const double* data = static_cast<const double*>(wide.data_ptr());
  return std::vector<double>(data, data + wide.numel());
}

// x * 3 and x * y: the gradients of the loss are known in closed form.
std::unique_ptr<ir::GraphModule> two_outputs() {
  return ir::parseReadable("class GraphModule(torch.nn.Module):\n"
                           "    def forward(self, x, y):\n"
                           "        mul = x * 3\n"
                           "        mul_1 = x * y;  x = y = None\n"
                           "        return (mul, mul_1)\n");
}

TEST(ReduceToScalarLoss, IsTheMeanOfEachOutputsSumOverNumel) {
  // (sum(a) / 4 + sum(b) / 2) / 2 = (10 / 4 + 6 / 2) / 2
  const Tensor loss = reduce_to_scalar_loss({IValue(values({1, 2, 3, 4})), IValue(values({1, 5}))});
  EXPECT_DOUBLE_EQ(elements(loss)[0], 2.75);
  // An integer tensor's loss is a true division, as Python's /.
  const Tensor integer = reduce_to_scalar_loss({IValue(ops::to_copy(values({1, 2}), tensor::DType::Int64))});
  EXPECT_TRUE(tensor::is_floating_point(integer.dtype()));
  EXPECT_DOUBLE_EQ(elements(integer)[0], 1.5);
  EXPECT_THROW(reduce_to_scalar_loss({IValue()}), std::invalid_argument);
}

TEST(RunFwdMaybeBwd, CollectsTheInputsGradientsOnClones) {
  const auto module = two_outputs();
  const Tensor x = leaf({1, 2}), y = values({5, 7});
  const std::vector<IValue> results = run_fwd_maybe_bwd(interpreted(*module), {IValue(x), IValue(y)}, false);
  // mul, mul_1, x's gradient, y's (None: it does not require grad).
  ASSERT_EQ(results.size(), 4u);
  // loss = (sum(3x) / 2 + sum(x * y) / 2) / 2, so dloss/dx = (3 + y) / 4.
  EXPECT_EQ(elements(results[2].to_tensor()), (std::vector<double>{2, 2.5}));
  EXPECT_TRUE(results[3].is_none());
  // The caller's inputs are cloned, not differentiated.
  EXPECT_FALSE(ops::grad(x).defined());
}

TEST(RunFwdMaybeBwd, OnlyFwdOrNothingToDifferentiateRunsNoBackward) {
  const auto module = two_outputs();
  EXPECT_EQ(run_fwd_maybe_bwd(interpreted(*module), {IValue(leaf({1, 2})), IValue(values({5, 7}))}, true).size(), 2u);
  const std::vector<IValue> results = run_fwd_maybe_bwd(interpreted(*module), {IValue(values({1, 2})), IValue(values({5, 7}))}, false);
  ASSERT_EQ(results.size(), 4u);
  EXPECT_TRUE(results[2].is_none() && results[3].is_none());
}

// The compiled run: the graph, with every output o returned as o * 2 - o.detach() (o's value,
// twice o's gradient).
GraphForward doubles_the_gradient(const ir::GraphModule& module) {
  return [&module](const std::vector<IValue>& inputs) {
    std::vector<IValue> outputs;
    for (const IValue& o : interpreted(module)(inputs))
      outputs.emplace_back(ops::sub(ops::mul(o.to_tensor(), 2), ops::detach(o.to_tensor())));
    return outputs;
  };
}

TEST(SameTwoModels, AWrongGradientFailsUnlessOnlyFwd) {
  const auto module = two_outputs();
  const std::vector<IValue> inputs = {IValue(leaf({1, 2})), IValue(values({5, 7}))};
  std::vector<std::string> errors;
  const SameLog log{[&](const std::string& m) { errors.push_back(m); }, [](const std::string&) {}};
  GraphAccuracyOptions options;
  options.only_fwd = false;
  EXPECT_TRUE(same_two_models(*module, inputs, interpreted(*module), options, {}, log));
  EXPECT_FALSE(same_two_models(*module, inputs, doubles_the_gradient(*module), options, {}, log));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("shape=torch.Size([2])"), std::string::npos) << errors[0];
  options.only_fwd = true;
  EXPECT_TRUE(same_two_models(*module, inputs, doubles_the_gradient(*module), options, {}, log));
}

}  // namespace
}  // namespace kiln::repro
