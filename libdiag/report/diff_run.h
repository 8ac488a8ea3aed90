#pragma once
// `tlparse diff A B`: reads both traces (at once, one thread each), prints the text summary and
// writes diff.html. The entry point the tlparse driver calls.
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "libdiag/report/compile_summary.h"
#include "libdiag/report/diff_fail_on.h"

namespace kiln::report {

struct DiffOptions {
  std::filesystem::path before, after;  // trace files, or folders (their newest trace, as --latest)
  std::filesystem::path out = "tl_diff";
  bool overwrite = false;
  bool plain_text = false;  // only the text summary: no folder, no page
  std::vector<FailOnCondition> fail_on;
  SummaryLimits limits;
};

struct DiffResult {
  std::vector<std::string> failed;        // the --fail-on conditions that hold
  std::optional<std::filesystem::path> page;  // diff.html, unless plain_text
};

// Throws ReportError when an input cannot be read or the output folder exists without
// `overwrite`; when an input turns out damaged (corrupt gzip), after writing what it could.
DiffResult run_diff(const DiffOptions& options, std::ostream& out);

}  // namespace kiln::report
