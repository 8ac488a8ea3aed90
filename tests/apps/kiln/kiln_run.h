#pragma once
// Running the kiln binary (and real Python, when .reference/ exists) from end-to-end tests.
#include <filesystem>
#include <string>
#include <vector>

namespace kiln::test {

struct RunResult {
  int status;
  std::string out;
  std::string err;
};

std::string read_file(const std::filesystem::path& path);
// Runs `program args` (args already shell-quoted) in `dir`, capturing stdout and stderr;
// `environment` is prepended to the command ("TORCH_TRACE=... ").
RunResult run(const std::string& program, const std::string& args, const std::filesystem::path& dir,
              const std::string& environment = "");
// A path as one shell word.
std::string quoted(const std::filesystem::path& path);
std::string kiln_binary();
std::string tlparse_binary();
std::filesystem::path reference_python();
std::vector<std::filesystem::path> scripts_in(const std::filesystem::path& dir);
std::vector<std::string> lines_of(const std::string& text);
// The lines in sorted order: what ranks print, compared whatever order they printed in.
std::vector<std::string> sorted_lines(const std::string& text);

}  // namespace kiln::test
