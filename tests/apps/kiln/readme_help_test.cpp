// The README shows each tool's --help verbatim (scripts/readme-help copies it there), so that the
// option tables in the code, and apps/kiln/environment_variables.def, are the one source of both.
#include <gtest/gtest.h>

#include "kiln_config.h"
#include "tests/apps/kiln/kiln_run.h"
#include "tests/support/shared_data.h"

namespace kiln::test {
namespace {

TEST(ReadmeHelp, EachToolsHelpIsInTheReadme) {
  const std::string readme = read_file(testdataPath("../README.md"));
  const std::filesystem::path dir = scratchDir("readme_help");
  for (const auto& [tool, binary] : {std::pair<std::string, std::string>{"tlparse", tlparse_binary()},
                                     {"kiln", kiln_binary()},
                                     {"minify", std::string(KILN_BINARY_DIR) + "/bin/minify"}}) {
    SCOPED_TRACE(tool);
    const RunResult help = run(binary, "--help", dir);
    ASSERT_EQ(help.status, 0) << help.err;
    std::string text = help.out;
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    const std::string block = "<!-- BEGIN " + tool + " --help -->\n```\n" + text + "\n```\n<!-- END " + tool + " --help -->";
    EXPECT_NE(readme.find(block), std::string::npos) << "README.md is behind `" << tool << " --help`: run scripts/readme-help";
  }
}

TEST(ReadmeHelp, KilnHelpListsTheEnvironmentVariables) {
  const RunResult help = run(kiln_binary(), "--help", scratchDir("kiln_help_environment"));
  ASSERT_EQ(help.status, 0);
  for (const char* variable : {"Environment variables:\n", "  TORCH_TRACE=DIR\n", "  TORCH_LOGS=...\n", "  TORCHDYNAMO_REPRO_AFTER=dynamo|aot\n",
                               "  TORCHINDUCTOR_CACHE_DIR=DIR\n", "  TORCH_COMPILE_DEBUG=1\n"})
    EXPECT_NE(help.out.find(variable), std::string::npos) << variable;
}

}  // namespace
}  // namespace kiln::test
