// What TraceWriter writes passes the real tlparse 0.4.3 with --strict (DESIGN.md §5): every kind
// of record the writer makes, in one trace, read by the peer installed in .reference/.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "kiln_config.h"
#include "libdiag/trace/trace_writer.h"
#include "tests/libdiag/trace/compile_ids.h"
#include "tests/support/shared_data.h"

namespace kiln::trace {
namespace {

std::filesystem::path real_tlparse() { return std::filesystem::path(KILN_SOURCE_DIR) / ".reference/bin/tlparse"; }

// A trace with one successful compile, one restarted one and one failure, written by Kiln.
std::filesystem::path write_every_kind_of_record(const std::filesystem::path& dir) {
  TraceWriter writer(dir);
  const TraceContext first{id({}, 0, 0, 0), {}};
  const TraceContext restarted{id({}, 1, 0, 1), {}};
  const TraceContext failed{id({}, 2, 0, 0), {}};
  writer.chromium_event("compile_file", ChromiumPhase::Begin);
  writer.chromium_event("dynamo", ChromiumPhase::Begin, first);
  const std::vector<TraceFrame> stack = {{"model.py", 30, "<module>", "main()"}, {"model.py", 7, "forward", {}}};
  writer.record("dynamo_start", TraceJson{{"stack", writer.frame_list(stack)}}, first);
  writer.record("dynamo_output_graph", TraceJson{{"sizes", {{"l_x_", {4, 4}}}}}, first,
                "class GraphModule(torch.nn.Module):\n    def forward(self, L_x_: \"f32[4, 4][4, 1]cpu\"):\n"
                "        add = L_x_ + 1;  L_x_ = None\n        return (add,)\n");
  writer.record("dynamo_guards", TraceJson::object(), first,
                list_payload(TraceJson::array({TraceJson{{"code", "check_tensor(L['x'])"}, {"stack", nullptr},
                                                         {"user_stack", nullptr}}})));
  writer.record("aot_inference_graph", TraceJson::object(), first, "class <lambda>(torch.nn.Module):\n    pass\n");
  writer.record("inductor_output_code", TraceJson{{"filename", "/tmp/kiln/ab/cabcdef.py"}}, first,
                "# AOT ID: ['0_inference']\ndef call(args):\n    return (args[0] + 1,)\n");
  writer.artifact("fx_graph_cache_miss", ArtifactEncoding::Json, json_payload(TraceJson{{"key", "fabc"}}), first);
  writer.artifact("before_post_grad_graph", ArtifactEncoding::String, "graph text with unicode: \u00e9\u4e2d", first);
  writer.compilation_metrics(TraceJson{{"co_name", "forward"}, {"co_filename", "model.py"}, {"co_firstlineno", 7},
                                       {"graph_op_count", 1}, {"restart_reasons", TraceJson::array()},
                                       {"fail_type", nullptr}},
                             first);
  writer.chromium_event("dynamo", ChromiumPhase::End, first);
  writer.artifact("dynamo_graph_break_reason", ArtifactEncoding::String, "Graph break: print", restarted);
  writer.compilation_metrics(TraceJson{{"co_name", "f"}, {"graph_op_count", 2},
                                       {"restart_reasons", TraceJson::array({"Graph break: print"})}},
                             restarted);
  writer.compilation_metrics(TraceJson{{"co_name", "g"}, {"fail_type", "BackendCompilerFailed"},
                                       {"fail_reason", "relu rejected"}},
                             failed);
  writer.chromium_event("compile_file", ChromiumPhase::End);
  return writer.file();
}

TEST(TraceWriterAgainstRealTlparse, EveryRecordKindPassesStrict) {
  if (!std::filesystem::exists(real_tlparse()))
    GTEST_SKIP() << real_tlparse().string() << " is absent (scripts/setup --reference installs it)";
  const auto dir = kiln::test::scratchDir("trace_writer_real_tlparse");
  const auto log = write_every_kind_of_record(dir / "trace");
  ASSERT_FALSE(log.empty());
  const auto out = dir / "report";
  const auto messages = dir / "tlparse.txt";
  std::ostringstream command;
  command << real_tlparse() << ' ' << log << " -o " << out << " --strict --no-browser > " << messages << " 2>&1";
  const int status = std::system(command.str().c_str());
  std::ifstream printed(messages);
  std::stringstream text;
  text << printed.rdbuf();
  EXPECT_EQ(status, 0) << text.str();
  EXPECT_NE(text.str().find("Stats { ok: 15 }"), std::string::npos) << text.str();
  EXPECT_TRUE(std::filesystem::exists(out / "-_0_0_0" / "dynamo_output_graph_0.txt"));
}

}  // namespace
}  // namespace kiln::trace
