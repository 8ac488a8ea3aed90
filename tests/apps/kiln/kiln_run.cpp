#include "tests/apps/kiln/kiln_run.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>

#include "kiln_config.h"
#include "tests/support/shared_data.h"

namespace fs = std::filesystem;

namespace kiln::test {
namespace {

// Under AddressSanitizer the first swapcontext (kiln runs Python on coroutines) prints a
// one-time banner to stderr that no annotation silences; it is no part of kiln's output.
std::string without_asan_swapcontext_banner(const std::string& err) {
  static const std::regex banner(R"(^==[0-9]+==WARNING: ASan doesn't fully support makecontext/swapcontext)");
  std::string kept;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);) {
    if (std::regex_search(line, banner)) continue;
    kept += line;
    if (!in.eof()) kept += '\n';
  }
  return kept;
}

}  // namespace

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

RunResult run(const std::string& program, const std::string& args, const fs::path& dir, const std::string& environment) {
  fs::path err_file = scratchDir("kiln_run") / "stderr.txt";
  std::string command =
      "cd '" + dir.string() + "' && " + environment + "'" + program + "' " + args + " 2>'" + err_file.string() + "'";
  FILE* pipe = popen(command.c_str(), "r");
  std::string out;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
  int status = pclose(pipe);
  return {WEXITSTATUS(status), out, without_asan_swapcontext_banner(read_file(err_file))};
}

// (Built with append: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string.)
std::string quoted(const fs::path& path) { return std::string("'").append(path.string()).append("'"); }

std::string kiln_binary() { return std::string(KILN_BINARY_DIR) + "/bin/kiln"; }
std::string tlparse_binary() { return std::string(KILN_BINARY_DIR) + "/bin/tlparse"; }
fs::path reference_python() { return fs::path(KILN_SOURCE_DIR) / ".reference" / "bin" / "python"; }

std::vector<fs::path> scripts_in(const fs::path& dir) {
  std::vector<fs::path> scripts;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".py") scripts.push_back(entry.path());
  std::sort(scripts.begin(), scripts.end());
  return scripts;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> sorted_lines(const std::string& text) {
  std::vector<std::string> lines = lines_of(text);
  std::sort(lines.begin(), lines.end());
  return lines;
}

}  // namespace kiln::test
