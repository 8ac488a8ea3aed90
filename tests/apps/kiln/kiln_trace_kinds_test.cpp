// Kiln's traces of the real PyTorch 2.11 programs (../shared/real/pytorch-2.11/programs) against
// PyTorch's own traces of them (traces/<program>/): per compile id, the same kinds of record
// (dynamo_output_graph, aot_inference_graph, inductor_output_code, fx_graph_cache_miss, ...).
// Records that describe the run rather than the compile (chromium events, interned strings,
// symbol decisions) are not compared; the descriptions of the tensors a compile made inputs
// (describe_storage/_tensor/_source) are. Where kiln still differs, the difference is
// listed with why; the test checks it is still exactly that difference, so a fix fails until
// its entry is updated. Then the phases: every compile's chromium events close the Dynamo, AOT
// and Inductor phases PyTorch's closed (the bars of tlparse's compile timeline), and every
// compilation_metrics record has PyTorch 2.11's fields.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <set>

#include "tests/apps/kiln/kiln_run.h"
#include "tests/apps/kiln/trace_compiles.h"
#include "tests/support/shared_data.h"

namespace fs = std::filesystem;
using namespace kiln::test;

namespace {

// "<program> <compile id>" -> "missing: ...; extra: ..." (kinds PyTorch wrote that kiln did not,
// and the reverse).
const std::map<std::string, std::string>& known_trace_kind_differences() {
  static const std::map<std::string, std::string> differences = {
      // PyTorch's compile cache already held this graph (from an earlier program of its run; the
      // test starts kiln with an empty one): a hit writes provenance records instead of the
      // pre-post-grad graph.
      // Dynamo describes every tensor a frame reads as it wraps it (VariableBuilder); kiln describes
      // the tensors it makes graph inputs, and one read for .item() before that breaks. This frame
      // (train_mlp's resume after backward) only returns the tensor it reads, so no graph input is
      // made.
      {"train_mlp 7/0", "missing: describe_source, describe_storage, describe_tensor; extra: "},
      {"recompile_shape 0/0",
       "missing: fx_graph_cache_hit, inductor_provenance_tracking_kernel_stack_traces, "
       "inductor_provenance_tracking_node_mappings; extra: before_post_grad_graph, fx_graph_cache_miss"},
  };
  return differences;
}

// Records about the run rather than about what the compile made.
bool compared(const std::string& kind) {
  static const std::set<std::string> run_records = {"str", "chromium_event", "symbolic_shape_specialization", "guard_added",
                                                    "propagate_real_tensors_provenance", "link"};
  return !run_records.count(kind);
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

// The difference between PyTorch's kinds and kiln's for one compile, "" when none.
std::string difference(const std::set<std::string>& pytorch, const std::set<std::string>& kiln) {
  std::vector<std::string> missing, extra;
  for (const std::string& kind : pytorch)
    if (compared(kind) && !kiln.count(kind)) missing.push_back(kind);
  for (const std::string& kind : kiln)
    if (compared(kind) && !pytorch.count(kind)) extra.push_back(kind);
  if (missing.empty() && extra.empty()) return "";
  return "missing: " + join(missing) + "; extra: " + join(extra);
}

std::vector<std::string> traced_programs() {
  std::vector<std::string> names;
  for (const auto& script : scripts_in(realPath("pytorch-2.11/programs")))
    if (fs::is_directory(realPath("pytorch-2.11/traces/" + script.stem().string()))) names.push_back(script.stem().string());
  return names;
}

// Kiln's trace of a program of ../shared, with a fresh compile cache so that every compile misses
// as PyTorch's first run did.
fs::path kiln_trace_of(const std::string& name, const std::string& scratch) {
  const fs::path trace = scratchDir(scratch + "_" + name);
  const fs::path program = realPath("pytorch-2.11/programs/" + name + ".py");
  RunResult kiln = run(kiln_binary(), quoted(program), trace.parent_path(),
                       "TORCH_TRACE=" + quoted(trace) + " TORCHINDUCTOR_CACHE_DIR=" + quoted(trace / "cache") + " ");
  (void)kiln;  // some programs end in the error they were written to raise: the trace is what counts
  return trace;
}

}  // namespace

TEST(KilnTraceKinds, EachCompileWritesTheRecordKindsPyTorchWrote) {
  KILN_REQUIRE_SHARED();
  std::set<std::string> seen_differences;
  for (const std::string& name : traced_programs()) {
    SCOPED_TRACE(name);
    const fs::path trace = kiln_trace_of(name, "trace_kinds");
    const auto ours = record_kinds_by_compile(trace);
    const auto theirs = record_kinds_by_compile(realPath("pytorch-2.11/traces/" + name));
    std::set<std::string> ids;
    for (const auto& [id, kinds] : ours) ids.insert(id);
    for (const auto& [id, kinds] : theirs) ids.insert(id);
    for (const std::string& id : ids) {
      const std::string key = name + " " + id;
      const std::string got = difference(theirs.count(id) ? theirs.at(id) : std::set<std::string>{},
                                         ours.count(id) ? ours.at(id) : std::set<std::string>{});
      const auto known = known_trace_kind_differences().find(key);
      EXPECT_EQ(got, known == known_trace_kind_differences().end() ? "" : known->second) << key;
      if (!got.empty()) seen_differences.insert(key);
    }
  }
  for (const auto& [key, text] : known_trace_kind_differences())
    EXPECT_TRUE(seen_differences.count(key)) << key << " no longer differs: remove it from known_trace_kind_differences";
}

TEST(KilnTraceKinds, EachCompileHasPyTorchsTimelinePhasesAndMetricsFields) {
  KILN_REQUIRE_SHARED();
  const std::set<std::string> timeline_bars = {"dynamo", "create_aot_dispatcher_function", "inductor_compile"};
  for (const std::string& name : traced_programs()) {
    SCOPED_TRACE(name);
    const fs::path trace = kiln_trace_of(name, "trace_phases");
    const fs::path pytorch_trace = realPath("pytorch-2.11/traces/" + name);
    const auto ours = phases_by_compile(trace);
    for (const auto& [id, phases] : phases_by_compile(pytorch_trace))
      for (const std::string& bar : timeline_bars)
        if (phases.count(bar)) EXPECT_TRUE(ours.count(id) && ours.at(id).count(bar)) << id << " has no " << bar << " phase";
    const auto pytorch_fields = metrics_fields(pytorch_trace);
    ASSERT_FALSE(pytorch_fields.empty());
    const auto kiln_fields = metrics_fields(trace);
    ASSERT_FALSE(kiln_fields.empty());
    for (const auto& fields : kiln_fields) EXPECT_EQ(fields, pytorch_fields.front());
  }
}

// The README's first script: its trace reads in Kiln's tlparse (--strict) and in tlparse 0.4.3,
// which refuses a failed compile whose metrics give no fail_reason ("Fail reason not found").
// Every record's header names Kiln's own line or the line of PyTorch that writes that record:
// never a header of the C++ library on this machine (where a default std::source_location
// argument is evaluated when std::optional::emplace constructs a phase).
TEST(KilnTraceKinds, QuickstartTraceReadsInBothTlparses) {
  const fs::path scratch = scratchDir("trace_quickstart");
  const fs::path script = testdataPath("../examples/quickstart.py");
  const RunResult kiln = run(kiln_binary(), quoted(script), scratch, "TORCH_TRACE=" + quoted(scratch / "trace") + " ");
  ASSERT_EQ(kiln.status, 0) << kiln.err;
  std::vector<fs::path> logs;
  for (const auto& entry : fs::directory_iterator(scratch / "trace")) logs.push_back(entry.path());
  ASSERT_EQ(logs.size(), 1u);
  std::ifstream log(logs[0]);
  size_t headers = 0;
  for (std::string line; std::getline(log, line);) {
    // "V1129 23:30:09.949000 1569 libcompiler/capture/frame_compiler.cpp:494] {...}"
    if (line.empty() || line[0] != 'V') continue;
    std::istringstream fields(line);
    std::string level, time, thread, where;
    fields >> level >> time >> thread >> where;
    ++headers;
    EXPECT_EQ(where.find("/include/"), std::string::npos) << line;
  }
  EXPECT_GT(headers, 10u);
  const RunResult ours = run(tlparse_binary(), quoted(logs[0]) + " --strict --overwrite --no-browser -o report", scratch);
  EXPECT_EQ(ours.status, 0) << ours.out << ours.err;
  const fs::path real_tlparse = reference_python().parent_path() / "tlparse";
  if (!fs::exists(real_tlparse)) GTEST_SKIP() << real_tlparse.string() << " is absent: tlparse 0.4.3 not run";
  const RunResult theirs = run(real_tlparse.string(), quoted(logs[0]) + " --overwrite --no-browser -o real_report", scratch);
  EXPECT_EQ(theirs.status, 0) << theirs.out << theirs.err;
}
