#pragma once
// Printed output of two runs compared as the accuracy rules allow: the same text, except that a
// printed decimal may differ by one unit in its last printed digit (and -0.0000 equals 0.0000).
// PyTorch's own CPU kernels pick vector paths by CPU, so the same script prints 4.15889 on one
// machine and 4.15888 on another; integers and all other text must be identical.
#include <string>
#include <vector>

namespace kiln::test {

bool printed_lines_agree(const std::string& a, const std::string& b);
bool printed_lines_agree(const std::vector<std::string>& a, const std::vector<std::string>& b);

}  // namespace kiln::test
