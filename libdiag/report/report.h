#pragma once
// tlparse: turns one TORCH_TRACE log into an HTML report folder (reference trace_format.md §5-§6).
//
// This is the entry point the tlparse driver, the multi-rank mode (which runs it once per rank
// into <out>/rank_<r>) and the provenance pages (which pick their inputs from
// ReportResult::groups[i].entries afterwards) share. With ReportOptions::inductor_provenance,
// index.html links provenance_tracking_<directory>.html for every group; writing those pages is
// the provenance code's job, run by the driver after run_report.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "libdiag/trace/compile_id.h"
#include "libdiag/trace/counters.h"

namespace kiln::report {

// A failure tlparse reports as "Error: <message>" with exit status 1.
class ReportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ReportOptions {
  bool plain_text = false;           // -p: output code as .txt instead of highlighted HTML
  bool export_mode = false;          // -e: draft-export report (§6.11)
  bool inductor_provenance = false;  // -i: provenance pages (§6.12), linked from index.html
  bool strict = false;               // fail when Counters::strict_failures() > 0
  bool strict_compile_id = false;    // fail when the malformed-id "(unknown)" group exists
  bool verbose = false;              // print every unknown field occurrence
  std::string custom_header_html;    // inserted unescaped at the top of index pages
  // index.html links collectives_parity.json: set by the multi-rank mode, which writes that file
  // into each rank's folder (tlparse links it always, a dead link in single-file mode).
  bool link_collectives_parity = false;
  std::optional<std::filesystem::path> sqlite_path;  // --sqlite: every record into this database
  // Diagnostics ("Failed to parse glog prefix on line 7", "Detected rank: Some(0)"); stderr when unset.
  std::function<void(const std::string&)> diagnostic;
  // Bytes read so far and the input size, every few MB (progress bars).
  std::function<void(uint64_t bytes_read, uint64_t total_bytes)> progress;
};

// One produced entry of a compile group, as listed in index.html and compile_directory.json.
struct OutputEntry {
  std::string name;                         // base file name, or the link's name
  std::string url;                          // path relative to the output root, or the link's URL
  uint64_t number = 0;                      // the global output counter value (§6.2)
  std::optional<std::string> readable_url;  // the _readable.html companion of kernel stack traces
  std::string suffix;                       // cache marker: "", "✅", "❌" or "❓" (§6.10)
  bool is_link = false;                     // a `link` record: url is external, no file exists
};

// The records of one (normalised) compile id, in first-appearance order.
struct CompileGroup {
  trace::CompileId id;        // the grouping key (attempt forced to 0 when only it is absent)
  uint64_t first_line = 0;    // line of the first record; names the unknown_<line> directory
  std::string display;        // "[0/0]", "[-/-]", "(unknown)"
  std::string directory;      // directory name of the normalised id: "-_0_0_0", "unknown_<line>"
  std::vector<OutputEntry> entries;
};

struct ReportResult {
  trace::Counters counters;
  std::set<std::string> unknown_fields;
  std::vector<CompileGroup> groups;  // first-appearance order
  std::optional<int64_t> rank;       // the rank the log was filtered to, if any record had one
  uint64_t input_bytes = 0;
};

// Creates `out_dir` (and its parents). An existing one is an error
// ("Directory <out> already exists; pass --overwrite to replace it or use -o OUTDIR")
// unless `overwrite`, in which case it is removed first.
void prepare_output_dir(const std::filesystem::path& out_dir, bool overwrite);

// Parses `input` in one streaming pass and writes the whole single-rank report into `out_dir`
// (which must exist, see prepare_output_dir). Diagnostics go to options.diagnostic as they occur
// and, in normal mode, format_stats() of the result at the end, before the strict checks. Throws
// ReportError for the failures tlparse reports as errors (strict checks, "Fail reason not found",
// invalid UTF-8, unreadable input).
ReportResult run_report(const std::filesystem::path& input, const std::filesystem::path& out_dir,
                        const ReportOptions& options);

// "Stats { ok: 64 }" and, when any were seen,
// "Unknown fields: {\"a\", \"b\"} (consider updating tlparse to render these)".
std::string format_stats(const ReportResult& result);

// The most recently modified trace log (plain or gzip) in `dir` or one of its sub-folders
// (--latest). Throws ReportError when `dir` is not a directory or holds no trace log.
std::filesystem::path latest_file_in(const std::filesystem::path& dir);

}  // namespace kiln::report
