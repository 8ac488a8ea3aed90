// Every program PyTorch 2.11 was run on (shared/real) parses, and unparsing it gives source
// that parses back to the same tree.
#include <gtest/gtest.h>

#include "libcompiler/python/ast_dump.h"
#include "libcompiler/python/ast_unparse.h"
#include "libcompiler/python/parser.h"
#include "tests/support/shared_data.h"

namespace kiln::python {
namespace {

std::vector<std::filesystem::path> real_programs() {
  std::vector<std::filesystem::path> programs;
  for (const auto& entry : std::filesystem::directory_iterator(test::realPath("pytorch-2.11/programs")))
    if (entry.path().extension() == ".py") programs.push_back(entry.path());
  programs.push_back(test::realPath("pytorch-2.11/bench.py"));
  std::sort(programs.begin(), programs.end());
  return programs;
}

TEST(RealPrograms, ParseAndRoundTrip) {
  KILN_REQUIRE_SHARED();
  std::vector<std::filesystem::path> programs = real_programs();
  ASSERT_GE(programs.size(), 16u);
  for (const auto& program : programs) {
    SCOPED_TRACE(program.string());
    std::unique_ptr<Module> module;
    ASSERT_NO_THROW(module = parse_file(program));
    EXPECT_FALSE(module->body.empty());
    std::string source = unparse(*module);
    std::unique_ptr<Module> reparsed;
    ASSERT_NO_THROW(reparsed = parse_source(source, "unparsed.py")) << source;
    EXPECT_EQ(dump(*reparsed), dump(*module)) << source;
  }
}

TEST(RealPrograms, MinifyModelShape) {
  KILN_REQUIRE_SHARED();
  std::unique_ptr<Module> module = parse_file(test::realPath("pytorch-2.11/programs/minify_model.py"));
  // import os, sys, torch / import ... as iconfig / mode = ... / dev = ... / class M / ...
  ASSERT_GE(module->body.size(), 5u);
  EXPECT_TRUE(isa<Import>(*module->body[0]));
  EXPECT_EQ(cast<Import>(*module->body[0]).names.size(), 3u);
  const ClassDef* model = nullptr;
  for (const auto& statement : module->body)
    if (const auto* cls = dyn_cast<ClassDef>(statement.get())) model = cls;
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->name, "M");
  EXPECT_EQ(model->body.size(), 2u);  // __init__ and forward
}

}  // namespace
}  // namespace kiln::python
