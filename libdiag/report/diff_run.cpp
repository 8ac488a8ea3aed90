#include "libdiag/report/diff_run.h"

#include <future>

#include "libdiag/report/diff_page.h"
#include "libdiag/report/diff_text.h"
#include "libdiag/report/file_output.h"
#include "libdiag/report/report.h"
#include "libdiag/report/trace_diff.h"

namespace kiln::report {
namespace {

std::filesystem::path trace_file(const std::filesystem::path& input) {
  std::error_code error;
  if (std::filesystem::is_directory(input, error)) return latest_file_in(input);
  if (!std::filesystem::is_regular_file(input, error)) throw ReportError(input.string() + " is not a file or folder");
  return input;
}

TraceSummary summarize(const std::filesystem::path& path, const SummaryLimits& limits) {
  try {
    return summarize_trace(path, limits);
  } catch (const std::runtime_error& failure) {
    throw ReportError(failure.what());
  }
}

}  // namespace

DiffResult run_diff(const DiffOptions& options, std::ostream& out) {
  const std::filesystem::path before_path = trace_file(options.before), after_path = trace_file(options.after);
  if (!options.plain_text) prepare_output_dir(options.out, options.overwrite);

  auto after_future = std::async(std::launch::async, [&] { return summarize(after_path, options.limits); });
  TraceSummary before = summarize(before_path, options.limits);
  TraceSummary after = after_future.get();
  const TraceDiff diff = diff_traces(std::move(before), std::move(after));

  DiffResult result;
  result.failed = failed_conditions(options.fail_on, diff);
  out << render_diff_text(diff, result.failed);
  if (!options.plain_text) {
    result.page = options.out / "diff.html";
    write_file(*result.page, render_diff_page(diff, result.failed));
    out << "\nDiff page: " << result.page->string() << "\n";
  }
  for (const TraceSummary* side : {&diff.before, &diff.after})
    if (side->input_error) throw ReportError(side->path.string() + ": " + *side->input_error);
  return result;
}

}  // namespace kiln::report
