// The SQLite memo and checkpoints persist across opens and keep problems apart.
#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "libdiag/reduce/candidate_key.h"
#include "libdiag/reduce/memo.h"

namespace kiln::reduce {
namespace {

TEST(CandidateKeyTest, DependsOnItemCountAndKeptIndices) {
  const std::vector<size_t> a = {1, 2, 3}, b = {1, 2, 4};
  EXPECT_EQ(candidate_key(10, a), candidate_key(10, a));
  EXPECT_NE(candidate_key(10, a), candidate_key(10, b));
  EXPECT_NE(candidate_key(10, a), candidate_key(11, a));
}

TEST(MemoTest, OutcomesAndCheckpointsSurviveReopening) {
  const auto path = std::filesystem::temp_directory_path() / ("kiln_reduce_memo_" + std::to_string(getpid()));
  std::filesystem::remove(path);
  const std::vector<size_t> kept = {2, 5, 8};
  const CandidateKey key = candidate_key(10, kept);
  {
    Memo memo(path.string(), "p");
    EXPECT_FALSE(memo.lookup(key));
    EXPECT_FALSE(memo.load_checkpoint(10));
    memo.record(key, Outcome::TimedOut);
    memo.save_checkpoint(10, {kept, 4});
  }
  {
    Memo memo(path.string(), "p");
    EXPECT_EQ(memo.lookup(key), Outcome::TimedOut);
    const auto checkpoint = memo.load_checkpoint(10);
    ASSERT_TRUE(checkpoint);
    EXPECT_EQ(checkpoint->kept, kept);
    EXPECT_EQ(checkpoint->granularity, 4u);
    // A checkpoint of another item count is another input.
    EXPECT_FALSE(memo.load_checkpoint(11));
    // One checkpoint per problem: the newest replaces it, the empty list included.
    memo.save_checkpoint(10, {{}, 2});
    ASSERT_TRUE(memo.load_checkpoint(10));
    EXPECT_TRUE(memo.load_checkpoint(10)->kept.empty());
  }
  {
    Memo other(path.string(), "q");
    EXPECT_FALSE(other.lookup(key));
    EXPECT_FALSE(other.load_checkpoint(10));
  }
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
}

}  // namespace
}  // namespace kiln::reduce
