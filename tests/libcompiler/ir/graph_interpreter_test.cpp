// The graph interpreter: hand-written graphs in both printed forms, the float64 reference mode,
// errors, and every aot_inference / aot_forward / dynamo_output graph of the real traces run on
// random inputs of their annotated shapes.
#include "libcompiler/ir/graph_interpreter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <map>
#include <set>

#include "libcompiler/ir/readable_parser.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/cpu_generator.h"
#include "libcompiler/tensor/factories.h"
#include "libcompiler/tensor/random_ops.h"
#include "libcompiler/tensor/torch_error.h"
#include "tests/libcompiler/ir/real_graph_payloads.h"
#include "tests/support/shared_data.h"

namespace kiln::ir {
namespace {

using ops::IValue;
using ops::Tensor;
using tensor::DType;

double maxAbsDifference(const Tensor& a, const Tensor& b) {
  EXPECT_EQ(a.sizes(), b.sizes());
  if (a.numel() == 0) return 0;
  const Tensor diff = ops::abs(ops::sub(ops::to_dtype(a, DType::Float64), ops::to_dtype(b, DType::Float64)));
  return tensor::item(ops::max(diff)).to<double>();
}

std::vector<IValue> runText(const std::string& text, const std::vector<IValue>& inputs, InterpreterOptions options = {}) {
  const auto module = parseReadable(text);
  return GraphInterpreter(*module, std::move(options)).run(inputs);
}

TEST(GraphInterpreter, RunsAtenTargetsThroughTheOpTable) {
  const std::string text =
      "class <lambda>(torch.nn.Module):\n"
      "    def forward(self, arg0_1: \"f32[4, 3][3, 1]cpu\", arg1_1: \"f32[2, 3][3, 1]cpu\", arg2_1: \"f32[2][1]cpu\"):\n"
      "        permute: \"f32[3, 2][1, 3]cpu\" = torch.ops.aten.permute.default(arg1_1, [1, 0]);  arg1_1 = None\n"
      "        addmm: \"f32[4, 2][2, 1]cpu\" = torch.ops.aten.addmm.default(arg2_1, arg0_1, permute);  arg2_1 = permute = None\n"
      "        var_mean = torch.ops.aten.var_mean.correction(addmm, [1], correction = 0, keepdim = True)\n"
      "        getitem: \"f32[4, 1][1, 1]cpu\" = var_mean[0]\n"
      "        getitem_1: \"f32[4, 1][1, 1]cpu\" = var_mean[1];  var_mean = None\n"
      "        mul: \"f32[4, 2][2, 1]cpu\" = torch.ops.aten.mul.Tensor(addmm, 2)\n"
      "        sum_1: \"f32[][]cpu\" = torch.ops.aten.sum.dim_IntList(mul, [0, 1]);  mul = None\n"
      "        return (addmm, getitem, getitem_1, sum_1)\n";
  const Tensor x = tensor::randn({4, 3}), w = tensor::randn({2, 3}), b = tensor::randn({2});
  const auto out = runText(text, {x, w, b});
  ASSERT_EQ(out.size(), 4u);
  const Tensor expected = ops::addmm(b, x, ops::t(w));
  EXPECT_EQ(maxAbsDifference(out[0].to_tensor(), expected), 0.0);
  EXPECT_LT(maxAbsDifference(out[1].to_tensor(), ops::var(expected, std::vector<int64_t>{1}, tensor::Scalar(0), true)), 1e-6);
  EXPECT_LT(maxAbsDifference(out[2].to_tensor(), ops::mean(expected, {1}, true)), 1e-6);
  EXPECT_LT(maxAbsDifference(out[3].to_tensor(), ops::sum(ops::mul(expected, tensor::Scalar(2)))), 1e-5);
}

TEST(GraphInterpreter, RunsDynamoTargetsOperatorsAndMethods) {
  const std::string text =
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, L_a_: \"f32[6, 4][4, 1]cpu\"):\n"
      "        l_a_ = L_a_\n"
      "        abs_1: \"f32[6, 4][4, 1]cpu\" = torch.abs(l_a_)\n"
      "        add: \"f32[6, 4][4, 1]cpu\" = abs_1 + 1;  abs_1 = None\n"
      "        x: \"f32[6, 4][4, 1]cpu\" = l_a_ / add;  add = None\n"
      "        size = x.size()\n"
      "        getitem = size[1];  size = None\n"
      "        mul = getitem * 2;  getitem = None\n"
      "        sum_1: \"f32[6][1]cpu\" = x.sum(1)\n"
      "        lt: \"b8[6][1]cpu\" = sum_1 < 0\n"
      "        long: \"i64[6][1]cpu\" = lt.long();  lt = None\n"
      "        getitem_1: \"f32[4][1]cpu\" = x[2]\n"
      "        getitem_2: \"f32[3, 2][4, 1]cpu\" = x[(slice(1, 4, None), slice(None, 2, None))]\n"
      "        relu: \"f32[6, 4][4, 1]cpu\" = torch.nn.functional.relu(l_a_, inplace = False);  l_a_ = None\n"
      "        return (x, mul, long, getitem_1, getitem_2, relu)\n";
  const Tensor a = tensor::randn({6, 4});
  const auto out = runText(text, {a});
  ASSERT_EQ(out.size(), 6u);
  const Tensor x = ops::div(a, ops::add(ops::abs(a), tensor::Scalar(1)));
  EXPECT_EQ(maxAbsDifference(out[0].to_tensor(), x), 0.0);
  EXPECT_EQ(out[1].to_int(), 8);
  EXPECT_EQ(out[2].to_tensor().dtype(), DType::Int64);
  EXPECT_EQ(maxAbsDifference(out[2].to_tensor(), ops::lt(ops::sum(x, {1}), tensor::Scalar(0))), 0.0);
  EXPECT_EQ(maxAbsDifference(out[3].to_tensor(), ops::select(x, 0, 2)), 0.0);
  EXPECT_EQ(maxAbsDifference(out[4].to_tensor(), ops::slice(ops::slice(x, 0, 1, 4), 1, std::nullopt, 2)), 0.0);
  EXPECT_EQ(maxAbsDifference(out[5].to_tensor(), ops::relu(a)), 0.0);
}

// x.view(-1), x.view(2, -1), x.permute(1, 0): sizes as separate ints, as Dynamo records them.
TEST(GraphInterpreter, MethodsTakeSizesAsSeparateInts) {
  const std::string text =
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, L_a_: \"f32[6, 4][4, 1]cpu\"):\n"
      "        l_a_ = L_a_\n"
      "        flat: \"f32[24][1]cpu\" = l_a_.view(-1)\n"
      "        two: \"f32[2, 12][12, 1]cpu\" = l_a_.view(2, -1)\n"
      "        swapped: \"f32[4, 6][1, 4]cpu\" = l_a_.permute(1, 0);  l_a_ = None\n"
      "        return (flat, two, swapped)\n";
  const Tensor a = tensor::randn({6, 4});
  for (bool float64 : {false, true}) {
    InterpreterOptions options;
    options.float64 = float64;
    const auto out = runText(text, {a}, options);
    ASSERT_EQ(out.size(), 3u);
    EXPECT_EQ(maxAbsDifference(out[0].to_tensor(), ops::reshape(a, {24})), 0.0);
    EXPECT_EQ(out[1].to_tensor().sizes(), (tensor::Shape{2, 12}));
    EXPECT_EQ(maxAbsDifference(out[2].to_tensor(), ops::t(a)), 0.0);
  }
}

TEST(GraphInterpreter, Float64ModeUpcastsInputsAttributesAndCasts) {
  const std::string text =
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, arg0_1: \"f32[5][1]cpu\", arg1_1: \"i64[5][1]cpu\"):\n"
      "        _tensor_constant0 = self._tensor_constant0\n"
      "        exp: \"f32[5][1]cpu\" = torch.ops.aten.exp.default(arg0_1);  arg0_1 = None\n"
      "        mul: \"f32[5][1]cpu\" = torch.ops.aten.mul.Tensor(exp, _tensor_constant0);  exp = None\n"
      "        convert_element_type: \"f16[5][1]cpu\" = torch.ops.prims.convert_element_type.default(mul, torch.float16)\n"
      "        add: \"i64[5][1]cpu\" = torch.ops.aten.add.Tensor(arg1_1, 1);  arg1_1 = None\n"
      "        return (mul, convert_element_type, add)\n";
  const auto module = parseReadable(text);
  const Tensor x = tensor::randn({5}), scale = tensor::randn({5});
  const Tensor ints = tensor::randint(0, 10, {5});
  GraphInterpreter plain(*module);
  plain.bindAttribute("_tensor_constant0", scale);
  GraphInterpreter reference(*module, {.float64 = true, .onNodeValue = {}});
  reference.bindAttribute("_tensor_constant0", scale);
  const auto low = plain.run({x, ints});
  const auto high = reference.run({x, ints});
  EXPECT_EQ(low[0].to_tensor().dtype(), DType::Float32);
  EXPECT_EQ(low[1].to_tensor().dtype(), DType::Float16);
  EXPECT_EQ(high[0].to_tensor().dtype(), DType::Float64);
  EXPECT_EQ(high[1].to_tensor().dtype(), DType::Float64);  // the cast to float16 became one to float64
  EXPECT_EQ(high[2].to_tensor().dtype(), DType::Int64);    // integer inputs stay as they are
  const Tensor exact = ops::mul(ops::exp(ops::to_dtype(x, DType::Float64)), ops::to_dtype(scale, DType::Float64));
  EXPECT_EQ(maxAbsDifference(high[0].to_tensor(), exact), 0.0);
  EXPECT_GT(maxAbsDifference(low[0].to_tensor(), exact), 0.0);  // float32 rounding is visible
  EXPECT_LT(maxAbsDifference(low[0].to_tensor(), exact), 1e-4);
}

TEST(GraphInterpreter, ReportsNodeValuesAndErrors) {
  const std::string text =
      "class <lambda>(torch.nn.Module):\n"
      "    def forward(self, arg0_1: \"f32[2, 3][3, 1]cpu\", arg1_1: \"f32[2, 3][3, 1]cpu\"):\n"
      "        neg: \"f32[2, 3][3, 1]cpu\" = torch.ops.aten.neg.default(arg0_1)\n"
      "        mm: \"f32[2, 3][3, 1]cpu\" = torch.ops.aten.mm.default(neg, arg1_1)\n"
      "        return (mm,)\n";
  std::vector<std::string> seen;
  InterpreterOptions options;
  options.onNodeValue = [&](const Node& node, const IValue&) { seen.push_back(node.name()); };
  try {
    runText(text, {tensor::randn({2, 3}), tensor::randn({2, 3})}, options);
    FAIL() << "mm of 2x3 and 2x3 ran";
  } catch (const tensor::TorchError& e) {
    EXPECT_EQ(std::string(e.what()), "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)");
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"arg0_1", "arg1_1", "neg"}));
  EXPECT_THROW(runText(text, {tensor::randn({2, 3})}), std::invalid_argument);  // too few inputs

  const std::string unknown =
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, L_x_: \"f32[2][1]cpu\"):\n"
      "        l_x_ = L_x_\n"
      "        y = torch.frobnicate(l_x_);  l_x_ = None\n"
      "        return (y,)\n";
  EXPECT_THROW(runText(unknown, {tensor::randn({2})}), std::invalid_argument);
}

// ---- real payloads

std::map<std::string, int64_t> symbolValues(const GraphModule& module) {
  std::map<std::string, int64_t> values;
  int64_t next = 5;
  for (const Node* node : module.graph.placeholders()) {
    std::vector<std::string> symbols;
    if (const auto* meta = std::get_if<TensorMeta>(&node->meta.value))
      for (const SymExpr& size : meta->sizes)
        for (const std::string& s : size.freeSymbols()) symbols.push_back(s);
    if (const auto* sym = std::get_if<SymScalar>(&node->meta.value)) symbols = sym->expr.freeSymbols();
    for (const std::string& s : symbols)
      if (!values.count(s)) values[s] = next++;
  }
  return values;
}

std::vector<int64_t> concrete(const std::vector<SymExpr>& exprs, const std::map<std::string, int64_t>& symbols) {
  std::vector<int64_t> out;
  for (const SymExpr& e : exprs) out.push_back(e.evaluate(symbols).value());
  return out;
}

// Random floating values, zeros for integer ones (valid indices and class targets), as annotated.
Tensor makeTensor(const TensorMeta& meta, const std::map<std::string, int64_t>& symbols) {
  const DType dtype = *tensor::dtype_from_name(dtypeTorchName(meta.dtype));
  const auto sizes = concrete(meta.sizes, symbols);
  return tensor::is_floating_point(dtype) ? tensor::randn(sizes, dtype) : ops::zeros(sizes, dtype);
}

std::vector<IValue> makeInputs(const GraphModule& module, const std::map<std::string, int64_t>& symbols) {
  std::vector<IValue> inputs;
  for (const Node* node : module.graph.placeholders()) {
    if (const auto* sym = std::get_if<SymScalar>(&node->meta.value))
      inputs.emplace_back(sym->expr.evaluate(symbols).value());
    else
      inputs.emplace_back(makeTensor(std::get<TensorMeta>(node->meta.value), symbols));
  }
  return inputs;
}

// The parameters and optimizer state that get_attr nodes read, random as annotated.
void bindAttributes(GraphInterpreter& interpreter, const GraphModule& module, const std::map<std::string, int64_t>& symbols) {
  for (const Node* node : module.graph.nodes())
    if (node->op() == OpCode::GetAttr)
      interpreter.bindAttribute(node->target(), makeTensor(std::get<TensorMeta>(node->meta.value), symbols));
}

// Float32 against the float64 reference: the difference relative to the reference's magnitude.
double relativeDifference(const Tensor& low, const Tensor& reference) {
  if (low.numel() == 0) return 0;
  const double scale = tensor::item(ops::max(ops::abs(reference))).to<double>();
  return maxAbsDifference(low, reference) / std::max(1.0, scale);
}

// Targets of a module (and its submodules) that the interpreter cannot run.
std::set<std::string> missingTargets(const GraphModule& module) {
  std::set<std::string> missing;
  for (const Node* node : module.graph.nodes()) {
    if (node->op() == OpCode::GetAttr && !std::holds_alternative<TensorMeta>(node->meta.value))
      missing.insert("get_attr of a submodule");
    if (node->op() != OpCode::CallFunction) continue;
    const std::string& t = node->target();
    if (t.starts_with("torch.ops.aten.")) {
      std::string name = t.substr(15);
      if (name.ends_with(".default")) name.resize(name.size() - 8);
      if (!ops::find_op(name)) missing.insert(t);
    } else if (t != "torch.ops.prims.convert_element_type.default" && t != "operator.getitem" &&
               opNameForTarget(t).empty()) {
      missing.insert(t);
    }
  }
  return missing;
}

bool isGraphToRun(const std::string& kind) {
  return kind == "aot_inference_graph" || kind == "aot_forward_graph" || kind == "dynamo_output_graph";
}

TEST(GraphInterpreter, RunsTheRealGraphsOnRandomInputsOfTheirAnnotatedShapes) {
  KILN_REQUIRE_SHARED();
  std::map<std::string, int> ran, skipped;
  std::map<std::string, int> missing;
  int crossChecked = 0;
  for (const auto& log : test::realTraceLogs()) {
    // The last dynamo graph's outputs on the inputs it ran on: the AOT graph that follows it
    // computes the same function of the same inputs (parameters lifted in the same order).
    std::optional<std::pair<std::vector<IValue>, std::vector<IValue>>> lastDynamo;
    for (const test::Payload& payload : test::graphPayloads(log)) {
      if (!isGraphToRun(payload.kind)) continue;
      const std::string context = payload.kind + " at " + payload.where;
      const auto module = parseReadable(payload.text);
      auto unsupported = missingTargets(*module);
      for (const Node* node : module->graph.placeholders())
        if (const auto* meta = std::get_if<TensorMeta>(&node->meta.value); meta && meta->device.type != tensor::DeviceType::CPU)
          unsupported.insert("inputs on " + std::string(tensor::device_type_name(meta->device.type)));
      if (!unsupported.empty()) {
        ++skipped[payload.kind];
        for (const std::string& t : unsupported) ++missing[t];
        if (payload.kind == "dynamo_output_graph") lastDynamo.reset();
        continue;
      }
      const auto symbols = symbolValues(*module);
      tensor::default_cpu_generator().manual_seed(0);
      const std::vector<IValue> inputs = makeInputs(*module, symbols);
      // Every node's value has the dtype and shape its annotation says (and the strides, for
      // the AOT graphs, whose annotations come from the kernels' own meta functions).
      InterpreterOptions options;
      options.onNodeValue = [&](const Node& node, const IValue& value) {
        const auto* meta = std::get_if<TensorMeta>(&node.meta.value);
        if (!meta || !value.is_tensor()) return;
        const Tensor& t = value.to_tensor();
        EXPECT_EQ(tensor::dtype_name(t.dtype()), dtypeTorchName(meta->dtype)) << context << ", node " << node.name();
        EXPECT_EQ(t.sizes(), concrete(meta->sizes, symbols)) << context << ", node " << node.name();
        if (payload.kind != "dynamo_output_graph" && t.numel() > 1) {
          EXPECT_EQ(t.strides(), concrete(meta->strides, symbols)) << context << ", node " << node.name();
        }
      };
      GraphInterpreter interpreter(*module, options);
      GraphInterpreter float64(*module, {.float64 = true, .onNodeValue = {}});
      tensor::default_cpu_generator().manual_seed(1);
      bindAttributes(float64, *module, symbols);
      tensor::default_cpu_generator().manual_seed(1);
      bindAttributes(interpreter, *module, symbols);
      std::vector<IValue> outputs, reference;
      try {
        outputs = interpreter.run(inputs);
        reference = float64.run(inputs);
      } catch (const std::exception& e) {
        ADD_FAILURE() << context << ": " << e.what();
        continue;
      }
      ++ran[payload.kind];
      // The float64 reference agrees within float32 rounding.
      ASSERT_EQ(reference.size(), outputs.size()) << context;
      for (size_t i = 0; i < outputs.size(); ++i) {
        if (!outputs[i].is_tensor()) continue;
        const Tensor& low = outputs[i].to_tensor();
        if (!tensor::is_floating_point(low.dtype())) continue;
        EXPECT_EQ(reference[i].to_tensor().dtype(), DType::Float64) << context;
        EXPECT_LT(relativeDifference(low, reference[i].to_tensor()), 1e-5) << context << ", output " << i;
      }
      if (payload.kind == "dynamo_output_graph") {
        lastDynamo.emplace(inputs, outputs);
        continue;
      }
      if (lastDynamo && lastDynamo->first.size() == inputs.size()) {
        GraphInterpreter aot(*module);
        tensor::default_cpu_generator().manual_seed(1);
        bindAttributes(aot, *module, symbols);
        const auto aotOutputs = aot.run(lastDynamo->first);
        const auto& dynamoOutputs = lastDynamo->second;
        ASSERT_GE(aotOutputs.size(), dynamoOutputs.size()) << context;
        for (size_t i = 0; i < dynamoOutputs.size(); ++i) {
          if (!dynamoOutputs[i].is_tensor()) continue;
          EXPECT_LT(maxAbsDifference(aotOutputs[i].to_tensor(), dynamoOutputs[i].to_tensor()), 1e-5)
              << context << ", output " << i << " differs from the dynamo graph's";
        }
        ++crossChecked;
      }
      lastDynamo.reset();
    }
  }
  for (const auto& [kind, count] : ran) std::cout << "ran " << count << " " << kind << " payloads\n";
  for (const auto& [kind, count] : skipped) std::cout << "skipped " << count << " " << kind << " payloads\n";
  for (const auto& [target, count] : missing) std::cout << "  not runnable: " << target << " (" << count << ")\n";
  std::cout << crossChecked << " AOT graphs agree with their dynamo graph\n";
  EXPECT_GE(ran["aot_inference_graph"], 26);
  EXPECT_GE(ran["aot_forward_graph"], 3);
  EXPECT_GE(ran["dynamo_output_graph"], 36);
  EXPECT_GE(crossChecked, 10);
}

}  // namespace
}  // namespace kiln::ir
