// Resume points: which statements a resume frame can start at, how the rest of a function runs,
// and which names it reads.
#include <gtest/gtest.h>

#include "libcompiler/capture/resume.h"
#include "libcompiler/python/parser.h"

namespace kiln::capture {
namespace {

using namespace python;

const FunctionDef& function(const Module& module) { return cast<FunctionDef>(*module.body.at(0)); }

TEST(Resume, PathsIntoIfButNotLoops) {
  auto module = parse_source(
      "def f(x, y):\n"
      "    a = x + 1\n"
      "    if a:\n"
      "        b = y\n"
      "    for i in range(3):\n"
      "        c = i\n"
      "    return a\n",
      "f.py");
  const FunctionDef& f = function(*module);
  const auto& branch = cast<If>(*f.body[1]);
  auto into_if = resumable_path(f.body, branch.body[0].get());
  ASSERT_TRUE(into_if);
  ASSERT_EQ(into_if->size(), 2u);
  EXPECT_EQ((*into_if)[0].index, 1u);
  EXPECT_EQ((*into_if)[1].block, &branch.body);
  const auto& loop = cast<For>(*f.body[2]);
  EXPECT_FALSE(resumable_path(f.body, loop.body[0].get()));
  EXPECT_FALSE(resumable_path(f.body, nullptr));
  // What the rest reads from the `if` on: a, y, range, i (loads only; x is not read again).
  std::set<std::string> read = names_read(*into_if, {});
  EXPECT_EQ(read, (std::set<std::string>{"a", "y", "range", "i"}));
  EXPECT_EQ(first_statement_reading({{&f.body, 0}}, "y"), f.body[1].get());
}

TEST(Resume, IntoGradModeWithBlocksOnly) {
  auto module = parse_source(
      "def f(x, path):\n"
      "    with torch.no_grad():\n"
      "        y = x + 1\n"
      "    with open(path) as handle:\n"
      "        z = handle\n"
      "    return y\n",
      "f.py");
  const FunctionDef& f = function(*module);
  const auto& grad_block = cast<With>(*f.body[0]);
  auto inside = resumable_path(f.body, grad_block.body[0].get());
  ASSERT_TRUE(inside);
  EXPECT_EQ(inside->size(), 2u);
  // open() may not be entered a second time: a resume frame cannot start inside it.
  EXPECT_FALSE(resumable_path(f.body, cast<With>(*f.body[1]).body[0].get()));
}

// The profiler's labelled range is entered again too; the name it is made with is read again, so
// the resume frame is given it.
TEST(Resume, IntoProfilerRangesReadingTheirContextManagersAgain) {
  auto module = parse_source(
      "def wrapper(func, name):\n"
      "    with torch.autograd.profiler.record_function(name):\n"
      "        out = func()\n"
      "        return out\n",
      "f.py");
  const FunctionDef& f = function(*module);
  const auto& range = cast<With>(*f.body[0]);
  auto inside = resumable_path(f.body, range.body[1].get());
  ASSERT_TRUE(inside);
  EXPECT_EQ(names_read(*inside, {}), (std::set<std::string>{"torch", "name", "out"}));
}

}  // namespace
}  // namespace kiln::capture
