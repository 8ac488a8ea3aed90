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
  auto dir = std::filesystem::path(KILN_BINARY_DIR) / "scratch" / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace kiln::test
