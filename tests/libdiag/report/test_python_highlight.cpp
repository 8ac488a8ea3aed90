#include "libdiag/report/python_highlight.h"

#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace kiln::report {
namespace {

using Tokens = std::vector<std::pair<std::string, std::string>>;

// (class name, text) of every token that is not whitespace.
Tokens significant_tokens(std::string_view source) {
  Tokens out;
  PythonLexer lexer(source);
  PythonToken token;
  while (lexer.next(token)) {
    if (token.kind == PythonTokenClass::plain &&
        token.text.find_first_not_of(" \t\r\n") == std::string_view::npos)
      continue;
    out.emplace_back(std::string(python_token_class_name(token.kind)), std::string(token.text));
  }
  return out;
}

// The class of the token whose text is exactly `text`.
std::string class_of(std::string_view source, std::string_view text) {
  for (const auto& [kind, token_text] : significant_tokens(source))
    if (token_text == text) return kind;
  return "<no such token>";
}

// What a browser shows: the source back, from the fragment (tags dropped, entities decoded).
std::string visible_text(const std::string& html) {
  const std::string open = "<pre style=\"background-color:#ffffff;color:#323232;\">\n";
  const std::string close = "</pre>\n";
  EXPECT_EQ(html.compare(0, open.size(), open), 0);
  EXPECT_GE(html.size(), open.size() + close.size());
  EXPECT_EQ(html.compare(html.size() - close.size(), close.size(), close), 0);
  const std::string_view body(html.data() + open.size(), html.size() - open.size() - close.size());
  std::string text;
  for (size_t i = 0; i < body.size();) {
    if (body[i] == '<') {
      const size_t end = body.find('>', i);
      EXPECT_NE(end, std::string_view::npos);
      i = end + 1;
    } else if (body[i] == '&') {
      const size_t end = body.find(';', i);
      const std::string_view entity = body.substr(i, end - i + 1);
      if (entity == "&amp;") text += '&';
      else if (entity == "&lt;") text += '<';
      else if (entity == "&gt;") text += '>';
      else if (entity == "&quot;") text += '"';
      else if (entity == "&#39;") text += '\'';
      else ADD_FAILURE() << "unexpected entity " << entity;
      i = end + 1;
    } else {
      text += body[i++];
    }
  }
  return text;
}

TEST(PythonLexer, TokensCoverTheSourceExactly) {
  const std::string source = "def f(x):\r\n\treturn x + 1  # done\n";
  std::string joined;
  PythonLexer lexer(source);
  PythonToken token;
  while (lexer.next(token)) {
    EXPECT_FALSE(token.text.empty());
    joined += token.text;
  }
  EXPECT_EQ(joined, source);
}

TEST(PythonLexer, KeywordsBuiltinsConstantsAndNames) {
  const Tokens tokens = significant_tokens("for i in range(n): print(i is None, True)");
  const Tokens expected = {
      {"keyword", "for"}, {"plain", "i"},     {"keyword", "in"},    {"builtin", "range"},
      {"plain", "("},     {"plain", "n"},     {"plain", ")"},       {"plain", ":"},
      {"builtin", "print"}, {"plain", "("},   {"plain", "i"},       {"keyword", "is"},
      {"constant", "None"}, {"plain", ","},   {"constant", "True"}, {"plain", ")"}};
  EXPECT_EQ(tokens, expected);
}

TEST(PythonLexer, AttributesAreNeverKeywordsOrBuiltins) {
  EXPECT_EQ(class_of("x.sum()", "sum"), "plain");
  EXPECT_EQ(class_of("sum(x)", "sum"), "builtin");
  EXPECT_EQ(class_of("torch.ops.aten.print", "print"), "plain");
  EXPECT_EQ(class_of("printer = 1", "printer"), "plain");  // a prefix of a name is not the name
  EXPECT_EQ(class_of("match = 1", "match"), "plain");      // soft keywords are names
}

TEST(PythonLexer, DefinitionNamesAndDecorators) {
  EXPECT_EQ(class_of("def call(args):", "call"), "function_name");
  EXPECT_EQ(class_of("class Repro(torch.nn.Module):", "Repro"), "class_name");
  const Tokens decorated = significant_tokens("@torch.compile\ndef f(a @ b): pass");
  ASSERT_GE(decorated.size(), 6u);
  EXPECT_EQ(decorated[0], (std::pair<std::string, std::string>{"decorator", "@"}));
  EXPECT_EQ(decorated[1], (std::pair<std::string, std::string>{"decorator", "torch"}));
  EXPECT_EQ(decorated[2], (std::pair<std::string, std::string>{"decorator", "."}));
  EXPECT_EQ(decorated[3], (std::pair<std::string, std::string>{"decorator", "compile"}));
  EXPECT_EQ(class_of("@torch.compile\ndef f(a @ b): pass", "f"), "function_name");
  // "@" inside an expression is matrix multiplication.
  EXPECT_EQ(class_of("y = a @ b", "@"), "operator_symbol");
}

TEST(PythonLexer, NumbersInEveryLiteralForm) {
  for (const char* number : {"0", "42", "1_000_000", "0x1F", "0XdeadBEEF", "0o777", "0b1010_1010",
                             "3.14", "10.", ".5", "1e10", "1E-7", "2.5e+3", "1_0.0_1e1_0", "3j",
                             "1.5J", "0.0"}) {
    const std::string source = std::string("x = ") + number + "\n";
    EXPECT_EQ(class_of(source, number), "number") << number;
  }
  // A name right after a number is a separate token; "1if" lexes as 1, if.
  const Tokens tokens = significant_tokens("1if x else 2");
  ASSERT_GE(tokens.size(), 2u);
  EXPECT_EQ(tokens[0], (std::pair<std::string, std::string>{"number", "1"}));
  EXPECT_EQ(tokens[1], (std::pair<std::string, std::string>{"keyword", "if"}));
  // An exponent needs digits; "1e" is the number 1 and the name e.
  EXPECT_EQ(class_of("x = 1e", "1"), "number");
}

TEST(PythonLexer, StringsWithEveryPrefix) {
  for (const char* literal : {"'a'", "\"a\"", "r'a'", "R\"a\"", "b'a'", "B'a'", "u'a'", "f'{x}'",
                              "F\"{x!r}\"", "rb'a'", "Rb'a'", "bR'a'", "br\"a\"", "fr'{x}'",
                              "rf'{x}'", "t'a'", "'''a'''", "\"\"\"a\"\"\"", "r'''a\\''''",
                              "f'''{x}'''"}) {
    const std::string source = std::string("x = ") + literal + " + y";
    const Tokens tokens = significant_tokens(source);
    ASSERT_EQ(tokens.size(), 5u) << literal;
    EXPECT_EQ(tokens[2], (std::pair<std::string, std::string>{"string", literal})) << literal;
    EXPECT_EQ(tokens[4], (std::pair<std::string, std::string>{"plain", "y"})) << literal;
  }
  // Not prefixes: a longer name before a quote, and "ub".
  EXPECT_EQ(class_of("xr'a'", "xr"), "plain");
  EXPECT_EQ(class_of("ub'a'", "ub"), "plain");
}

TEST(PythonLexer, EscapesInsideStrings) {
  const Tokens tokens = significant_tokens(R"(s = "a\n\"b\x41\u00e9\N{DASH}\101c")");
  const Tokens expected = {{"plain", "s"},        {"operator_symbol", "="}, {"string", "\"a"},
                           {"escape", "\\n"},     {"escape", "\\\""},      {"string", "b"},
                           {"escape", "\\x41"},   {"escape", "\\u00e9"},   {"escape", "\\N{DASH}"},
                           {"escape", "\\101"},   {"string", "c\""}};
  EXPECT_EQ(tokens, expected);
  // Raw strings have no escapes, but a backslash still protects the quote after it.
  const Tokens raw = significant_tokens(R"(r"a\"b" + z)");
  ASSERT_EQ(raw.size(), 3u);
  EXPECT_EQ(raw[0], (std::pair<std::string, std::string>{"string", R"(r"a\"b")"}));
}

TEST(PythonLexer, TripleQuotedStringsSpanLines) {
  const std::string source = "k = '''\n#include <x.h>\nint a = 'b';\n''' + x";
  const Tokens tokens = significant_tokens(source);
  ASSERT_EQ(tokens.size(), 5u);
  EXPECT_EQ(tokens[2].first, "string");
  EXPECT_EQ(tokens[2].second, "'''\n#include <x.h>\nint a = 'b';\n'''");
  EXPECT_EQ(tokens[4], (std::pair<std::string, std::string>{"plain", "x"}));
}

TEST(PythonLexer, CommentsEndAtTheLineBreak) {
  const Tokens tokens = significant_tokens("x = 1  # it's \"fine\"\r\ny");
  ASSERT_EQ(tokens.size(), 5u);
  EXPECT_EQ(tokens[3], (std::pair<std::string, std::string>{"comment", "# it's \"fine\""}));
  EXPECT_EQ(tokens[4], (std::pair<std::string, std::string>{"plain", "y"}));
}

TEST(PythonLexer, UnterminatedStringsStopAtTheEndOfTheirLine) {
  const Tokens one_line = significant_tokens("a = 'oops\nb = 2");
  ASSERT_EQ(one_line.size(), 6u);
  EXPECT_EQ(one_line[2], (std::pair<std::string, std::string>{"string", "'oops"}));
  EXPECT_EQ(one_line[3], (std::pair<std::string, std::string>{"plain", "b"}));
  EXPECT_EQ(one_line[5], (std::pair<std::string, std::string>{"number", "2"}));
  // A backslash-newline continues a one-line string.
  const Tokens continued = significant_tokens("a = 'x\\\ny'\nz");
  ASSERT_EQ(continued.size(), 6u);
  EXPECT_EQ(continued[3], (std::pair<std::string, std::string>{"escape", "\\\n"}));
  EXPECT_EQ(continued[4], (std::pair<std::string, std::string>{"string", "y'"}));
  // An escape right before the line break of an unterminated string (found by a random-input run).
  const Tokens escaped_end = significant_tokens("s = \"ab\\q\nz");
  ASSERT_EQ(escaped_end.size(), 5u);
  EXPECT_EQ(escaped_end[3], (std::pair<std::string, std::string>{"escape", "\\q"}));
  EXPECT_EQ(escaped_end[4], (std::pair<std::string, std::string>{"plain", "z"}));
  // An unterminated triple-quoted string runs to the end of the input.
  const Tokens triple = significant_tokens("a = \"\"\"never\nclosed = 1\n");
  ASSERT_EQ(triple.size(), 3u);
  EXPECT_EQ(triple[2].second, "\"\"\"never\nclosed = 1\n");
  // Inputs that end inside a token.
  for (const char* tail : {"'", "'''", "r'\\", "'\\", "0x", "1e", "\"\\x4", "@", "#"}) {
    std::string joined;
    PythonLexer lexer(tail);
    PythonToken token;
    while (lexer.next(token)) joined += token.text;
    EXPECT_EQ(joined, tail);
  }
}

TEST(HighlightPythonHtml, ColoursTokenClasses) {
  const std::string html = highlight_python_html("def f():\n    return None  # x\n");
  // Whitespace joins the open span rather than closing it.
  EXPECT_NE(html.find("<span style=\"font-weight:bold;color:#a71d5d;\">def </span>"), std::string::npos);
  EXPECT_NE(html.find("<span style=\"font-weight:bold;color:#323232;\">f</span>():"), std::string::npos);
  EXPECT_NE(html.find("<span style=\"color:#0086b3;\">None  </span>"), std::string::npos);
  EXPECT_NE(html.find("<span style=\"font-style:italic;color:#969896;\"># x\n</span>"), std::string::npos);
}

TEST(HighlightPythonHtml, EscapesMarkupInStringsAndComments) {
  const std::string source = "s = '<script>alert(1)</script>'  # </pre><script>&amp;\n";
  const std::string html = highlight_python_html(source);
  EXPECT_EQ(html.find("<script>"), std::string::npos);
  EXPECT_EQ(html.find("</script>"), std::string::npos);
  EXPECT_EQ(html.find("</pre>"), html.size() - std::string("</pre>\n").size());
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("&amp;amp;"), std::string::npos);
  EXPECT_NE(html.find("&#39;"), std::string::npos);
  EXPECT_EQ(visible_text(html), source);
}

TEST(HighlightPythonHtml, RoundTripsEverySource) {
  const std::vector<std::string> sources = {
      "",
      "\n",
      "x",
      "# AOT ID: ['0_inference']\nfrom ctypes import c_void_p\n",
      "\tif a<b and c>d: print(\"&\", 'q')\r\n",
      "s = f\"{x!r:>10}\" + rb'\\x00' + '''multi\nline''' + \"unterminated\n",
      "@decorator(arg=1)\nclass C:\n    def m(self): return 1.5e-3j @ x\n",
      "caf\xC3\xA9 = '\xE2\x9C\x85'  # \xF0\x9F\x98\x80\n",
      "a = 'never closed",
      "b = \"\"\"never closed\n\n",
      "\x01\x02 weird \x7F bytes ` $ ?",
      "x = (1,\n@ y)\n",
  };
  for (const std::string& source : sources) EXPECT_EQ(visible_text(highlight_python_html(source)), source) << source;
}

TEST(HighlightPythonHtml, KeepsLinesAndNamesWhole) {
  // Line k of the source is line k + 1 of the fragment, and a kernel name or "(args)" is never
  // split by markup: provenance tracking searches the fragment line by line for them.
  const std::string source =
      "# AOT ID: ['0_inference']\nimport torch\n\ndef call(args):\n"
      "    cpp_fused_mul_0(buf0, 'cpp_fused_mul_0')\n    triton_poi_fused_add_1.run(x)\n";
  const std::string html = highlight_python_html(source);
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t nl; (nl = html.find('\n', start)) != std::string::npos; start = nl + 1)
    lines.push_back(html.substr(start, nl - start));
  lines.push_back(html.substr(start));
  ASSERT_GE(lines.size(), 7u);
  EXPECT_NE(lines[1].find("# AOT ID:"), std::string::npos);
  EXPECT_NE(lines[4].find("def"), std::string::npos);
  EXPECT_NE(lines[4].find("call"), std::string::npos);
  EXPECT_NE(lines[4].find("(args)"), std::string::npos);
  EXPECT_NE(lines[5].find("cpp_fused_mul_0("), std::string::npos);
  EXPECT_NE(lines[6].find("triton_poi_fused_add_1.run("), std::string::npos);
}

TEST(HighlightPythonHtml, InvalidUtf8IsShownEscaped) {
  const std::string source = std::string("x = '") + "\xFF\xC3" + "' # \xE2\x82" + "\n\xED\xA0\x80";
  const std::string html = highlight_python_html(source);
  EXPECT_TRUE(html.find("\xFF") == std::string::npos);
  for (const char* shown : {"\\xFF", "\\xC3", "\\xE2", "\\x82", "\\xED", "\\xA0", "\\x80"})
    EXPECT_NE(html.find(shown), std::string::npos) << shown;
  EXPECT_NE(html.find("<span style=\"color:#b52a1d;background-color:#f8eec7;\">\\xFF"), std::string::npos);
  // Every remaining byte is valid UTF-8 (all of the input's invalid bytes were replaced).
  for (unsigned char c : html) EXPECT_LT(c, 0x80);
}

TEST(HighlightPythonHtml, LargeInputsStayLinear) {
  // Not a timing test: a pathological input (one huge unterminated string, deep brackets)
  // must still produce exactly one token stream covering it.
  std::string source(1 << 20, '(');
  source += "'''";
  source.append(1 << 20, '\\');
  const std::string html = highlight_python_html(source);
  EXPECT_EQ(visible_text(html), source);
}

}  // namespace
}  // namespace kiln::report
