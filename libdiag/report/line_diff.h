#pragma once
// A shortest edit script between two sequences of lines (Myers' O(ND) algorithm), for the
// node-level graph diffs and output-code diffs of `tlparse diff`.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace kiln::report {

struct DiffLine {
  enum class Kind { Same, Removed, Added };
  Kind kind;
  size_t before = 0, after = 0;  // index in the respective sequence (the one that applies)
};

// The edit script from `before` to `after`, in order; nullopt when the sequences differ in more
// than `max_edits` lines (the cost grows with the number of edits, so very different inputs are
// summarised instead of diffed).
std::optional<std::vector<DiffLine>> diff_lines(const std::vector<std::string>& before,
                                                const std::vector<std::string>& after, size_t max_edits);

}  // namespace kiln::report
