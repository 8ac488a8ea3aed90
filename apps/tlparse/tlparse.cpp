// tlparse: turns a TORCH_TRACE log into an HTML report. Kiln's implementation of tlparse 0.4.3's
// command line (reference trace_format.md §8); all the work is in libdiag/report.
#include <boost/program_options.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>

#include "apps/tlparse/diff_command.h"
#include "apps/tlparse/open_in_browser.h"
#include "apps/tlparse/progress_bar.h"
#include "kiln_config.h"
#include "libdiag/report/multi_rank.h"
#include "libdiag/report/provenance_page.h"
#include "libdiag/report/report.h"
#include "libdiag/trace/trace_input.h"

namespace fs = std::filesystem;
namespace po = boost::program_options;

namespace {

constexpr const char* kUsage = "Usage: tlparse [OPTIONS] <PATH>\n       tlparse diff [OPTIONS] <A> <B>";

struct Arguments {
  fs::path path;
  fs::path out = "tl_out";
  bool overwrite = false, latest = false, no_browser = false, all_ranks = false;
  unsigned jobs = 0;
  kiln::report::ReportOptions report;
};

po::options_description option_table(Arguments& args) {
  po::options_description options("Options");
  options.add_options()
      ("latest", po::bool_switch(&args.latest), "Parse the newest trace log (plain or gzip) of the directory PATH or its sub-folders")
      (",o", po::value<std::string>()->value_name("OUT")->default_value("tl_out"), "Output directory [default: tl_out]")
      ("overwrite", po::bool_switch(&args.overwrite), "Delete the output directory if it already exists")
      ("strict", po::bool_switch(&args.report.strict),
       "Return non-zero exit code if unrecognized log lines are found")
      ("strict-compile-id", po::bool_switch(&args.report.strict_compile_id),
       "Return non-zero exit code if some log lines do not have an associated compile id")
      ("no-browser", po::bool_switch(&args.no_browser), "Don't open the report in a browser at the end")
      ("custom-header-html", po::value<std::string>(&args.report.custom_header_html)->value_name("HTML"),
       "Custom HTML inserted at the top of the report")
      ("verbose,v", po::bool_switch(&args.report.verbose), "Print every unknown field")
      ("plain-text,p", po::bool_switch(&args.report.plain_text),
       "Write output code as plain text instead of highlighted HTML (easier diffing)")
      ("export,e", po::bool_switch(&args.report.export_mode), "Report for torch.export (draft export) logs")
      ("inductor-provenance,i", po::bool_switch(&args.report.inductor_provenance),
       "Write inductor provenance tracking pages")
      ("all-ranks-html", po::bool_switch(&args.all_ranks),
       "Parse every rank's log in the directory PATH into one multi-rank report")
      (",j", po::value<unsigned>(&args.jobs)->value_name("N"), "Ranks parsed in parallel with --all-ranks-html")
      ("sqlite", po::value<std::string>()->value_name("FILE"), "Also write every record into an SQLite database")
      ("help,h", "Print help")
      ("version,V", "Print version");
  return options;
}

int usage_error(const std::string& message) {
  std::cerr << "error: " << message << "\n\n" << kUsage << "\n\nFor more information, try '--help'.\n";
  return 2;
}

int fail(const std::string& message) {
  std::cerr << "Error: " << message << '\n';
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "diff") return kiln::apps::run_diff_command(argc - 1, argv + 1);
  Arguments args;
  po::options_description options = option_table(args);
  po::options_description hidden;
  hidden.add_options()("path", po::value<std::string>());
  po::options_description all;
  all.add(options).add(hidden);
  po::positional_options_description positional;
  positional.add("path", 1);

  po::variables_map values;
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), values);
    po::notify(values);
  } catch (const po::error& error) {
    return usage_error(error.what());
  }
  if (values.count("help")) {
    std::cout << "Parse TORCH_TRACE logs produced by PyTorch torch.compile (or Kiln) into an HTML report\n\n"
              << kUsage << "\n\nArguments:\n  <PATH>  log file (plain or gzip-compressed); a directory with --latest or --all-ranks-html\n\n"
              << "Commands:\n  diff    compare two traces compile by compile (tlparse diff --help)\n\n"
              << options;
    return 0;
  }
  if (values.count("version")) {
    std::cout << "tlparse " KILN_VERSION " (Kiln; compatible with tlparse 0.4.3)\n";
    return 0;
  }
  if (!values.count("path")) return usage_error("the following required arguments were not provided:\n  <PATH>");
  args.path = values["path"].as<std::string>();
  args.out = values["-o"].as<std::string>();
  if (values.count("sqlite")) args.report.sqlite_path = fs::path(values["sqlite"].as<std::string>());

  try {
    if (args.latest && args.all_ranks) return fail("--latest cannot be used with --all-ranks-html");
    if (args.all_ranks) {
      kiln::report::MultiRankOptions multi;
      multi.report = args.report;
      multi.overwrite = args.overwrite;
      multi.jobs = args.jobs;
      const fs::path landing = kiln::report::run_multi_rank(args.path, args.out, multi, std::cout, std::cerr);
      if (!args.no_browser) kiln::apps::open_in_browser(landing);
      return 0;
    }
    if (args.latest) args.path = kiln::report::latest_file_in(args.path);

    kiln::report::prepare_output_dir(args.out, args.overwrite);
    std::error_code error;
    // The bar counts bytes of log text, which a compressed file's size does not tell: none then.
    const bool measurable = fs::is_regular_file(args.path, error) && !kiln::trace::is_gzip_file(args.path);
    kiln::apps::ProgressBar progress(measurable ? fs::file_size(args.path, error) : 0);
    if (progress.active()) {
      args.report.progress = [&progress](uint64_t bytes, uint64_t) { progress.update(bytes); };
      args.report.diagnostic = [&progress](const std::string& message) {
        progress.clear();
        std::cerr << message << '\n';
      };
    }
    const kiln::report::ReportResult result = kiln::report::run_report(args.path, args.out, args.report);
    if (args.report.inductor_provenance) kiln::report::write_provenance_pages(args.out, result, args.report.plain_text);
    if (!args.no_browser) kiln::apps::open_in_browser(args.out / "index.html");
  } catch (const std::exception& error) {
    return fail(error.what());
  }
  return 0;
}
