#include "libdiag/report/report.h"

#include <future>
#include <iostream>
#include <sstream>

#include "libdiag/report/report_builder.h"
#include "libdiag/trace/trace_input.h"
#include "libdiag/trace/trace_reader.h"

namespace kiln::report {
namespace {

void say(const ReportOptions& options, const std::string& message) {
  if (options.diagnostic)
    options.diagnostic(message);
  else
    std::cerr << message << '\n';
}

// A failed strict check leaves the output folder empty, as tlparse writes nothing then.
void empty_directory(const std::filesystem::path& dir) {
  for (const auto& entry : std::filesystem::directory_iterator(dir)) std::filesystem::remove_all(entry.path());
}

}  // namespace

void prepare_output_dir(const std::filesystem::path& out_dir, bool overwrite) {
  if (std::filesystem::exists(out_dir)) {
    if (!overwrite)
      throw ReportError("Directory " + out_dir.string() +
                        " already exists; pass --overwrite to replace it or use -o OUTDIR");
    std::filesystem::remove_all(out_dir);
  }
  std::filesystem::create_directories(out_dir);
}

std::string format_stats(const ReportResult& result) {
  // tlparse skips lines that are not UTF-8 without counting them (the run then fails).
  trace::Counters counters = result.counters;
  counters.fail_utf8 = 0;
  std::string text = counters.format();
  if (!result.unknown_fields.empty()) {
    text += "\nUnknown fields: {";
    bool first = true;
    for (const std::string& field : result.unknown_fields) {
      text += first ? "\"" : ", \"";
      first = false;
      text += field + "\"";
    }
    text += "} (consider updating tlparse to render these)";
  }
  return text;
}

ReportResult run_report(const std::filesystem::path& input, const std::filesystem::path& out_dir,
                        const ReportOptions& options) {
  std::error_code error;
  if (std::filesystem::is_directory(input, error))
    throw ReportError(input.string() + " is a directory: pass one of its logs, --latest for the newest log in it, "
                                       "or --all-ranks-html for one log per rank");
  if (!std::filesystem::is_regular_file(input, error)) throw ReportError(input.string() + " is not a file");
  const uint64_t input_bytes = std::filesystem::file_size(input, error);

  // raw.log is a byte copy of the input: made by the kernel on another thread while we parse. A
  // compressed input stays compressed there (raw.log.gz).
  std::future<void> raw_log;
  if (!options.export_mode) {
    const char* raw_name = trace::is_gzip_file(input) ? "raw.log.gz" : "raw.log";
    raw_log = std::async(std::launch::async, [&, raw_name] {
      std::filesystem::copy_file(input, out_dir / raw_name, std::filesystem::copy_options::overwrite_existing);
    });
  }
  ReportBuilder builder(out_dir, options, error ? 0 : input_bytes);
  trace::TraceReader reader(builder);
  trace::ReadResult read;
  try {
    read = reader.read_file(input);
  } catch (const ReportError&) {
    throw;
  } catch (const std::runtime_error& failure) {
    throw ReportError(failure.what());
  }
  ReportResult result = builder.finish(read);
  // Damaged compressed input: the report of everything before the damage is written, then the
  // run fails saying where.
  auto input_failure = [&] {
    return ReportError(input.string() + ": " + *read.input_error + " (after line " + std::to_string(read.lines) +
                       " of the log; the report holds everything before it)");
  };
  if (options.export_mode) {
    if (read.input_error) throw input_failure();
    return result;  // no stats, no strict checks, no raw copies (§6.11)
  }
  raw_log.get();

  say(options, format_stats(result));
  if (read.input_error) throw input_failure();
  if (result.counters.fail_utf8 > 0) throw ReportError("stream did not contain valid UTF-8");
  const bool malformed_ids =
      std::any_of(result.groups.begin(), result.groups.end(), [](const CompileGroup& g) { return g.id.malformed; });
  if ((options.strict && result.counters.strict_failures() > 0) || (options.strict_compile_id && malformed_ids)) {
    empty_directory(out_dir);
    throw ReportError(options.strict && result.counters.strict_failures() > 0 ? "Something went wrong"
                                                                              : "Some log entries did not have compile id");
  }
  return result;
}

std::filesystem::path latest_file_in(const std::filesystem::path& dir) {
  std::error_code error;
  if (!std::filesystem::is_directory(dir, error))
    throw ReportError("Input path " + dir.string() + " is not a directory (required with --latest)");
  // The folder's logs and those of its sub-folders (a folder per run); files that are not
  // traces (notes, an old report's JSON) are passed over even when newer.
  std::filesystem::path latest;
  std::filesystem::file_time_type latest_time;
  auto consider = [&](const std::filesystem::directory_entry& entry) {
    if (!entry.is_regular_file(error) || !trace::looks_like_trace_file(entry.path())) return;
    const auto time = entry.last_write_time(error);
    if (error) return;
    if (latest.empty() || time > latest_time || (time == latest_time && entry.path() > latest)) {
      latest = entry.path();
      latest_time = time;
    }
  };
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    if (entry.is_directory(error)) {
      for (const auto& inner : std::filesystem::directory_iterator(entry.path(), error)) consider(inner);
    } else {
      consider(entry);
    }
  }
  if (latest.empty())
    throw ReportError("No trace log found in directory " + dir.string() +
                      " (looked for TORCH_TRACE logs, plain or gzip-compressed, in it and its sub-folders)");
  return latest;
}

}  // namespace kiln::report
