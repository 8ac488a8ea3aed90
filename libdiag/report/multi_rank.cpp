#include "libdiag/report/multi_rank.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <map>
#include <mutex>
#include <thread>

#include "libdiag/report/file_output.h"
#include "libdiag/report/multi_rank_chromium.h"
#include "libdiag/report/multi_rank_collectives.h"
#include "libdiag/report/multi_rank_collectives_parity.h"
#include "libdiag/report/multi_rank_discovery.h"
#include "libdiag/report/multi_rank_divergence.h"
#include "libdiag/report/multi_rank_exec_order.h"
#include "libdiag/report/multi_rank_landing.h"
#include "libdiag/report/multi_rank_runtime.h"
#include "libdiag/report/multi_rank_tensor_meta.h"
#include "libdiag/report/provenance_page.h"

namespace kiln::report {
namespace {

std::filesystem::path rank_dir(const std::filesystem::path& out_dir, uint32_t rank) {
  return out_dir / ("rank_" + std::to_string(rank));
}

// The logs to parse, one per rank: with `overwrite` a later log of a rank replaces an earlier
// one (as rerunning tlparse into the same folder would); without it two logs of one rank fail.
std::vector<RankLog> one_log_per_rank(std::vector<RankLog> logs, const std::filesystem::path& out_dir, bool overwrite) {
  std::vector<RankLog> unique;
  for (RankLog& log : logs) {
    if (!unique.empty() && unique.back().rank == log.rank) {
      if (!overwrite)
        throw ReportError("Directory " + rank_dir(out_dir, log.rank).string() +
                          " already exists; pass --overwrite to replace it or use -o OUTDIR");
      unique.back() = std::move(log);
    } else {
      unique.push_back(std::move(log));
    }
  }
  return unique;
}

}  // namespace

std::filesystem::path run_multi_rank(const std::filesystem::path& input_dir, const std::filesystem::path& out_dir,
                                     const MultiRankOptions& options, std::ostream& out, std::ostream& err) {
  if (!std::filesystem::is_directory(input_dir))
    throw ReportError("Input path " + input_dir.string() + " must be a directory when using --all-ranks-html");
  prepare_output_dir(out_dir, options.overwrite);
  std::vector<RankLog> logs = discover_rank_logs(input_dir);
  if (logs.empty()) throw ReportError("No rank log files found in directory " + input_dir.string());
  logs = one_log_per_rank(std::move(logs), out_dir, options.overwrite);

  // Workers take the next rank until none is left or one failed; output is one line at a time.
  std::mutex output_mutex;
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr first_error;
  ReportOptions rank_options = options.report;
  rank_options.link_collectives_parity = true;  // written into every rank folder below
  rank_options.diagnostic = [&](const std::string& line) {
    std::lock_guard lock(output_mutex);
    if (options.report.diagnostic) options.report.diagnostic(line);
    else err << line << '\n';
  };
  if (options.report.progress) {
    rank_options.progress = [&](uint64_t bytes_read, uint64_t total_bytes) {
      std::lock_guard lock(output_mutex);
      options.report.progress(bytes_read, total_bytes);
    };
  }
  auto work = [&] {
    for (size_t index; !failed && (index = next++) < logs.size();) {
      const RankLog& log = logs[index];
      const std::filesystem::path dir = rank_dir(out_dir, log.rank);
      try {
        {
          std::lock_guard lock(output_mutex);
          out << "Processing rank " << log.rank << " \u2192 " << dir.string() << '\n' << std::flush;
        }
        prepare_output_dir(dir, options.overwrite);
        const ReportResult result = run_report(log.path, dir, rank_options);
        if (options.report.inductor_provenance) write_provenance_pages(dir, result, options.report.plain_text);
      } catch (...) {
        std::lock_guard lock(output_mutex);
        if (!first_error) first_error = std::current_exception();
        failed = true;
      }
    }
  };
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  const size_t workers = std::min<size_t>(options.jobs == 0 ? hardware : options.jobs, logs.size());
  std::vector<std::thread> threads;
  for (size_t i = 1; i < workers; ++i) threads.emplace_back(work);
  work();
  for (std::thread& thread : threads) thread.join();
  if (first_error) std::rethrow_exception(first_error);

  std::vector<uint32_t> ranks;
  for (const RankLog& log : logs) ranks.push_back(log.rank);
  return write_multi_rank_summary(out_dir, ranks, options.report.custom_header_html, out, err);
}

std::filesystem::path write_multi_rank_summary(const std::filesystem::path& out_dir, const std::vector<uint32_t>& ranks,
                                               const std::string& custom_header_html, std::ostream& out,
                                               std::ostream& err) {
  std::vector<uint32_t> sorted_ranks = ranks;
  std::sort(sorted_ranks.begin(), sorted_ranks.end());
  std::vector<RankReport> reports;
  for (uint32_t rank : sorted_ranks) reports.push_back(load_rank_report(out_dir, rank));
  const auto warn = [&](const std::string& message) { err << message << '\n'; };

  MultiRankFindings findings;
  findings.ranks = sorted_ranks;
  findings.compile_ids_diverge = compile_ids_diverge(reports);
  std::map<uint32_t, std::string> cache_sequences;
  for (const RankReport& report : reports) cache_sequences[report.rank] = cache_sequence(report);
  findings.cache_groups = group_ranks(cache_sequences);

  findings.has_chromium_events = write_combined_chromium_events(reports, out_dir / "chromium_events.json") > 0;

  const std::vector<GraphRuntime> runtimes = read_runtime_estimations(reports, warn);
  if (!runtimes.empty()) {
    const std::filesystem::path path = out_dir / "runtime_estimations.json";
    write_file(path, runtime_estimations_json(runtimes));
    out << "Runtime estimations: " << path.string() << '\n';
    write_file(out_dir / "chromium_trace_with_runtime.json", runtime_trace_json(runtimes));
    findings.has_runtime_trace = true;
    findings.runtime = analyze_runtimes(runtimes);
  }

  const std::vector<CollectiveSchedule> schedules = read_collective_schedules(reports, warn);
  if (!schedules.empty()) {
    const std::filesystem::path path = out_dir / "collective_schedules.json";
    write_file(path, collective_schedules_json(schedules));
    out << "Collective schedules: " << path.string() << '\n';
    findings.collective_groups = group_ranks(collective_sequences(reports, schedules));
  }

  for (const RankReport& report : reports)
    write_file(report.dir / "collectives_parity.json", collectives_parity_json(check_collectives_parity(report)));

  findings.tensor_meta_groups = group_ranks(tensor_meta_signatures(reports, warn));

  out << "Multi-rank report generated under " << out_dir.string() << "\nIndividual pages: rank_*/index.html\n";

  findings.exec_order = analyze_execution_order(reports, schedules);

  const std::filesystem::path landing = out_dir / "index.html";
  write_file(landing, render_multi_rank_landing(findings, custom_header_html));
  return landing;
}

}  // namespace kiln::report
