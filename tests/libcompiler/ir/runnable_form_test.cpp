// The runnable form of repro files and fx_graph_runnable.py: exact printing, parsing back, and
// the round trip of every Repro module PyTorch 2.11 wrote under ../shared.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "libcompiler/ir/readable_parser.h"
#include "libcompiler/ir/runnable_parser.h"
#include "libcompiler/ir/runnable_printer.h"
#include "tests/support/shared_data.h"

namespace kiln::ir {
namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST(RunnablePrinter, PrintsTheReproModuleWithoutAnnotationsOrComments) {
  const auto module = parseReadable(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, arg0_1: \"f32[4, 3][3, 1]cpu\"):\n"
      "        # File: /x.py:3 in f, code: return x.relu() * w\n"
      "        _tensor_constant0: \"f32[2][1]cpu\" = self._tensor_constant0\n"
      "        weight: \"f32[4, 3][3, 1]cpu\" = self.weight\n"
      "        relu: \"f32[4, 3][3, 1]cpu\" = torch.ops.aten.relu.default(arg0_1);  arg0_1 = None\n"
      "        mul: \"f32[4, 3][3, 1]cpu\" = torch.ops.aten.mul.Tensor(relu, weight);  relu = weight = None\n"
      "        var_mean = torch.ops.aten.var_mean.correction(mul, [1], correction = 0, keepdim = True);  mul = None\n"
      "        getitem: \"f32[4, 1][1, 1]cpu\" = var_mean[0];  var_mean = None\n"
      "        return (getitem, _tensor_constant0)\n");
  module->attributes["weight"].isParameter = true;
  module->attributes["_tensor_constant0"].inlineRepr = "tensor([1., 2.])";
  module->attributes["big"] = ModuleAttribute{TensorMeta{Dtype::Int64, {SymExpr::integer(5)}, {SymExpr::integer(1)}, Device{tensor::DeviceType::CUDA, 0}, false}, false, std::nullopt};
  const std::vector<std::string> expected = {
      "class Repro(torch.nn.Module):",
      "    def __init__(self) -> None:",
      "        super().__init__()",
      "        self.register_buffer('_tensor_constant0', tensor([1., 2.]))",
      "        self.register_buffer('big', torch.randint(1, size=[5], dtype=torch.int64).cuda())",
      "        self.weight = torch.nn.Parameter(torch.randn([4, 3], dtype=torch.float32))",
      "",
      "",
      "",
      "    def forward(self, arg0_1):",
      "        _tensor_constant0 = self._tensor_constant0",
      "        weight = self.weight",
      "        relu = torch.ops.aten.relu.default(arg0_1);  arg0_1 = None",
      "        mul = torch.ops.aten.mul.Tensor(relu, weight);  relu = weight = None",
      "        var_mean = torch.ops.aten.var_mean.correction(mul, [1], correction = 0, keepdim = True);  mul = None",
      "        getitem = var_mean[0];  var_mean = None",
      "        return (getitem, _tensor_constant0)",
  };
  EXPECT_EQ(printRunnableLines(*module), expected);

  // Parsing gives back the attributes and the graph.
  std::string text = printRunnable(*module);
  const auto parsed = parseRunnable("import torch\n\n" + text + "\ndef load_args(reader):\n    pass\n");
  EXPECT_EQ(parsed->className, "Repro");
  ASSERT_EQ(parsed->attributes.size(), 3u);
  EXPECT_TRUE(parsed->attributes.at("weight").isParameter);
  EXPECT_EQ(parsed->attributes.at("weight").meta.sizes, (std::vector<SymExpr>{SymExpr::integer(4), SymExpr::integer(3)}));
  EXPECT_EQ(parsed->attributes.at("big").meta.dtype, Dtype::Int64);
  EXPECT_EQ(parsed->attributes.at("big").meta.device.type, tensor::DeviceType::CUDA);
  EXPECT_EQ(parsed->attributes.at("_tensor_constant0").inlineRepr, "tensor([1., 2.])");
  EXPECT_EQ(parsed->graph.size(), module->graph.size());
  EXPECT_EQ(parsed->graph.findNode("var_mean")->target(), "torch.ops.aten.var_mean.correction");
  EXPECT_EQ(printRunnableLines(*parsed), expected);
}

TEST(RunnablePrinter, KeepsDynamoPlaceholderTypes) {
  const std::string text =
      "class Repro(torch.nn.Module):\n"
      "    def __init__(self) -> None:\n"
      "        super().__init__()\n"
      "\n\n\n"
      "    def forward(self, L_w_ : torch.nn.parameter.Parameter, L_x_ : torch.Tensor):\n"
      "        l_w_ = L_w_\n"
      "        l_x_ = L_x_\n"
      "        x = torch._C._nn.linear(l_x_, l_w_);  l_x_ = l_w_ = None\n"
      "        mean = x.mean(dim = -1, keepdim = True);  x = None\n"
      "        return (mean,)\n";
  const auto module = parseRunnable(text);
  EXPECT_EQ(module->graph.placeholders().at(1)->meta.typeAnnotation, "torch.Tensor");
  EXPECT_EQ(module->graph.findNode("l_x_")->target(), "L_x_");
  EXPECT_EQ(printRunnable(*module), text);
}

TEST(RunnableParser, ReportsWhereTheTextIsNotARunnableModule) {
  EXPECT_THROW(parseRunnable("x = 1\n"), SyntaxError);
  try {
    parseRunnable(
        "import torch\n"
        "class Repro(torch.nn.Module):\n"
        "    def __init__(self) -> None:\n"
        "        super().__init__()\n"
        "        self.sub = Linear(in_features=2, out_features=2, bias=True)\n");
    FAIL() << "a submodule in __init__ was accepted";
  } catch (const SyntaxError& e) {
    EXPECT_EQ(e.line, 5);
  }
  try {
    parseRunnable(
        "class Repro(torch.nn.Module):\n"
        "    def __init__(self) -> None:\n"
        "        super().__init__()\n"
        "\n"
        "    def forward(self, a):\n"
        "        b = torch.ops.aten.relu.default(c)\n"
        "        return (b,)\n");
    FAIL() << "an unknown value was accepted";
  } catch (const SyntaxError& e) {
    EXPECT_EQ(e.line, 6);
  }
}

// The Repro class of a repro file: from its class line to its last non-blank line.
std::vector<std::string> reproBlock(const std::vector<std::string>& file) {
  size_t begin = 0;
  while (begin < file.size() && !(file[begin].starts_with("class ") && file[begin].ends_with("(torch.nn.Module):"))) ++begin;
  size_t end = begin + 1;
  while (end < file.size() && (file[end].empty() || file[end].starts_with(" "))) ++end;
  while (end > begin && file[end - 1].empty()) --end;
  return {file.begin() + static_cast<long>(begin), file.begin() + static_cast<long>(end)};
}

TEST(RunnableForm, RealReproModulesParseAndPrintBackIdentical) {
  KILN_REQUIRE_SHARED();
  std::vector<std::filesystem::path> files;
  for (const char* folder : {"pytorch-2.11/compile_debug", "pytorch-2.11/minifier"})
    for (const auto& entry : std::filesystem::recursive_directory_iterator(test::realPath(folder)))
      if (entry.path().filename() == "fx_graph_runnable.py" || entry.path().filename() == "repro_copy.py" ||
          entry.path().filename() == "launcher_copy.py")
        files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 11u);
  for (const auto& path : files) {
    std::ifstream in(path);
    const std::string text{std::istreambuf_iterator<char>(in), {}};
    const auto expected = reproBlock(lines(text));
    ASSERT_GT(expected.size(), 5u) << path;
    std::unique_ptr<GraphModule> module;
    try {
      module = parseRunnable(text);
    } catch (const std::exception& e) {
      ADD_FAILURE() << path << ": " << e.what();
      continue;
    }
    EXPECT_GT(module->graph.size(), 3u) << path;
    EXPECT_EQ(printRunnableLines(*module), expected) << path;
  }
}

}  // namespace
}  // namespace kiln::ir
