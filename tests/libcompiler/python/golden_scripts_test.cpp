// The scripts of testdata/python/good cover every construct of the subset; their dumps with
// source positions must equal CPython's (good/<name>.dump, written by make_golden_dumps.py).
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "libcompiler/python/ast_dump.h"
#include "libcompiler/python/parser.h"
#include "tests/support/shared_data.h"

namespace kiln::python {
namespace {

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class GoldenScript : public ::testing::TestWithParam<const char*> {};

TEST_P(GoldenScript, DumpWithPositionsMatchesCPython) {
  std::filesystem::path script = test::testdataPath(std::string("python/good/") + GetParam() + ".py");
  std::filesystem::path golden = test::testdataPath(std::string("python/good/") + GetParam() + ".dump");
  ASSERT_TRUE(std::filesystem::exists(golden)) << golden;
  std::unique_ptr<Module> module = parse_file(script);
  EXPECT_EQ(dump(*module, {.include_attributes = true}) + "\n", read(golden));
}

INSTANTIATE_TEST_SUITE_P(Subset, GoldenScript, ::testing::Values("subset_statements", "subset_expressions"));

}  // namespace
}  // namespace kiln::python
