// The minifier on small graphs through backends that misbehave: the failure found is kept, a
// candidate that crashes or hangs costs one test and is survived, and a second run with the same
// memo resumes from it.
#include <gtest/gtest.h>

#include <unistd.h>

#include <csignal>
#include <sstream>

#include "libcompiler/backends/backends.h"
#include "libcompiler/capture/dynamo_module.h"
#include "libcompiler/fx/graph_runner.h"
#include "libcompiler/ir/readable_parser.h"
#include "libcompiler/ir/readable_printer.h"
#include "libcompiler/ir/runnable_printer.h"
#include "libcompiler/ops/kernel_registry.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/python/torch/tensor_object.h"
#include "libcompiler/python/torch/torch_module.h"
#include "libcompiler/repro/install.h"
#include "libcompiler/repro/minifier.h"
#include "libcompiler/repro/host_placement.h"
#include "libcompiler/repro/repro_writer.h"
#include "libcompiler/tensor/factories.h"
#include "libcompiler/tensor/host_stand_in.h"
#include "tests/support/host_memory_device.h"
#include "tests/support/shared_data.h"

namespace kiln::repro {
namespace {

using namespace std::chrono_literals;

bool calls(const fx::BackendGraph& graph, const std::string& target) {
  for (const ir::Node* node : graph.module->graph.nodes())
    if (node->target() == target) return true;
  return false;
}

// Refuses relu; crashes on a graph with a sigmoid and hangs on one with a tanh, when they come
// without a relu: what some candidates of a reduction are.
fx::CompiledGraph misbehaving(python::Interpreter& interp, std::shared_ptr<const fx::BackendGraph> graph,
                              const std::vector<python::Ref>&) {
  if (calls(*graph, "torch.relu")) python::raise_error(python::ExcType::RuntimeError, "relu refused by a test backend");
  if (calls(*graph, "torch.sigmoid")) std::raise(SIGSEGV);
  if (calls(*graph, "torch.tanh"))
    for (;;) pause();
  return fx::run_as_is(interp, graph);
}

// Refuses triu, naming the device its graph's first input is on: where a candidate ran.
fx::CompiledGraph refuses_triu_naming_the_device(python::Interpreter& interp, std::shared_ptr<const fx::BackendGraph> graph,
                                                 const std::vector<python::Ref>& inputs) {
  if (calls(*graph, "torch.triu"))
    python::raise_error(python::ExcType::RuntimeError, "triu refused on " + python::to_tensor(inputs.at(0), "input").device().str());
  return fx::run_as_is(interp, graph);
}

class MinifierTest : public ::testing::Test {
 protected:
  void SetUp() override {
    python::install_torch(interp);
    capture::install_capture(interp);
    backends::install_backends();
    install_repro(interp);
    fx::register_backend("misbehaving_TESTING", misbehaving);
    fx::register_backend("refuses_triu_naming_the_device_TESTING", refuses_triu_naming_the_device);
    options.target.after = ReproAfter::Dynamo;
    options.target.backend = "misbehaving_TESTING";
    options.target.backend_spec = python::py_str("misbehaving_TESTING");
    options.timeout = 500ms;
    options.progress = false;
    options.memo_path = test::scratchDir("minifier_memo_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name())) /
                        "memo.sqlite";
  }

  // first(x) -> relu -> * 2 -> sum
  ReproState graph_after(const std::string& first) {
    return {ir::parseReadable("class GraphModule(torch.nn.Module):\n"
                              "    def forward(self, x):\n"
                              "        a = torch." + first + "(x);  x = None\n"
                              "        relu = torch.relu(a);  a = None\n"
                              "        mul = relu * 2;  relu = None\n"
                              "        sum_1 = mul.sum();  mul = None\n"
                              "        return (sum_1,)\n"),
            {ops::IValue(tensor::tensor_from_values(std::vector<double>{-1, 2, -3, 4, 5, -6, 7, -8}, {8}))}};
  }

  python::Interpreter interp;
  MinifyOptions options;
  std::ostringstream log;
};

std::vector<std::string> forward_code(const ReproState& state) {
  return ir::printForwardCode(*state.module, "");
}

TEST_F(MinifierTest, ACrashingCandidateIsSurvived) {
  const MinifyResult result = minify(interp, graph_after("sigmoid"), options, log);
  ASSERT_EQ(result.status, MinifyResult::Status::Minimal) << log.str();
  EXPECT_EQ(result.failure.type, "RuntimeError");
  EXPECT_EQ(result.failure.message, "relu refused by a test backend");
  EXPECT_GE(result.crashed, 1u);
  EXPECT_EQ(result.nodes_after, 1u);
  EXPECT_EQ(forward_code(result.state), (std::vector<std::string>{"def forward(self, a):", "    relu = torch.relu(a);  a = None",
                                                                   "    return (relu,)"}));
}

TEST_F(MinifierTest, AHangingCandidateIsSurvived) {
  const MinifyResult result = minify(interp, graph_after("tanh"), options, log);
  ASSERT_EQ(result.status, MinifyResult::Status::Minimal) << log.str();
  EXPECT_GE(result.timed_out, 1u);
  EXPECT_EQ(result.nodes_after, 1u);
}

TEST_F(MinifierTest, AnInterruptedRunResumesFromTheMemo) {
  options.target.backend_spec = python::py_str("relu_compile_error_TESTING_ONLY");
  options.target.backend = "relu_compile_error_TESTING_ONLY";
  // No candidate of this backend hangs; on a loaded machine a short timeout would cut some off
  // and change the counts compared below.
  options.timeout = 20s;
  MinifyOptions whole = options;
  whole.memo_path = options.memo_path.parent_path() / "whole.sqlite";
  const MinifyResult uninterrupted = minify(interp, graph_after("neg"), whole, log);
  ASSERT_EQ(uninterrupted.status, MinifyResult::Status::Minimal);

  options.max_tests = 3;
  const MinifyResult stopped = minify(interp, graph_after("neg"), options, log);
  EXPECT_EQ(stopped.status, MinifyResult::Status::BudgetExhausted);
  EXPECT_LE(stopped.tests_run, 3u);
  options.max_tests = 0;
  const MinifyResult resumed = minify(interp, graph_after("neg"), options, log);
  ASSERT_EQ(resumed.status, MinifyResult::Status::Minimal);
  // The resumed run tests only what the stopped one did not (and the first run again).
  EXPECT_EQ(resumed.tests_run + stopped.tests_run, uninterrupted.tests_run + 1);
  EXPECT_EQ(forward_code(resumed.state), forward_code(uninterrupted.state));
}

TEST_F(MinifierTest, AGraphThatDoesNotFailIsReported) {
  options.target.backend_spec = python::py_str("eager");
  options.target.backend = "eager";
  const MinifyResult result = minify(interp, graph_after("neg"), options, log);
  EXPECT_EQ(result.status, MinifyResult::Status::DidNotFail);
  EXPECT_NE(log.str().find("Input graph did not fail the tester"), std::string::npos);
}

// CUDA does not survive fork: a GPU repro's minifier keeps its tensors on the host (as run_repro's
// minify command does) and never allocates on the device itself; every candidate runs on it.
TEST_F(MinifierTest, AGpuReproIsMinifiedWithoutTheGpuInTheMinifiersOwnProcess) {
  test::HostMemoryDevice gpu;
  ops::register_fallback(tensor::DeviceType::CUDA, test::HostMemoryDevice::cpu_kernel_in_place);
  options.target.backend = "refuses_triu_naming_the_device_TESTING";
  options.target.backend_spec = python::py_str(options.target.backend);
  options.timeout = 20s;
  MinifyResult result;
  {
    tensor::HostStandIn on_host(tensor::DeviceType::CUDA);
    // Ops without a CUDA kernel, which the stand-in GPU runs through its fallback.
    ReproState state{ir::parseReadable("class GraphModule(torch.nn.Module):\n"
                                       "    def forward(self, x):\n"
                                       "        a = torch.tril(x);  x = None\n"
                                       "        b = torch.triu(a);  a = None\n"
                                       "        c = torch.tril(b, -1);  b = None\n"
                                       "        return (c,)\n"),
                     {ops::to(tensor::tensor_from_values(std::vector<double>{1, 2, 3, 4}, {2, 2}), std::nullopt, tensor::Device::parse("cuda"))}};
    options.target.kept_on_host_for = tensor::stood_in_for(tensor::DeviceType::CUDA);
    result = minify(interp, state, options, log);
  }
  ops::register_fallback(tensor::DeviceType::CUDA, nullptr);
  ASSERT_EQ(result.status, MinifyResult::Status::Minimal) << log.str();
  EXPECT_EQ(result.failure.message, "triu refused on cuda:0");
  EXPECT_EQ(result.nodes_after, 1u) << log.str();
  EXPECT_EQ(gpu.allocations(), 0u);
  // What is written says where the inputs belong.
  ReproScript script;
  script.state = result.state;
  script.kept_on_host_for = options.target.kept_on_host_for;
  const std::string text = repro_script_text(interp, script);
  EXPECT_NE(text.find("device=device(type='cuda', index=0)"), std::string::npos) << text;
  const ReproState annotated = annotated_on(result.state, *script.kept_on_host_for);
  const auto* meta = std::get_if<ir::TensorMeta>(&annotated.module->graph.placeholders().at(0)->meta.value);
  ASSERT_NE(meta, nullptr);  // the cut node's placeholder, annotated by its host value
  EXPECT_EQ(meta->device, tensor::Device::parse("cuda:0"));
}

}  // namespace
}  // namespace kiln::repro
