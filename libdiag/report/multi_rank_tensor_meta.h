#pragma once
// Tensor-metadata fingerprints across ranks (reference §7 step 9): ranks whose compiled graphs
// saw different input shapes, dtypes or strides compiled different code.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "libdiag/report/multi_rank_rank_report.h"

namespace kiln::report {

// Per rank that has any inductor_runtime_and_tensor_meta*.json: the first such file of every
// compile folder, re-serialised compactly with sorted keys, in folder-name order, comma-joined.
// Ranks without such files are absent. Unparsable files are reported through `warn` and skipped.
std::map<uint32_t, std::string> tensor_meta_signatures(const std::vector<RankReport>& reports,
                                                       const std::function<void(const std::string&)>& warn);

}  // namespace kiln::report
