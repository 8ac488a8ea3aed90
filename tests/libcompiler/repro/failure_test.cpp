// When two failures are the same failure.
#include <gtest/gtest.h>

#include "libcompiler/repro/candidate_test.h"
#include "libcompiler/repro/failure.h"

namespace kiln::repro {
namespace {

TEST(Failure, MessageClassMasksWhatChangesAsAGraphShrinks) {
  EXPECT_EQ(message_class("size mismatch: 32 vs 64 at relu_1"), "size mismatch: # vs # at relu");
  EXPECT_EQ(message_class("toy_compiler refuses relu"), "toy_compiler refuses relu");
  EXPECT_EQ(message_class("error in /tmp/torchinductor_root/ah/cahlrmkn4oq52x5.cpp: deadbeef12 failed"), "error in #.cpp: # failed");
  // PyTorch's Inductor names a generated module by a base-32 hash of its source: two candidates
  // with the same bug fail to import differently named files (seen on CUDA, after Dynamo).
  EXPECT_EQ(message_class("RuntimeError: Failed to import /tmp/torchinductor_root/5f/c5fclc5slhgvyauszfchd3c4ex5wgxhevqq6wlquum4djyd2zyed.py"),
            message_class("RuntimeError: Failed to import /tmp/torchinductor_root/xq/cxqvkm2b7hyt3ldzs8vaw4jn5.py"));
  EXPECT_EQ(message_class("see '/a/b' and (/x/y.h:12)"), "see '#' and (#.h:#)");
  EXPECT_EQ(message_class("ratio 3/4 and and/or /single"), "ratio #/# and and/or /single");
  EXPECT_EQ(message_class("first line 1\nsecond line"), "first line #");
  EXPECT_EQ(message_class("arg0_1 and add_12"), "arg# and add");
}

TEST(Failure, SameTypeAndMessageClass) {
  const Failure original{Failure::Kind::Exception, "RuntimeError", "shape [32, 64] is invalid for relu_3"};
  EXPECT_TRUE(same_failure({Failure::Kind::Exception, "RuntimeError", "shape [4, 4] is invalid for relu"}, original));
  EXPECT_TRUE(same_failure({Failure::Kind::Exception, "RuntimeError", "shape [4, 4] is invalid for relu_1"}, original));
  EXPECT_FALSE(same_failure({Failure::Kind::Exception, "ValueError", "shape [32, 64] is invalid for relu_3"}, original));
  EXPECT_FALSE(same_failure({Failure::Kind::Exception, "RuntimeError", "something else"}, original));
  EXPECT_FALSE(same_failure({Failure::Kind::Invalid, "RuntimeError", "shape [32, 64] is invalid for relu_3"}, original));
  EXPECT_FALSE(same_failure({}, original));
}

TEST(Failure, AccuracyCrashAndHangAreTheirOwnKinds) {
  const Failure accuracy{Failure::Kind::Accuracy, "AccuracyError", "Bad accuracy detected"};
  EXPECT_TRUE(same_failure(accuracy, accuracy));
  EXPECT_FALSE(same_failure({Failure::Kind::Exception, "AccuracyError", "Bad accuracy detected"}, accuracy));
  EXPECT_TRUE(same_failure({Failure::Kind::Crash, "Crash", ""}, {Failure::Kind::Crash, "Crash", ""}));
  EXPECT_FALSE(same_failure({Failure::Kind::Hang, "Hang", ""}, {Failure::Kind::Crash, "Crash", ""}));
}

// A candidate whose outputs match but whose gradients do not is another failure than a forward
// accuracy bug: keeping it let the minifier trade the relu for the first node of the graph.
TEST(Failure, AccuracyFailuresAreTheSameOnlyAtTheSameSite) {
  const Failure outputs = accuracy_verdict(AccuracySite::Outputs), gradients = accuracy_verdict(AccuracySite::Gradients);
  EXPECT_TRUE(same_failure(outputs, outputs, "Bad accuracy detected"));
  EXPECT_TRUE(same_failure(gradients, gradients));
  EXPECT_FALSE(same_failure(gradients, outputs));
  EXPECT_FALSE(same_failure(outputs, gradients));
  EXPECT_FALSE(accuracy_verdict(AccuracySite::None).failed());
}

TEST(Failure, CheckStrMustOccur) {
  const Failure original{Failure::Kind::Exception, "AssertionError", "toy_compiler refuses relu"};
  EXPECT_TRUE(same_failure(original, original, "refuses relu"));
  EXPECT_FALSE(same_failure(original, original, "refuses sigmoid"));
}

}  // namespace
}  // namespace kiln::repro
