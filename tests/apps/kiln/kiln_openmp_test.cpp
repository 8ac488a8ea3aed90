// OpenMP's wait policy: kiln runs libgomp's threads PASSIVE unless the user chose (their spinning
// after each oneDNN call takes the cores kiln's own threads need), yet the script and the
// processes it starts see the environment the user gave.
#include <gtest/gtest.h>

#include "tests/apps/kiln/kiln_run.h"
#include "tests/support/shared_data.h"

using namespace kiln::test;

namespace {

TEST(KilnOpenMp, ThreadsWaitPassivelyUnlessTheUserChose) {
  RunResult unset = run(kiln_binary(), "openmp_policy.py", testdataPath("run_environment"), "env -u OMP_WAIT_POLICY ");
  EXPECT_EQ(unset.status, 0) << unset.err;
  EXPECT_EQ(unset.out, "True None False\n");
  RunResult chosen = run(kiln_binary(), "openmp_policy.py", testdataPath("run_environment"), "OMP_WAIT_POLICY=ACTIVE ");
  EXPECT_EQ(chosen.status, 0) << chosen.err;
  EXPECT_EQ(chosen.out, "False ACTIVE False\n");
}

}  // namespace
