#include "libdiag/log/torch_logs_parser.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <string>

#include "tests/libdiag/log/log_levels.h"

namespace kiln::log {
namespace {

// What PyTorch 2.11 raises for TORCH_LOGS="<settings>" when an item is not valid.
std::string pytorch_invalid_message(const std::string& settings) {
  return "\nInvalid log settings: " + settings +
         ", must be a comma separated list of fully\n"
         "qualified module names, registered log names or registered artifact names.\n"
         "For more info on various settings, try TORCH_LOGS=\"help\"\n"
         "Valid settings:\n"
         "all, annotation, aot, aot_graphs, aot_graphs_effects, aot_joint_graph, "
         "async_compile, auto_chunker, autograd, autotuning, benchmarking, bytecode, c10d, "
         "cache, caching, compiled_autograd, compiled_autograd_verbose, compute_dependencies, "
         "cudagraph_static_inputs, cudagraphs, custom_format_test_artifact, ddp, ddp_graphs, "
         "distributed, dtensor, dynamic, dynamo, export, fake_tensor, fsdp, fusion, graph, "
         "graph_breaks, graph_code, graph_code_verbose, graph_region_expansion, graph_sizes, "
         "guards, hierarchical_compile, inductor, inductor_metrics, ir_post_fusion, "
         "ir_pre_fusion, kernel_code, loop_ordering, loop_tiling, node_runtime_estimation, "
         "not_implemented, onnx, onnx_diagnostics, output_code, overlap, overlap_scheduling, "
         "perf_hints, post_grad_graphs, pp, pre_grad_graphs, recompiles, recompiles_verbose, "
         "schedule, side_effects, sym_node, torch, trace_bytecode, trace_call, "
         "trace_shape_events, trace_source, verbose_guards\n";
}

std::string error_of(const std::string& settings) {
  try {
    parse_torch_logs(settings);
  } catch (const LogSettingsError& error) {
    return error.what();
  }
  return "(no error)";
}

std::string md5_hex(const std::string& text) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(text.data(), text.size(), digest, &length, EVP_md5(), nullptr);
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) {
    static constexpr char kDigits[] = "0123456789abcdef";
    hex += kDigits[digest[i] >> 4];
    hex += kDigits[digest[i] & 15];
  }
  return hex;
}

TEST(TorchLogsParser, PlainComponentIsInfoPlusIsDebugMinusIsError) {
  const LogSettings s = parse_torch_logs("dynamo,+inductor,-aot");
  EXPECT_EQ(s.effective_level("torch._dynamo"), kInfo);
  EXPECT_EQ(s.effective_level("torch._dynamo.guards"), kInfo);  // children inherit
  EXPECT_EQ(s.effective_level("torch.fx.experimental.symbolic_shapes"), kInfo);
  EXPECT_EQ(s.effective_level("torch._inductor.graph"), kDebug);
  EXPECT_EQ(s.effective_level("torch._functorch._aot_autograd.graph_capture"), kError);
  EXPECT_EQ(s.effective_level("torch.autograd"), kWarning);  // untouched: the default
  EXPECT_EQ(s.effective_level("torch"), kWarning);
}

TEST(TorchLogsParser, AllIsTheTorchRootLogger) {
  EXPECT_EQ(parse_torch_logs("+all").effective_level("torch._inductor.scheduler"), kDebug);
  EXPECT_EQ(parse_torch_logs("all").effective_level("torch.autograd"), kInfo);
  EXPECT_EQ(parse_torch_logs("-torch").effective_level("torch._dynamo"), kError);
  // A component set after all keeps its own level; the rest follows all.
  const LogSettings s = parse_torch_logs("+all,-dynamo");
  EXPECT_EQ(s.effective_level("torch._dynamo.guards"), kError);
  EXPECT_EQ(s.effective_level("torch._inductor"), kDebug);
}

TEST(TorchLogsParser, ArtifactsIgnoreTheirPrefix) {
  const LogSettings s = parse_torch_logs("guards,+recompiles,-output_code");
  EXPECT_TRUE(s.artifact_enabled(Artifact::guards));
  EXPECT_TRUE(s.artifact_enabled(Artifact::recompiles));
  EXPECT_TRUE(s.artifact_enabled(Artifact::output_code));
  EXPECT_FALSE(s.artifact_enabled(Artifact::graph_code));
  EXPECT_TRUE(s.levels().empty());
}

TEST(TorchLogsParser, TheRealLogsSettingEnablesItsArtifactsAndDynamicAtInfo) {
  const LogSettings s =
      parse_torch_logs("graph_breaks,recompiles,guards,dynamic,graph_code,aot_graphs,output_code");
  for (Artifact a : {Artifact::graph_breaks, Artifact::recompiles, Artifact::guards,
                     Artifact::graph_code, Artifact::aot_graphs, Artifact::output_code})
    EXPECT_TRUE(s.artifact_enabled(a)) << info(a).name;
  EXPECT_FALSE(s.artifact_enabled(Artifact::graph_sizes));
  EXPECT_EQ(s.effective_level("torch.fx.experimental.symbolic_shapes"), kInfo);
  EXPECT_EQ(s.effective_level("torch._dynamo"), kWarning);
}

TEST(TorchLogsParser, WhitespaceIsAllowedAfterCommasOnly) {
  const LogSettings s = parse_torch_logs("+dynamo,  aot,\tguards");
  EXPECT_EQ(s.effective_level("torch._dynamo"), kDebug);
  EXPECT_EQ(s.effective_level("torch._functorch.aot_autograd"), kInfo);
  EXPECT_TRUE(s.artifact_enabled(Artifact::guards));
  for (const std::string bad : {" dynamo", "dynamo ", "dynamo ,aot", "dynamo,", ",dynamo",
                                "dynamo,,aot", "+", "++dynamo", "+-dynamo", "dyn-amo", "a=b"})
    EXPECT_EQ(error_of(bad), pytorch_invalid_message(bad)) << '"' << bad << '"';
}

TEST(TorchLogsParser, UnknownNamesGetPyTorchsMessage) {
  EXPECT_EQ(error_of("bogus"), pytorch_invalid_message("bogus"));
  // The message quotes the whole setting, not the bad item.
  EXPECT_EQ(error_of("guards,+foo"), pytorch_invalid_message("guards,+foo"));
  EXPECT_EQ(error_of("aot_joint_graphs"), pytorch_invalid_message("aot_joint_graphs"));
}

TEST(TorchLogsParser, ModuleNamesSetTheModuleAndItsSubmodules) {
  const LogSettings s = parse_torch_logs("+torch._dynamo.output_graph");
  EXPECT_EQ(s.effective_level("torch._dynamo.output_graph"), kDebug);
  EXPECT_EQ(s.effective_level("torch._dynamo.guards"), kWarning);
  EXPECT_EQ(s.effective_level("torch._dynamo"), kWarning);
  EXPECT_EQ(s.lowest_level_below("torch._dynamo"), kDebug);

  // Directory-based logging: a package's submodules get the level themselves, so a later
  // setting of the package alone does not reach them (as observed with PyTorch 2.11).
  const LogSettings package = parse_torch_logs("+torch._dynamo,-dynamo");
  EXPECT_EQ(package.effective_level("torch._dynamo"), kError);
  EXPECT_EQ(package.effective_level("torch._dynamo.guards"), kDebug);

  const LogSettings later = parse_torch_logs("-torch._functorch._aot_autograd,+torch._functorch");
  EXPECT_EQ(later.effective_level("torch._functorch._aot_autograd.graph_capture"), kDebug);
  const LogSettings earlier = parse_torch_logs("+torch._functorch,-torch._functorch._aot_autograd");
  EXPECT_EQ(earlier.effective_level("torch._functorch._aot_autograd.graph_capture"), kError);
  EXPECT_EQ(earlier.effective_level("torch._functorch.partitioners"), kDebug);
}

TEST(TorchLogsParser, NonTorchModulesAreRejected) {
  // PyTorch accepts any importable module; Kiln knows only torch's.
  EXPECT_EQ(error_of("foo.bar"), pytorch_invalid_message("foo.bar"));
  EXPECT_EQ(error_of("torch..x"), pytorch_invalid_message("torch..x"));
  EXPECT_EQ(error_of("torch.1x"), pytorch_invalid_message("torch.1x"));
  EXPECT_EQ(error_of("torchvision"), pytorch_invalid_message("torchvision"));
}

TEST(TorchLogsParser, LaterItemsWinOnSharedLoggers) {
  // dynamo and dynamic both set the symbolic-shape loggers.
  EXPECT_EQ(parse_torch_logs("+dynamo,dynamic").effective_level("torch.fx.experimental.sym_node"),
            kInfo);
  EXPECT_EQ(parse_torch_logs("dynamic,+dynamo").effective_level("torch.fx.experimental.sym_node"),
            kDebug);
  EXPECT_EQ(parse_torch_logs("dynamo,-export").effective_level("torch._dynamo"), kError);
}

TEST(TorchLogsParser, EmptyAsksForNothing) {
  const LogSettings s = parse_torch_logs("");
  EXPECT_TRUE(s.levels().empty());
  EXPECT_EQ(s.effective_level("torch._dynamo"), kWarning);
}

TEST(TorchLogsParser, HelpIsRaisedWithPyTorchsText) {
  // md5 of str(ValueError) for TORCH_LOGS="help" and "+help" under PyTorch 2.11.
  EXPECT_EQ(error_of("help"), torch_logs_help(false));
  EXPECT_EQ(error_of("+help"), torch_logs_help(true));
  EXPECT_EQ(md5_hex(torch_logs_help(false)), "24503938e632a7a5f46226deaa42aaa8");
  EXPECT_EQ(md5_hex(torch_logs_help(true)), "4b91f1ecf75fea20ea64a3f3fc284863");
  const std::string guards_line = "\n  guards                        \tThis prints the guards";
  EXPECT_NE(torch_logs_help(false).find(guards_line), std::string::npos);
  EXPECT_EQ(torch_logs_help(false).find("\n  schedule "), std::string::npos);  // not visible
}

}  // namespace
}  // namespace kiln::log
