// Each minifier pass on small graphs: its items and the candidates it makes.
#include <gtest/gtest.h>

#include "libcompiler/ir/readable_parser.h"
#include "libcompiler/ir/runnable_printer.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/repro/passes/pass.h"
#include "libcompiler/tensor/factories.h"

namespace kiln::repro {
namespace {

using ops::IValue;
using tensor::DType;
using tensor::Tensor;

const ReproPass& pass_named(const std::string& name) {
  for (const ReproPass* pass : repro_passes())
    if (pass->name == name) return *pass;
  throw std::invalid_argument("no pass " + name);
}

Tensor values(std::vector<double> v, tensor::Shape shape, DType dtype = DType::Float32) {
  return tensor::tensor_from_values(v, shape, dtype);
}

std::vector<std::string> forward_lines(const ReproState& state) {
  std::vector<std::string> lines = ir::printRunnableLines(*state.module);
  auto forward = std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return l.find("def forward") != std::string::npos; });
  return {forward, lines.end()};
}

std::vector<double> doubles(const Tensor& t) {
  const Tensor flat = ops::contiguous(ops::to_copy(t, DType::Float64));
  return std::vector<double>(flat.data_ptr<double>(), flat.data_ptr<double>() + flat.numel());
}

bool equal(const IValue& a, const Tensor& b) {
  return a.is_tensor() && a.to_tensor().sizes() == b.sizes() && doubles(a.to_tensor()) == doubles(b);
}

// relu(x) * 2 + y, summed; relu is returned too.
class PassTest : public ::testing::Test {
 protected:
  ReproState state{ir::parseReadable("class GraphModule(torch.nn.Module):\n"
                                     "    def forward(self, x, y):\n"
                                     "        relu = torch.ops.aten.relu.default(x);  x = None\n"
                                     "        mul = torch.ops.aten.mul.Tensor(relu, 2)\n"
                                     "        add = torch.ops.aten.add.Tensor(mul, y);  mul = y = None\n"
                                     "        sum_1 = torch.ops.aten.sum.default(add);  add = None\n"
                                     "        return (sum_1, relu)\n"),
                   {IValue(values({-1, 2, -3, 4}, {4})), IValue(values({1, 1, 1, 1}, {4}))}};
  NodeValues node_values_ = node_values(state);
  PassInput input{state, node_values_};
};

TEST_F(PassTest, NodeValuesAreTheEagerRun) {
  EXPECT_TRUE(equal(node_values_.at("mul"), values({0, 4, 0, 8}, {4})));
  EXPECT_TRUE(equal(node_values_.at("sum_1"), values({16}, {})));
}

TEST_F(PassTest, TruncateSuffixKeepsThePrefixAndReturnsWhatTheRestRead) {
  const ReproPass& pass = pass_named("Truncate suffix");
  EXPECT_EQ(pass.item_count(input), 4u);
  const std::vector<size_t> second = {1};
  auto candidate = pass.candidate(input, second);
  ASSERT_TRUE(candidate);
  EXPECT_EQ(forward_lines(*candidate), (std::vector<std::string>{
                                           "    def forward(self, x, y):",
                                           "        relu = torch.ops.aten.relu.default(x);  x = None",
                                           "        mul = torch.ops.aten.mul.Tensor(relu, 2)",
                                           "        return (relu, mul)",
                                       }));
}

TEST_F(PassTest, DeltaDebuggingCutsNodesIntoInputsWithTheirValues) {
  const ReproPass& pass = pass_named("Delta debugging");
  EXPECT_EQ(pass.item_count(input), 4u);
  const std::vector<size_t> add_only = {2};
  auto candidate = pass.candidate(input, add_only);
  ASSERT_TRUE(candidate);
  EXPECT_EQ(forward_lines(*candidate), (std::vector<std::string>{
                                           "    def forward(self, x, y, mul):",
                                           "        add = torch.ops.aten.add.Tensor(mul, y);  mul = y = None",
                                           "        return (add,)",
                                       }));
  ASSERT_EQ(candidate->inputs.size(), 3u);
  EXPECT_TRUE(equal(candidate->inputs[2], values({0, 4, 0, 8}, {4})));
  // Everything kept: the same graph.
  const std::vector<size_t> all = {0, 1, 2, 3};
  EXPECT_EQ(ir::printRunnable(*pass.candidate(input, all)->module), ir::printRunnable(*state.module));
}

TEST_F(PassTest, DropUnneededOutputs) {
  const ReproPass& pass = pass_named("Remove outputs");
  EXPECT_EQ(pass.item_count(input), 2u);
  const std::vector<size_t> relu_only = {1};
  auto candidate = pass.candidate(input, relu_only);
  EXPECT_EQ(forward_lines(*candidate), (std::vector<std::string>{
                                           "    def forward(self, x, y):",
                                           "        relu = torch.ops.aten.relu.default(x);  x = None",
                                           "        return (relu,)",
                                       }));
}

TEST_F(PassTest, UnusedInputsGoAfterDeadCode) {
  const ReproPass& outputs = pass_named("Remove outputs");
  const std::vector<size_t> relu_only = {1};
  ReproState small = *outputs.candidate(input, relu_only);
  NodeValues small_values = node_values(small);
  const PassInput small_input{small, small_values};
  const ReproPass& dead_code = pass_named("Eliminate dead code");
  EXPECT_EQ(dead_code.item_count(small_input), 0u);  // keep_outputs already dropped what died
  const ReproPass& unused = pass_named("Remove unused inputs");
  ASSERT_EQ(unused.item_count(small_input), 1u);
  auto candidate = unused.candidate(small_input, {});
  EXPECT_EQ(forward_lines(*candidate)[0], "    def forward(self, x):");
  ASSERT_EQ(candidate->inputs.size(), 1u);
  EXPECT_TRUE(equal(candidate->inputs[0], values({-1, 2, -3, 4}, {4})));
}

TEST(Passes, EliminateDeadCode) {
  ReproState state{ir::parseReadable("class GraphModule(torch.nn.Module):\n"
                                     "    def forward(self, x):\n"
                                     "        neg = torch.ops.aten.neg.default(x)\n"
                                     "        relu = torch.ops.aten.relu.default(x);  x = None\n"
                                     "        return (relu,)\n"),
                   {IValue(values({1, -1}, {2}))}};
  NodeValues node_values_ = node_values(state);
  const PassInput input{state, node_values_};
  const ReproPass& pass = pass_named("Eliminate dead code");
  ASSERT_EQ(pass.item_count(input), 1u);
  EXPECT_EQ(call_node_count(pass.candidate(input, {})->module->graph), 1u);
}

TEST(Passes, ConsolidateInputsMergesEqualValues) {
  ReproState state{ir::parseReadable("class GraphModule(torch.nn.Module):\n"
                                     "    def forward(self, a, b, c):\n"
                                     "        add = torch.ops.aten.add.Tensor(a, b);  a = b = None\n"
                                     "        mul = torch.ops.aten.mul.Tensor(add, c);  add = c = None\n"
                                     "        return (mul,)\n"),
                   {IValue(values({1, 2}, {2})), IValue(values({3, 4}, {2})), IValue(values({1, 2}, {2}))}};
  NodeValues node_values_ = node_values(state);
  const PassInput input{state, node_values_};
  const ReproPass& pass = pass_named("Consolidate inputs");
  ASSERT_EQ(pass.item_count(input), 1u);
  auto merged = pass.candidate(input, {});
  EXPECT_EQ(forward_lines(*merged), (std::vector<std::string>{
                                        "    def forward(self, a, b):",
                                        "        add = torch.ops.aten.add.Tensor(a, b);  b = None",
                                        "        mul = torch.ops.aten.mul.Tensor(add, a);  add = a = None",
                                        "        return (mul,)",
                                    }));
  EXPECT_EQ(merged->inputs.size(), 2u);
}

TEST(Passes, ShrinkTensorShapesKeepsTheLeadingCorner) {
  std::vector<double> v(6 * 8);
  for (size_t i = 0; i < v.size(); ++i) v[i] = double(i);
  ReproState state{ir::parseReadable("class GraphModule(torch.nn.Module):\n"
                                     "    def forward(self, x, y):\n"
                                     "        relu = torch.ops.aten.relu.default(x);  x = None\n"
                                     "        return (relu, y)\n"),
                   {IValue(values(v, {6, 8})), IValue(values({1, 2}, {2}))}};
  NodeValues node_values_ = node_values(state);
  const PassInput input{state, node_values_};
  const ReproPass& pass = pass_named("Shrink tensor shapes");
  ASSERT_EQ(pass.item_count(input), 1u);  // y is small already
  auto shrunk = pass.candidate(input, {});
  EXPECT_TRUE(equal(shrunk->inputs[0], values({0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27}, {4, 4})));
  const auto* meta = std::get_if<ir::TensorMeta>(&shrunk->module->graph.placeholders()[0]->meta.value);
  ASSERT_TRUE(meta);
  EXPECT_EQ(meta->sizes[0].str(), "4");
  const std::vector<size_t> keep = {0};
  EXPECT_EQ(pass.candidate(input, keep)->inputs[0].to_tensor().sizes(), (tensor::Shape{6, 8}));
}

TEST(Passes, SimplifyDtypesMakesFloat32) {
  ReproState state{ir::parseReadable("class GraphModule(torch.nn.Module):\n"
                                     "    def forward(self, x, n):\n"
                                     "        relu = torch.ops.aten.relu.default(x);  x = None\n"
                                     "        return (relu, n)\n"),
                   {IValue(values({1.5, -2}, {2}, DType::Float64)), IValue(values({1, 2}, {2}, DType::Int64))}};
  NodeValues node_values_ = node_values(state);
  const PassInput input{state, node_values_};
  const ReproPass& pass = pass_named("Simplify dtypes");
  ASSERT_EQ(pass.item_count(input), 1u);
  auto simpler = pass.candidate(input, {});
  EXPECT_EQ(simpler->inputs[0].to_tensor().dtype(), DType::Float32);
  EXPECT_EQ(simpler->inputs[1].to_tensor().dtype(), DType::Int64);
}

TEST(Passes, AKeptGetitemOfACutTupleIsCutItself) {
  ReproState state{ir::parseReadable("class GraphModule(torch.nn.Module):\n"
                                     "    def forward(self, x):\n"
                                     "        max_1 = torch.ops.aten.max.dim(x, 0);  x = None\n"
                                     "        getitem = max_1[0];  max_1 = None\n"
                                     "        neg = torch.ops.aten.neg.default(getitem);  getitem = None\n"
                                     "        return (neg,)\n"),
                   {IValue(values({1, 5, 3, 2}, {2, 2}))}};
  NodeValues node_values_ = node_values(state);
  auto candidate = keep_nodes(state, node_values_, {"getitem", "neg"});
  ASSERT_TRUE(candidate);
  EXPECT_EQ(forward_lines(*candidate), (std::vector<std::string>{
                                           "    def forward(self, x, getitem):",
                                           "        neg = torch.ops.aten.neg.default(getitem);  getitem = None",
                                           "        return (neg,)",
                                       }));
  EXPECT_TRUE(equal(candidate->inputs[1], values({3, 5}, {2})));
}

}  // namespace
}  // namespace kiln::repro
