// CompileId renderings: every row of reference trace_format.md §3.2, and PyTorch's text (§3.1).
#include <gtest/gtest.h>

#include "libdiag/trace/compile_id.h"
#include "tests/libdiag/trace/compile_ids.h"

namespace kiln::trace {
namespace {

struct Row {
  CompileId id;
  const char* display;
  const char* directory;
  const char* pytorch_text;
};

TEST(CompileId, ReferenceTableRows) {
  CompileId malformed;
  malformed.malformed = true;
  const Row rows[] = {
      {id({}, 0, 0, 0), "[0/0]", "-_0_0_0", "0/0"},
      {id({}, 0, 0, 1), "[0/0_1]", "-_0_0_1", "0/0_1"},
      {id({}, 1, 2, 0), "[1/2]", "-_1_2_0", "1/2"},
      {id({}, 2, 0, {}), "[2/0]", "-_2_0_-", "2/0"},
      {id(0, {}, {}, {}), "[!0/-/-]", "0_-_-_-", "!0"},
      {id(0, 2, 1, 2), "[!0/2/1_2]", "0_2_1_2", "!0/2/1_2"},
      {id({}, {}, {}, {}), "[-/-]", "-_-_-_-", "None"},
      {malformed, "(unknown)", "unknown_17", "None"},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.display);
    EXPECT_EQ(row.id.display(), row.display);
    EXPECT_EQ(row.id.directory(17), row.directory);
    EXPECT_EQ(row.id.pytorch_text(), row.pytorch_text);
  }
}

TEST(CompileId, NormalizedForcesAttemptZeroOnlyWhenAFrameCompileIdIsPresent) {
  EXPECT_EQ(id({}, 2, 0, {}).normalized(), id({}, 2, 0, 0));
  EXPECT_EQ(id({}, 2, 0, 3).normalized(), id({}, 2, 0, 3));
  EXPECT_EQ(id(0, {}, {}, {}).normalized(), id(0, {}, {}, {}));
  EXPECT_EQ(id({}, {}, {}, {}).normalized(), id({}, {}, {}, {}));
  // The directory still comes from the raw ids.
  EXPECT_EQ(id({}, 2, 0, {}).directory(1), "-_2_0_-");
  EXPECT_EQ(id({}, 2, 0, {}).normalized().display(), "[2/0]");
}

}  // namespace
}  // namespace kiln::trace
