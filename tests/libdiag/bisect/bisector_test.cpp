// The bisector's state machine on synthetic programs: the first bad backend, a config change that
// fixes it, and a binary search down to the one application that breaks it.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "libdiag/bisect/bisector.h"
#include "libdiag/bisect/subsystem_switch.h"
#include "tests/support/shared_data.h"

namespace kiln::bisect {
namespace {

const std::vector<System> kSystems = {
    {"eager", {}},
    {"aot_eager", {}},
    {"inductor",
     {{Subsystem::Kind::Bisect, "post_grad_passes", "", "", ""},
      {Subsystem::Kind::Config, "inductor_fallback_random", "inductor", "fallback_random", "True"},
      {Subsystem::Kind::Bisect, "lowerings", "", "", ""}}},
};

// A program broken from `bad_backend` on by application `culprit` of lowerings (of 10).
struct Program {
  std::string bad_backend;
  long long culprit = 5;
  std::vector<std::string> runs = {};  // what each run asked for

  bool operator()(const BisectRun& run) {
    std::string text = run.backend;
    if (run.subsystem) text += " " + run.subsystem->name;
    if (run.max) text += " max=" + std::to_string(*run.max);
    if (!run.report.empty()) text += " report";
    runs.push_back(text);
    if (run.backend == "eager" && bad_backend != "eager") return true;
    if (run.backend == "aot_eager" && bad_backend == "inductor") return true;
    if (!run.subsystem || run.subsystem->name != "lowerings") return false;
    if (!run.report.empty()) {
      std::ofstream report(run.report, std::ios::app);
      for (int i = 0; i < 10; ++i) report << i << "\tlowering of node_" << i << "\n";
    }
    return run.max && *run.max < culprit;  // good when the culprit is disabled
  }
};

TEST(Bisector, AllGood) {
  std::ostringstream log;
  EXPECT_FALSE(bisect({{"eager", {}}, {"aot_eager", {}}}, [](const BisectRun&) { return true; }, {}, log));
  EXPECT_EQ(log.str(), "Moving to the next system: aot_eager\nAll systems have been checked.\n");
}

TEST(Bisector, TheFirstBadBackendWithoutSubsystems) {
  Program program{"aot_eager"};
  std::ostringstream log;
  const auto result = bisect(kSystems, std::ref(program), {test::scratchDir("bisect")}, log);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->repr(), "BisectionResult(backend='aot_eager', subsystem=None, bisect_number=None, debug_info=None)");
  EXPECT_EQ(log.str(), "Moving to the next system: aot_eager\nThe issue is in the aot_eager system.\n");
}

TEST(Bisector, BinarySearchNamesTheApplication) {
  Program program{"inductor"};
  std::ostringstream log;
  const auto result = bisect(kSystems, std::ref(program), {test::scratchDir("bisect")}, log);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->repr(),
            "BisectionResult(backend='inductor', subsystem='lowerings', bisect_number=5, debug_info='lowering of node_5')");
  EXPECT_EQ(log.str(),
            "Moving to the next system: aot_eager\n"
            "Moving to the next system: inductor\n"
            "Disabling post_grad_passes did not fix the issue.\n"
            "Moving to the next subsystem: inductor - inductor_fallback_random\n"
            "Disabling inductor_fallback_random did not fix the issue.\n"
            "Moving to the next subsystem: inductor - lowerings\n"
            "Disabling lowerings fixed the issue.\n"
            "Starting bisect by getting upper bound.\n"
            "Upper bound of 9 found for inductor.\n"
            "Bisecting inductor - lowerings (Range: [0, 9], Midpoint: 4)\n"
            "Bisecting inductor - lowerings (Range: [5, 9], Midpoint: 7)\n"
            "Bisecting inductor - lowerings (Range: [5, 7], Midpoint: 6)\n"
            "Bisecting inductor - lowerings (Range: [5, 6], Midpoint: 5)\n"
            "Binary search completed for inductor - lowerings. The bisect number is 5. Debug info: lowering of node_5\n");
  EXPECT_EQ(program.runs, (std::vector<std::string>{"eager", "aot_eager", "inductor", "inductor post_grad_passes max=-1",
                                                    "inductor inductor_fallback_random", "inductor lowerings max=-1",
                                                    "inductor lowerings report", "inductor lowerings max=4", "inductor lowerings max=7",
                                                    "inductor lowerings max=6", "inductor lowerings max=5"}));
}

TEST(Bisector, AConfigChangeThatFixes) {
  std::ostringstream log;
  const auto result = bisect(
      kSystems, [](const BisectRun& run) { return run.backend != "inductor" || (run.subsystem && run.subsystem->name == "inductor_fallback_random"); },
      {}, log);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->repr(),
            "BisectionResult(backend='inductor', subsystem='inductor_fallback_random', bisect_number=0, debug_info='inductor_fallback_random')");
  EXPECT_NE(log.str().find("Setting config inductor field fallback_random to True fixed the issue\n"), std::string::npos);
}

TEST(Bisector, NoSubsystemToBlame) {
  std::ostringstream log;
  const auto result = bisect(kSystems, [](const BisectRun& run) { return run.backend != "inductor"; }, {}, log);
  ASSERT_TRUE(result);
  EXPECT_FALSE(result->subsystem);
  EXPECT_NE(log.str().find("The issue is in the inductor system, but could not identify subsystem.\n"), std::string::npos);
}

// A program run in the bisector's own process, asking the switch as a compiler does (the
// environment says what to disable, as for a child): each run counts its applications from 0.
TEST(Bisector, RunsInThisProcessCountFromZero) {
  const auto report_dir = test::scratchDir("bisect_in_process");
  auto run_in_process = [](const BisectRun& run) {
    setenv("TORCH_BISECT_BACKEND", run.backend.c_str(), 1);
    setenv("TORCH_BISECT_SUBSYSTEM", run.subsystem ? run.subsystem->name.c_str() : "", 1);
    if (run.max) setenv("TORCH_BISECT_MAX", std::to_string(*run.max).c_str(), 1);
    else unsetenv("TORCH_BISECT_MAX");
    if (!run.report.empty()) setenv("KILN_BISECT_REPORT", run.report.c_str(), 1);
    else unsetenv("KILN_BISECT_REPORT");
    // Inductor's six lowerings; the one numbered 3 breaks the program when applied.
    bool good = true;
    for (int i = 0; i < 6 && run.backend == "inductor"; ++i)
      if (!disable_subsystem("inductor", "lowerings", [i] { return "node_" + std::to_string(i); }) && i == 3) good = false;
    return good;
  };
  std::ostringstream log;
  const auto result = bisect(kSystems, run_in_process, {report_dir}, log);
  for (const char* name : {"TORCH_BISECT_BACKEND", "TORCH_BISECT_SUBSYSTEM", "TORCH_BISECT_MAX", "KILN_BISECT_REPORT"}) unsetenv(name);
  ASSERT_TRUE(result) << log.str();
  EXPECT_EQ(result->repr(), "BisectionResult(backend='inductor', subsystem='lowerings', bisect_number=3, debug_info='node_3')") << log.str();
}

}  // namespace
}  // namespace kiln::bisect
