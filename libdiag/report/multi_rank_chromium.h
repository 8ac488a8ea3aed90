#pragma once
// The combined chromium_events.json of a multi-rank report (reference §7 step 4): every rank's
// events, each with its "pid" set to the rank so Perfetto shows one process per rank.
#include <cstddef>
#include <filesystem>
#include <vector>

#include "libdiag/report/multi_rank_rank_report.h"

namespace kiln::report {

// Writes the events of every rank's chromium_events.json (ranks in the given order, events in
// file order) to `path`, pretty-printed with sorted keys; writes nothing when there are none. A
// rank file that is missing or not a JSON array contributes nothing. Returns the event count.
size_t write_combined_chromium_events(const std::vector<RankReport>& reports, const std::filesystem::path& path);

}  // namespace kiln::report
