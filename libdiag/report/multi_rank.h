#pragma once
// `tlparse --all-ranks-html DIR` (reference trace_format.md §7): one single-rank report per rank
// log, parsed in parallel, plus the cross-rank analyses and a landing page.
#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "libdiag/report/report.h"

namespace kiln::report {

struct MultiRankOptions {
  // Applied to every rank (its diagnostic and progress callbacks are called from worker threads,
  // one call at a time); custom_header_html also heads the landing page.
  ReportOptions report;
  bool overwrite = false;
  unsigned jobs = 0;  // ranks parsed at once; 0 means one per hardware thread
};

// Creates `out_dir` (see prepare_output_dir), writes <out_dir>/rank_<r> for every rank log of
// `input_dir` (with provenance pages under -i), then the summary below. Prints
// "Processing rank <r> → <out>/rank_<r>" per rank and the summary's lines to `out`, each rank's
// "Stats { ... }" and diagnostics to `err`. Throws ReportError when `input_dir` is not a
// directory, holds no rank logs, holds two logs of one rank (without `overwrite`), or a rank fails.
// Returns the landing page's path.
std::filesystem::path run_multi_rank(const std::filesystem::path& input_dir, const std::filesystem::path& out_dir,
                                     const MultiRankOptions& options, std::ostream& out, std::ostream& err);

// The cross-rank part alone, over existing <out_dir>/rank_<r> reports: combined
// chromium_events.json, runtime_estimations.json + chromium_trace_with_runtime.json,
// collective_schedules.json, rank_<r>/collectives_parity.json, and index.html. Prints
// "Runtime estimations: <path>", "Collective schedules: <path>" (when written) and
// "Multi-rank report generated under <out>" / "Individual pages: rank_*/index.html" to `out`,
// warnings about unreadable artifacts to `err`. Returns the landing page's path.
std::filesystem::path write_multi_rank_summary(const std::filesystem::path& out_dir, const std::vector<uint32_t>& ranks,
                                               const std::string& custom_header_html, std::ostream& out,
                                               std::ostream& err);

}  // namespace kiln::report
