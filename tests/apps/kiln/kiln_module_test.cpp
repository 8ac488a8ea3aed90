// kiln -m MODULE, as CPython's python -m: the parent package imported first, the module run as
// __main__ with __package__ set (relative imports work) and sys.argv[0] its file; a package
// runs its __main__; a missing module is CPython's one-line error.
#include <gtest/gtest.h>

#include "tests/apps/kiln/kiln_run.h"
#include "tests/support/shared_data.h"

using namespace kiln::test;

namespace {

TEST(KilnModules, RunsAModuleOfAPackageAsMain) {
  RunResult result = run(kiln_binary(), "-m pkg.tool a b", testdataPath("run_module"));
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(result.out, "init pkg\ntool __main__ pkg True ['a', 'b']\n42\n");
}

TEST(KilnModules, RunsAPackagesMainModule) {
  RunResult result = run(kiln_binary(), "-m pkg x", testdataPath("run_module"));
  EXPECT_EQ(result.status, 0) << result.err;
  EXPECT_EQ(result.out, "init pkg\nmain __main__ pkg True ['x']\n");
}

TEST(KilnModules, AMissingModuleIsAOneLineError) {
  RunResult result = run(kiln_binary(), "-m nosuch", testdataPath("run_module"));
  EXPECT_EQ(result.status, 1);
  EXPECT_EQ(result.err, "kiln: No module named nosuch\n");
}

}  // namespace
