#pragma once
// Where tests find the real PyTorch data of ../shared, and scratch folders.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

namespace kiln::test {

// ../shared beside the checkout (KILN_SHARED_DIR at configure time).
std::filesystem::path sharedDir();
bool haveShared();
// shared/real/<relative>.
std::filesystem::path realPath(const std::string& relative);
// The project's own testdata/<relative>.
std::filesystem::path testdataPath(const std::string& relative);
// A fresh, empty folder under the build tree, private to the running test.
std::filesystem::path scratchDir(const std::string& name);

}  // namespace kiln::test

// Skips the current test, saying why, when ../shared is not there.
#define KILN_REQUIRE_SHARED()                                                            \
  do {                                                                                   \
    if (!::kiln::test::haveShared())                                                     \
      GTEST_SKIP() << "../shared is absent (" << ::kiln::test::sharedDir().string()      \
                   << "): tests against real PyTorch data are skipped";                  \
  } while (0)
