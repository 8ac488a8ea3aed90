// The rule by which printed output of kiln, live PyTorch and PyTorch's recordings are compared.
#include "tests/support/printed_numbers.h"

#include <gtest/gtest.h>

namespace {

using kiln::test::printed_lines_agree;

TEST(PrintedNumbers, LastPrintedDigitMayDifferByOne) {
  EXPECT_TRUE(printed_lines_agree("0 4.15889", "0 4.15888"));
  EXPECT_TRUE(printed_lines_agree("-0.00000 1.0021", "0.00000 1.0021"));
  EXPECT_TRUE(printed_lines_agree("tensor([[-0.0192, 0.0042]])", "tensor([[-0.0191, 0.0042]])"));
  EXPECT_TRUE(printed_lines_agree("loss 1.2346e-03", "loss 1.2345e-03"));
  EXPECT_TRUE(printed_lines_agree("tensor([0., 1.])", "tensor([0., 1.])"));
}

TEST(PrintedNumbers, AnythingElseMustBeIdentical) {
  EXPECT_FALSE(printed_lines_agree("0 4.15889", "0 4.15887"));    // two units
  EXPECT_FALSE(printed_lines_agree("0 4.15889", "1 4.15889"));    // integers are exact
  EXPECT_FALSE(printed_lines_agree("4.1589", "4.15889"));         // another format
  EXPECT_FALSE(printed_lines_agree("loss 1.2346e-03", "loss 1.2346e-04"));
  EXPECT_FALSE(printed_lines_agree("a 1.0", "b 1.0"));
  EXPECT_FALSE(printed_lines_agree("1.0 2.0", "1.0"));
  EXPECT_FALSE(printed_lines_agree(std::vector<std::string>{"1.0"}, std::vector<std::string>{"1.0", "2.0"}));
  EXPECT_TRUE(printed_lines_agree(std::vector<std::string>{"1.0", "x 2.00"}, std::vector<std::string>{"1.1", "x 2.01"}));
}

}  // namespace
