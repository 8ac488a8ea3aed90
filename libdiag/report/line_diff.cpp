#include "libdiag/report/line_diff.h"

#include <algorithm>
#include <unordered_map>

namespace kiln::report {
namespace {

// Lines as small integers: equal lines get equal ids, so the search compares ints.
void intern(const std::vector<std::string>& before, const std::vector<std::string>& after, std::vector<int>& a,
            std::vector<int>& b) {
  std::unordered_map<std::string_view, int> ids;
  auto id = [&](const std::string& line) { return ids.try_emplace(line, static_cast<int>(ids.size())).first->second; };
  for (const std::string& line : before) a.push_back(id(line));
  for (const std::string& line : after) b.push_back(id(line));
}

}  // namespace

std::optional<std::vector<DiffLine>> diff_lines(const std::vector<std::string>& before,
                                                const std::vector<std::string>& after, size_t max_edits) {
  std::vector<int> a, b;
  intern(before, after, a, b);
  // The common prefix and suffix need no search.
  size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
    ++suffix;
  const long n = static_cast<long>(a.size() - prefix - suffix), m = static_cast<long>(b.size() - prefix - suffix);
  auto same = [&](long x, long y) { return a[prefix + x] == b[prefix + y]; };

  // Forward Myers search; trace[d] is the furthest-reaching x of diagonals -d..d after d edits
  // (only those, so the trace takes O(D^2) memory, not O(D * (N + M))).
  const long max_d = std::min<long>(n + m, static_cast<long>(max_edits));
  const long offset = max_d + 1;
  std::vector<long> v(2 * offset + 1, 0);
  std::vector<std::vector<long>> trace;
  long found_d = -1;
  for (long d = 0; d <= max_d && found_d < 0; ++d) {
    for (long k = -d; k <= d; k += 2) {
      long x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      long y = x - k;
      while (x < n && y < m && same(x, y)) ++x, ++y;
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found_d = d;
        break;
      }
    }
    trace.emplace_back(v.begin() + (offset - d), v.begin() + (offset + d + 1));
  }
  if (found_d < 0) return std::nullopt;

  // Walk back through the recorded frontiers to recover the script.
  std::vector<DiffLine> middle;
  long x = n, y = m;
  for (long d = found_d; d > 0; --d) {
    const std::vector<long>& previous = trace[d - 1];
    auto previous_at = [&](long diagonal) { return previous[diagonal + (d - 1)]; };
    const long k = x - y;
    const bool down = k == -d || (k != d && previous_at(k - 1) < previous_at(k + 1));
    const long previous_k = down ? k + 1 : k - 1;
    const long previous_x = previous_at(previous_k), previous_y = previous_x - previous_k;
    while (x > previous_x + (down ? 0 : 1) && y > previous_y + (down ? 1 : 0)) {
      --x, --y;
      middle.push_back({DiffLine::Kind::Same, prefix + x, prefix + y});
    }
    if (down) {
      --y;
      middle.push_back({DiffLine::Kind::Added, prefix + x, prefix + y});
    } else {
      --x;
      middle.push_back({DiffLine::Kind::Removed, prefix + x, prefix + y});
    }
  }
  while (x > 0 && y > 0) {
    --x, --y;
    middle.push_back({DiffLine::Kind::Same, prefix + x, prefix + y});
  }
  std::vector<DiffLine> script;
  script.reserve(prefix + middle.size() + suffix);
  for (size_t i = 0; i < prefix; ++i) script.push_back({DiffLine::Kind::Same, i, i});
  script.insert(script.end(), middle.rbegin(), middle.rend());
  for (size_t i = 0; i < suffix; ++i)
    script.push_back({DiffLine::Kind::Same, a.size() - suffix + i, b.size() - suffix + i});
  return script;
}

}  // namespace kiln::report
