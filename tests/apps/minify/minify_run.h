#pragma once
// Running the minify app in a scratch folder and reading what it wrote.
#include <filesystem>
#include <optional>
#include <string>

#include "tests/apps/kiln/kiln_run.h"

namespace kiln::test {

std::string minify_binary();
std::filesystem::path relu_model();  // testdata/minify/relu_model.py

// The call nodes of the Repro class in a repro file.
size_t repro_call_nodes(const std::filesystem::path& repro);
// "N tests run" of the minifier's summary line; nullopt without one.
std::optional<size_t> tests_run(const std::string& output);

}  // namespace kiln::test
