// Stack frames and the stack trie as tlparse renders them (reference §2.4, §6.5).
#include <gtest/gtest.h>

#include "libdiag/report/stack_frame.h"
#include "libdiag/report/stack_trie.h"

namespace kiln::report {
namespace {

StackFrame frame(uint32_t file, int32_t line, std::string name, std::optional<std::string> loc = {}) {
  StackFrame f;
  f.filename = file;
  f.line = line;
  f.name = std::move(name);
  f.loc = std::move(loc);
  return f;
}

TEST(StackFrame, RendersEscapedWithLocation) {
  StringTable strings;
  strings.define(0, "/home/u/model.py");
  std::string html;
  append_frame_html(html, frame(0, 7, "<module>", "x = f(a < b)"), strings);
  EXPECT_EQ(html, "/home/u/model.py:7 in &lt;module&gt;<br>&nbsp;&nbsp;&nbsp;&nbsp;x = f(a &lt; b)");
}

TEST(StackFrame, UndefinedIndexIsUnknown) {
  StringTable strings;
  std::string html;
  append_frame_html(html, frame(9, 1, "f"), strings);
  EXPECT_EQ(html, "(unknown):1 in f<br>&nbsp;&nbsp;&nbsp;&nbsp;");
}

TEST(StackFrame, FxGeneratedCodeLinksToItsDumpFile) {
  StringTable strings;
  strings.define(0, "<eval_with_key>.0042");
  std::string html;
  append_frame_html(html, frame(0, 5, "forward"), strings);
  EXPECT_EQ(html, "<a href='dump_file/eval_with_key_42.html#L5'>&lt;eval_with_key&gt;.0042:5</a> in forward");
}

TEST(StackFrame, SimplifiesBuildPaths) {
  EXPECT_EQ(simplify_filename("/a/b#link-tree/torch/x.py"), "torch/x.py");
  EXPECT_EQ(simplify_filename("/x/abc-seed-nspid4026531836_cgpid1-ns-4026531840/torch/y.py"), "torch/y.py");
  EXPECT_EQ(simplify_filename("/plain/path.py"), "/plain/path.py");
}

TEST(StackFrame, DropsDynamosOwnEntryFrames) {
  StringTable strings;
  strings.define(0, "user.py");
  strings.define(1, "/a/b#link-tree/torch/_dynamo/convert_frame.py");
  StackSummary stack = {frame(0, 1, "main"), frame(1, 2, "catch_errors"), frame(1, 3, "_convert_frame"),
                        frame(1, 4, "_convert_frame_assert")};
  EXPECT_EQ(strip_convert_frame_suffix(stack, strings).size(), 1u);
  stack[3].name = "other";
  EXPECT_EQ(strip_convert_frame_suffix(stack, strings).size(), 4u);
}

TEST(StackTrie, SingleStackIsAFlatListWithTheIdAtItsEnd) {
  StringTable strings;
  strings.define(0, "m.py");
  StackTrie trie;
  trace::CompileId id;
  id.frame_id = 0;
  id.frame_compile_id = 0;
  id.attempt = 0;
  trie.insert({frame(0, 1, "a"), frame(0, 2, "b")}, id);
  const std::string html = trie.render(strings, [](const trace::CompileId&) { return "status-ok"; }, "Stack");
  EXPECT_EQ(html,
            "<details><summary>Stack</summary><div class='stack-trie'><ul>"
            "<li>m.py:1 in a<br>&nbsp;&nbsp;&nbsp;&nbsp;</li>\n"
            "<li><a href='#[0/0]' class='status-ok'>[0/0]</a> m.py:2 in b<br>&nbsp;&nbsp;&nbsp;&nbsp;</li>\n"
            "</ul></div></details>");
}

TEST(StackTrie, DivergingStacksNestWithMarkers) {
  StringTable strings;
  strings.define(0, "m.py");
  StackTrie trie;
  trie.insert({frame(0, 1, "a"), frame(0, 2, "b")}, std::nullopt);
  trie.insert({frame(0, 1, "a"), frame(0, 3, "c")}, std::nullopt);
  const std::string html = trie.render(strings, [](const trace::CompileId&) { return "status-ok"; }, "Stack");
  EXPECT_EQ(html,
            "<details><summary>Stack</summary><div class='stack-trie'><ul>"
            "<li>m.py:1 in a<br>&nbsp;&nbsp;&nbsp;&nbsp;</li>\n"
            "<li><span onclick='toggleList(this)' class='marker'></span>(unknown) \n"
            "m.py:2 in b<br>&nbsp;&nbsp;&nbsp;&nbsp;<ul>\n</ul></li>"
            "<li><span onclick='toggleList(this)' class='marker'></span>(unknown) \n"
            "m.py:3 in c<br>&nbsp;&nbsp;&nbsp;&nbsp;<ul>\n</ul></li>"
            "</ul></div></details>");
}

}  // namespace
}  // namespace kiln::report
