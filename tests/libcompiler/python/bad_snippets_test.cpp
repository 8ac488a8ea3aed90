// Every program of testdata/python/bad_snippets.txt is rejected with the exception, message,
// line and column written there (the "cpython" ones are CPython 3.11's own, checked with
// check_bad_snippets.py).
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "libcompiler/python/parser.h"
#include "tests/support/shared_data.h"

namespace kiln::python {
namespace {

struct BadSnippet {
  std::string origin, exception, message, source;
  uint32_t line = 0, column = 0;
};

std::vector<BadSnippet> read_bad_snippets() {
  std::ifstream in(test::testdataPath("python/bad_snippets.txt"), std::ios::binary);
  std::vector<BadSnippet> cases;
  std::string line;
  while (std::getline(in, line)) {
    // "#### <origin> <Exception> <line>:<column> <message>"
    if (line.rfind("#### ", 0) == 0) {
      std::istringstream header(line.substr(5));
      BadSnippet snippet;
      char colon = 0;
      header >> snippet.origin >> snippet.exception >> snippet.line >> colon >> snippet.column;
      header.get();
      std::getline(header, snippet.message);
      EXPECT_EQ(colon, ':') << line;
      cases.push_back(std::move(snippet));
    } else if (!cases.empty()) {
      cases.back().source += line + "\n";
    }
  }
  return cases;
}

TEST(BadSnippets, EachGivesItsError) {
  std::vector<BadSnippet> cases = read_bad_snippets();
  ASSERT_GT(cases.size(), 140u);
  for (const BadSnippet& snippet : cases) {
    SCOPED_TRACE(snippet.source.substr(0, 200));
    try {
      parse_source(snippet.source, "x.py");
      ADD_FAILURE() << "accepted; expected " << snippet.exception << ": " << snippet.message;
    } catch (const SyntaxError& error) {
      EXPECT_EQ(python_exception_name(error.kind()), snippet.exception);
      EXPECT_EQ(error.message(), snippet.message);
      EXPECT_EQ(error.line(), snippet.line);
      EXPECT_EQ(error.column(), snippet.column);
      EXPECT_EQ(error.filename(), "x.py");
    }
  }
}

TEST(BadSnippets, UnsupportedConstructsAreNotImplementedErrors) {
  for (const BadSnippet& snippet : read_bad_snippets()) {
    if (snippet.exception != "NotImplementedError") continue;
    SCOPED_TRACE(snippet.source);
    EXPECT_EQ(snippet.origin, "kiln");
    EXPECT_EQ(snippet.message.rfind("kiln does not support ", 0), 0u);
  }
}

TEST(BadSnippets, EncodingProblems) {
  auto error_of = [](std::string source) -> std::string {
    try {
      parse_source(std::move(source), "x.py");
    } catch (const SyntaxError& error) {
      return std::to_string(error.line()) + ": " + error.message();
    }
    return "accepted";
  };
  EXPECT_EQ(error_of(std::string("x = 1\ny = \"\xff\"\n")),
            "2: Non-UTF-8 code starting with '\\xff' in file x.py on line 2, but no encoding declared");
  EXPECT_EQ(error_of(std::string("x = 1\0\n", 7)), "1: source code cannot contain null bytes");
  EXPECT_EQ(error_of("\xEF\xBB\xBFx = 1\n"), "accepted");  // a byte order mark is allowed
  EXPECT_EQ(error_of("# -*- coding: utf-8 -*-\nx = 1\n"), "accepted");
  EXPECT_EQ(error_of("x = 1\n# coding: latin-1\n"), "accepted");  // only lines 1 and 2 below a comment count
  EXPECT_EQ(error_of("# vim: set fileencoding=cp1252 :\nx = '\xe9'\n"),
            "1: kiln does not support source encodings other than UTF-8 (a PEP 263 coding declaration)");
  EXPECT_EQ(error_of("x = 'abc"), "1: unterminated string literal (detected at line 1)");
  EXPECT_EQ(error_of("x = 1 +\\"), "1: unexpected EOF while parsing");
}

}  // namespace
}  // namespace kiln::python
