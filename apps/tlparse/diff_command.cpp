#include "apps/tlparse/diff_command.h"

#include <boost/program_options.hpp>

#include <iostream>
#include <string>

#include "apps/tlparse/open_in_browser.h"
#include "libdiag/report/diff_run.h"
#include "libdiag/report/report.h"

namespace kiln::apps {
namespace {

namespace po = boost::program_options;

constexpr const char* kUsage = "Usage: tlparse diff [OPTIONS] <A> <B>";

int usage_error(const std::string& message) {
  std::cerr << "error: " << message << "\n\n" << kUsage << "\n\nFor more information, try 'tlparse diff --help'.\n";
  return 2;
}

}  // namespace

int run_diff_command(int argc, char** argv) {
  report::DiffOptions options;
  std::string out = "tl_diff", fail_on;
  bool no_browser = false;
  po::options_description table("Options");
  table.add_options()
      (",o", po::value<std::string>(&out)->value_name("OUT"), "Output directory of diff.html [default: tl_diff]")
      ("overwrite", po::bool_switch(&options.overwrite), "Delete the output directory if it already exists")
      ("no-browser", po::bool_switch(&no_browser), "Don't open the diff page in a browser at the end")
      ("plain-text,p", po::bool_switch(&options.plain_text), "Only print the text summary (no output directory)")
      ("fail-on", po::value<std::string>(&fail_on)->value_name("KINDS"),
       "Exit 1 when any of these comma-separated conditions holds (see below)")
      ("help,h", "Print help");
  po::options_description hidden;
  hidden.add_options()("a", po::value<std::string>())("b", po::value<std::string>());
  po::options_description all;
  all.add(table).add(hidden);
  po::positional_options_description positional;
  positional.add("a", 1).add("b", 1);

  po::variables_map values;
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), values);
    po::notify(values);
  } catch (const po::error& error) {
    return usage_error(error.what());
  }
  if (values.count("help")) {
    std::cout << "Compare two TORCH_TRACE logs (two runs, two ranks, PyTorch and Kiln on one script) compile by compile\n\n"
              << kUsage
              << "\n\nArguments:\n  <A>  the trace before (a log, plain or gzip, or a folder: its newest log)\n"
                 "  <B>  the trace after\n\n"
              << table << "\n--fail-on conditions:\n" << report::fail_on_help();
    return 0;
  }
  if (!values.count("a") || !values.count("b"))
    return usage_error("the following required arguments were not provided:\n  <A> <B>");
  options.before = values["a"].as<std::string>();
  options.after = values["b"].as<std::string>();
  options.out = out;
  try {
    options.fail_on = report::parse_fail_on(fail_on);
  } catch (const std::invalid_argument& error) {
    return usage_error(error.what());
  }

  try {
    const report::DiffResult result = report::run_diff(options, std::cout);
    if (result.page && !no_browser) open_in_browser(*result.page);
    return result.failed.empty() ? 0 : 1;
  } catch (const std::exception& error) {
    std::cout.flush();
    std::cerr << "Error: " << error.what() << '\n';
    return 1;
  }
}

}  // namespace kiln::apps
