#include "tests/support/shared_data.h"

#include "kiln_config.h"

namespace kiln::test {

std::filesystem::path sharedDir() { return std::filesystem::path(KILN_SHARED_DIR).lexically_normal(); }

bool haveShared() { return std::filesystem::is_directory(sharedDir() / "real"); }

std::filesystem::path realPath(const std::string& relative) { return sharedDir() / "real" / relative; }

std::filesystem::path testdataPath(const std::string& relative) {
  return std::filesystem::path(KILN_SOURCE_DIR) / "testdata" / relative;
}

std::filesystem::path scratchDir(const std::string& name) {
  // Under the running test's own folder: CTest runs tests in parallel processes, and two tests
  // asking for the same name must not wipe each other's files.
  std::string owner = "outside_a_test";
  if (const auto* test = ::testing::UnitTest::GetInstance()->current_test_info()) {
    owner = std::string(test->test_suite_name()) + "." + test->name();
    for (char& c : owner)
      if (c == '/') c = '_';
  }
  auto dir = std::filesystem::path(KILN_BINARY_DIR) / "scratch" / owner / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace kiln::test
