// The switch a compiler consults, as the driver's environment sets it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "libdiag/bisect/subsystem_switch.h"
#include "tests/support/shared_data.h"

namespace kiln::bisect {
namespace {

class SwitchTest : public ::testing::Test {
 protected:
  void TearDown() override {
    for (const char* name : {"TORCH_BISECT_BACKEND", "TORCH_BISECT_SUBSYSTEM", "TORCH_BISECT_MAX", "KILN_BISECT_REPORT"}) unsetenv(name);
  }
};

TEST_F(SwitchTest, OnlyTheBisectedSubsystemOfTheBisectedBackend) {
  setenv("TORCH_BISECT_BACKEND", "inductor", 1);
  setenv("TORCH_BISECT_SUBSYSTEM", "lowerings_a", 1);
  setenv("TORCH_BISECT_MAX", "-1", 1);
  EXPECT_TRUE(disable_subsystem("inductor", "lowerings_a"));
  EXPECT_FALSE(disable_subsystem("inductor", "post_grad_passes"));
  EXPECT_FALSE(disable_subsystem("aot_eager_decomp_partition", "lowerings_a"));
  unsetenv("TORCH_BISECT_BACKEND");
  EXPECT_FALSE(disable_subsystem("inductor", "lowerings_a"));
}

TEST_F(SwitchTest, ApplicationsPastTheMaximumAreDisabledAndReported) {
  const auto report = test::scratchDir("switch") / "report.txt";
  setenv("TORCH_BISECT_BACKEND", "inductor", 1);
  setenv("TORCH_BISECT_SUBSYSTEM", "lowerings_b", 1);
  setenv("TORCH_BISECT_MAX", "1", 1);
  setenv("KILN_BISECT_REPORT", report.c_str(), 1);
  std::vector<bool> disabled;
  for (int i = 0; i < 4; ++i) disabled.push_back(disable_subsystem("inductor", "lowerings_b", [i] { return "node_" + std::to_string(i); }));
  EXPECT_EQ(disabled, (std::vector<bool>{false, false, true, true}));
  std::ifstream in(report);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "0\tnode_0\n1\tnode_1\n2\tnode_2\n3\tnode_3\n");
}

TEST_F(SwitchTest, WithoutAMaximumNothingIsDisabled) {
  setenv("TORCH_BISECT_BACKEND", "inductor", 1);
  setenv("TORCH_BISECT_SUBSYSTEM", "lowerings_c", 1);
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(disable_subsystem("inductor", "lowerings_c"));
}

}  // namespace
}  // namespace kiln::bisect
