// Arbitrary bytes as a whole log through the report: the reader, every parser, the page
// renderers and the output writers. Each input gets a fresh output folder; the only accepted
// failure is a ReportError (the ones tlparse reports, e.g. "Fail reason not found").
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "libdiag/report/report.h"

namespace {

namespace fs = std::filesystem;

const fs::path& work_dir() {
  static const fs::path dir = [] {
    fs::path dir = fs::temp_directory_path() / ("kiln_fuzz_report_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    return dir;
  }();
  return dir;
}

void run(const uint8_t* data, size_t size, bool export_mode) {
  const fs::path log = work_dir() / "input.log";
  std::ofstream(log, std::ios::binary).write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  const fs::path out = work_dir() / "out";
  kiln::report::ReportOptions options;
  options.export_mode = export_mode;
  options.diagnostic = [](const std::string&) {};
  try {
    kiln::report::prepare_output_dir(out, /*overwrite=*/true);
    kiln::report::run_report(log, out, options);
  } catch (const kiln::report::ReportError&) {
    // A failure tlparse reports too; the report must still not crash on the way.
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The first byte picks the mode, so both the normal and the export report are explored.
  if (size == 0) return 0;
  run(data + 1, size - 1, data[0] & 1);
  return 0;
}
