// Tokens of Python source: indentation, line joining, comments, numbers, strings, operators.
#include <gtest/gtest.h>

#include "libcompiler/python/lexer.h"

namespace kiln::python {
namespace {

using K = TokenKind;

std::vector<Token> lex(const SourceFile& file) { return Lexer(file).tokenize(); }

std::vector<TokenKind> kinds(const std::string& source) {
  SourceFile file("x.py", source);
  std::vector<TokenKind> out;
  for (const Token& token : lex(file)) out.push_back(token.kind);
  return out;
}

std::vector<std::string> texts(const std::string& source) {
  SourceFile file("x.py", source);
  std::vector<std::string> out;
  for (const Token& token : lex(file))
    if (token.kind != K::Newline && token.kind != K::EndMarker) out.emplace_back(token.text);
  return out;
}

TEST(Lexer, IndentAndDedent) {
  EXPECT_EQ(kinds("if x:\n    y = 1\nz\n"),
            (std::vector<K>{K::KwIf, K::Name, K::Colon, K::Newline, K::Indent, K::Name, K::Equal, K::Number,
                            K::Newline, K::Dedent, K::Name, K::Newline, K::EndMarker}));
  // Two levels closed at once, and at end of input without a final newline.
  EXPECT_EQ(kinds("if a:\n  if b:\n    c\nd"),
            (std::vector<K>{K::KwIf, K::Name, K::Colon, K::Newline, K::Indent, K::KwIf, K::Name, K::Colon,
                            K::Newline, K::Indent, K::Name, K::Newline, K::Dedent, K::Dedent, K::Name, K::Newline,
                            K::EndMarker}));
  EXPECT_EQ(kinds("if a:\n\tb\n"),
            (std::vector<K>{K::KwIf, K::Name, K::Colon, K::Newline, K::Indent, K::Name, K::Newline, K::Dedent,
                            K::EndMarker}));
}

TEST(Lexer, BlankLinesCommentsAndLineEndings) {
  std::vector<K> assignment{K::Name, K::Equal, K::Number, K::Newline, K::EndMarker};
  EXPECT_EQ(kinds("# comment\n\n   \nx = 1  # trailing\n\n# end"), assignment);
  EXPECT_EQ(kinds("x = 1\r\n"), assignment);
  EXPECT_EQ(kinds("x = 1\r"), assignment);
  // Comment lines do not take part in indentation.
  EXPECT_EQ(kinds("if a:\n    b\n# no dedent here\n    c\n"),
            (std::vector<K>{K::KwIf, K::Name, K::Colon, K::Newline, K::Indent, K::Name, K::Newline, K::Name,
                            K::Newline, K::Dedent, K::EndMarker}));
}

TEST(Lexer, ImplicitAndExplicitLineJoining) {
  EXPECT_EQ(kinds("x = (1,\n     2)\n"),
            (std::vector<K>{K::Name, K::Equal, K::LParen, K::Number, K::Comma, K::Number, K::RParen, K::Newline,
                            K::EndMarker}));
  EXPECT_EQ(kinds("x = [\n  1,  # one\n\n]\n"),
            (std::vector<K>{K::Name, K::Equal, K::LSquare, K::Number, K::Comma, K::RSquare, K::Newline,
                            K::EndMarker}));
  EXPECT_EQ(kinds("x = 1 + \\\n        2\n"),
            (std::vector<K>{K::Name, K::Equal, K::Number, K::Plus, K::Number, K::Newline, K::EndMarker}));
}

TEST(Lexer, Numbers) {
  EXPECT_EQ(texts("1_000 0x1F 0o7 0b1_0 1.5e-3 .5 1. 1e400 00 1J"),
            (std::vector<std::string>{"1_000", "0x1F", "0o7", "0b1_0", "1.5e-3", ".5", "1.", "1e400", "00", "1J"}));
  // A keyword may follow a number directly.
  EXPECT_EQ(texts("1if x else 2"), (std::vector<std::string>{"1", "if", "x", "else", "2"}));
  EXPECT_EQ(texts("x.1"), (std::vector<std::string>{"x", ".1"}));
}

TEST(Lexer, Strings) {
  EXPECT_EQ(texts("rb'a' Rb\"b\" f'{x}' Fr'c' u'd' b'''e''' '''multi\nline'''"),
            (std::vector<std::string>{"rb'a'", "Rb\"b\"", "f'{x}'", "Fr'c'", "u'd'", "b'''e'''",
                                      "'''multi\nline'''"}));
  // Not a prefix: a name, then a string.
  EXPECT_EQ(texts("ur'x'"), (std::vector<std::string>{"ur", "'x'"}));
  EXPECT_EQ(texts("'a\\'b' \"c\\\nd\""), (std::vector<std::string>{"'a\\'b'", "\"c\\\nd\""}));
  SourceFile file("x.py", "s = '''a\nb'''\n");
  std::vector<Token> tokens = lex(file);
  ASSERT_EQ(tokens[2].kind, K::String);
  EXPECT_EQ(tokens[2].range.line, 1u);
  EXPECT_EQ(tokens[2].range.col, 4u);
  EXPECT_EQ(tokens[2].range.end_line, 2u);
  EXPECT_EQ(tokens[2].range.end_col, 4u);
}

TEST(Lexer, Operators) {
  EXPECT_EQ(kinds("**= //= >>= <<= -> := ... != @= ** // @ ~ ^ | & % <= >= =="),
            (std::vector<K>{K::DoubleStarEqual, K::DoubleSlashEqual, K::RightShiftEqual, K::LeftShiftEqual,
                            K::RArrow, K::ColonEqual, K::Ellipsis, K::NotEqual, K::AtEqual, K::DoubleStar,
                            K::DoubleSlash, K::At, K::Tilde, K::Circumflex, K::VBar, K::Amper, K::Percent,
                            K::LessEqual, K::GreaterEqual, K::EqEqual, K::Newline, K::EndMarker}));
  EXPECT_EQ(kinds("not in is match"), (std::vector<K>{K::KwNot, K::KwIn, K::KwIs, K::Name, K::Newline, K::EndMarker}));
}

TEST(Lexer, UnicodeIdentifiers) {
  EXPECT_EQ(texts("café = 1; 変数 = 2"), (std::vector<std::string>{"café", "=", "1", ";", "変数", "=", "2"}));
}

TEST(Lexer, TokenPositions) {
  SourceFile file("x.py", "def f(a):\n    return a ** 2\n");
  std::vector<Token> tokens = lex(file);
  const Token& pow = tokens[10];
  ASSERT_EQ(pow.kind, K::DoubleStar);
  EXPECT_EQ(pow.range.line, 2u);
  EXPECT_EQ(pow.range.col, 13u);
  EXPECT_EQ(pow.range.end_col, 15u);
  EXPECT_EQ(pow.range.file, &file);
}

TEST(Lexer, FStringFieldMode) {
  // The expression of f'{a +\nb}' lexes like text inside parentheses.
  SourceFile file("x.py", "f'''{a +\nb}'''\n");
  std::vector<Token> tokens = Lexer(file, 5, 10).tokenize();
  std::vector<K> got;
  for (const Token& token : tokens) got.push_back(token.kind);
  EXPECT_EQ(got, (std::vector<K>{K::Name, K::Plus, K::Name, K::EndMarker}));
  EXPECT_EQ(tokens[2].range.line, 2u);
}

}  // namespace
}  // namespace kiln::python
