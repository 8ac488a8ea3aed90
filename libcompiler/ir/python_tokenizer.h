#pragma once
// A tokenizer for the restricted Python that printed graphs are written in: names, numbers,
// strings, operators and comments, with logical lines as in Python (a line break inside
// brackets continues the line). Comments are tokens, because printed graphs put meaning in them
// (source summaries, descriptors of inputs and outputs).
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::ir {

enum class TokenKind { Name, Integer, Float, String, Operator, Comment, Newline, End };

struct Token {
  TokenKind kind;
  std::string text;  // a string's decoded value; a comment's text after "#" and one space
  int line;          // 1-based
  int column;        // 0-based
  bool startsLine;   // the first token of its physical line
};

struct SyntaxError : std::runtime_error {
  SyntaxError(const std::string& what, int line, int column)
      : std::runtime_error("line " + std::to_string(line) + ", column " + std::to_string(column + 1) + ": " + what),
        line(line),
        column(column) {}
  int line;
  int column;
};

// The tokens of text; throws SyntaxError on a character or string it cannot read.
std::vector<Token> tokenizePython(std::string_view text);

}  // namespace kiln::ir
