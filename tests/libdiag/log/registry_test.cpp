#include "libdiag/log/registry.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace kiln::log {
namespace {

TEST(LogRegistry, HasTheComponentsOfPyTorch211) {
  const std::vector<std::string> names = {
      "async_compile", "cache", "dynamo", "fake_tensor", "aot",  "autograd",
      "inductor",      "dynamic", "torch", "distributed", "c10d", "ddp",
      "pp",            "fsdp",  "dtensor", "onnx", "export"};
  ASSERT_EQ(kComponentCount, names.size());
  for (const std::string& name : names) EXPECT_TRUE(find_component(name)) << name;
  EXPECT_FALSE(find_component("all"));  // an alias of torch that only the parser knows
}

TEST(LogRegistry, ComponentsNameTheirPythonLoggers) {
  const auto loggers = [](Component c) {
    const auto span = info(c).loggers;
    return std::vector<std::string>(span.begin(), span.end());
  };
  EXPECT_EQ(loggers(Component::dynamo),
            (std::vector<std::string>{"torch._dynamo", "torch.fx.experimental.symbolic_shapes",
                                      "torch.fx.experimental.sym_node",
                                      "torch.fx.experimental.recording"}));
  EXPECT_EQ(loggers(Component::torch), std::vector<std::string>{"torch"});
  EXPECT_EQ(loggers(Component::inductor).front(), "torch._inductor");
  EXPECT_EQ(loggers(Component::aot).front(), "torch._functorch._aot_autograd");
  EXPECT_EQ(loggers(Component::dynamic).front(), "torch.fx.experimental.symbolic_shapes");
  EXPECT_EQ(loggers(Component::export_).size(), 10u);
  EXPECT_EQ(info(Component::export_).name, "export");
}

TEST(LogRegistry, ArtifactsHaveTheirParentComponent) {
  const std::vector<std::pair<std::string, Component>> expected = {
      {"graph_breaks", Component::dynamo},      {"recompiles", Component::dynamo},
      {"recompiles_verbose", Component::dynamo}, {"guards", Component::dynamo},
      {"verbose_guards", Component::dynamo},    {"graph", Component::dynamo},
      {"graph_code", Component::dynamo},        {"graph_sizes", Component::dynamo},
      {"trace_source", Component::dynamo},      {"trace_call", Component::dynamo},
      {"trace_bytecode", Component::dynamo},    {"bytecode", Component::dynamo},
      {"compiled_autograd", Component::dynamo}, {"side_effects", Component::dynamo},
      {"aot_graphs", Component::aot},           {"aot_joint_graph", Component::aot},
      {"output_code", Component::inductor},     {"kernel_code", Component::inductor},
      {"schedule", Component::inductor},        {"perf_hints", Component::inductor},
      {"fusion", Component::inductor},          {"post_grad_graphs", Component::inductor},
      {"pre_grad_graphs", Component::inductor}, {"ir_pre_fusion", Component::inductor},
      {"ir_post_fusion", Component::inductor},  {"cudagraphs", Component::inductor},
      {"sym_node", Component::dynamic},         {"graph_code_verbose", Component::torch},
      {"not_implemented", Component::torch},
  };
  for (const auto& [name, parent] : expected) {
    const auto artifact = find_artifact(name);
    ASSERT_TRUE(artifact) << name;
    EXPECT_EQ(info(*artifact).name, name);
    EXPECT_EQ(info(*artifact).parent, parent) << name;
  }
  EXPECT_EQ(kArtifactCount, 50u);  // PyTorch 2.11's _registrations.py registers 50
  EXPECT_FALSE(find_artifact("dynamo"));
  EXPECT_FALSE(find_artifact("aot_joint_graphs"));  // the artifact is aot_joint_graph
}

TEST(LogRegistry, ArtifactFlagsAreAsPyTorchRegistersThem) {
  const auto flags = [](Artifact a) {
    const ArtifactInfo& i = info(a);
    return std::vector<bool>{i.visible, i.off_by_default, i.bare_format};
  };
  using F = std::vector<bool>;
  EXPECT_EQ(flags(Artifact::guards), (F{true, false, false}));
  EXPECT_EQ(flags(Artifact::output_code), (F{true, true, false}));
  EXPECT_EQ(flags(Artifact::kernel_code), (F{true, true, false}));
  EXPECT_EQ(flags(Artifact::recompiles_verbose), (F{true, true, false}));
  EXPECT_EQ(flags(Artifact::bytecode), (F{false, true, false}));
  EXPECT_EQ(flags(Artifact::schedule), (F{false, true, false}));
  EXPECT_EQ(flags(Artifact::graph_code), (F{false, false, false}));
  EXPECT_EQ(flags(Artifact::aot_graphs), (F{true, false, false}));
  EXPECT_EQ(flags(Artifact::custom_format_test_artifact), (F{false, false, true}));
  EXPECT_EQ(info(Artifact::verbose_guards).description, "");
  EXPECT_EQ(info(Artifact::recompiles).description,
            "Prints the reason why we recompiled a graph. Very, very useful.");
}

TEST(LogRegistry, SetLogsKeywordsAreThoseOfPyTorchsSignature) {
  for (const char* keyword : {"all", "dynamo", "aot", "autograd", "dynamic", "inductor",
                              "distributed", "c10d", "ddp", "fsdp", "dtensor", "onnx", "export",
                              "guards", "graph_breaks", "output_code", "caching", "side_effects"})
    EXPECT_TRUE(is_set_logs_keyword(keyword)) << keyword;
  for (const char* other : {"torch", "pp", "cache", "fake_tensor", "async_compile",
                            "verbose_guards", "not_implemented", "loop_ordering", "modules", "x"})
    EXPECT_FALSE(is_set_logs_keyword(other)) << other;
}

}  // namespace
}  // namespace kiln::log
