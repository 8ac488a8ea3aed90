#pragma once
// Running the built tlparse (and helper tools) from tests: exit status and captured output.
#include <filesystem>
#include <string>
#include <vector>

namespace kiln::test {

struct CommandResult {
  int exit_code = -1;
  std::string out, err;
};

// Runs `argv` (no shell) with stdout and stderr captured through files in `scratch`.
CommandResult run_command(const std::vector<std::string>& argv, const std::filesystem::path& scratch);

// The tlparse built with this tree.
std::filesystem::path tlparse_binary();

}  // namespace kiln::test
