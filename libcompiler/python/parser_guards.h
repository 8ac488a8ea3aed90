#pragma once
// Scoped helpers of the parser (private to its .cpp files).
#include <exception>

#include "libcompiler/python/parser.h"

namespace kiln::python {

// Opens a scope (module, class, function or lambda body) for the compile-time checks.
class Parser::ScopeGuard {
 public:
  ScopeGuard(Parser& parser, Scope::Kind kind) : parser_(parser), exceptions_(std::uncaught_exceptions()) {
    parser_.scopes_.push_back(Scope{});
    parser_.scopes_.back().kind = kind;
  }
  ~ScopeGuard() {
    // While a SyntaxError unwinds, the scope's nodes are being freed: drop it unexamined.
    if (std::uncaught_exceptions() > exceptions_) {
      parser_.scopes_.pop_back();
    } else {
      parser_.close_scope();
    }
  }
  ScopeGuard(const ScopeGuard&) = delete;
  ScopeGuard& operator=(const ScopeGuard&) = delete;

 private:
  Parser& parser_;
  int exceptions_;
};

// Bounds the nesting of the tree, so deep input (fuzzing, "-" * 100000) is a SyntaxError rather
// than a stack overflow in the parser or in whoever walks the tree later. Counts one level on
// entry; loops that build left-nested chains (a + b + c, a.b.c, elif) call Parser::deepen() per
// link. Restores the count on exit.
class Parser::DepthGuard {
 public:
  static constexpr int kMaxDepth = 1000;
  explicit DepthGuard(Parser& parser) : parser_(parser), saved_(parser.depth_) { parser_.deepen(); }
  ~DepthGuard() { parser_.depth_ = saved_; }
  DepthGuard(const DepthGuard&) = delete;
  DepthGuard& operator=(const DepthGuard&) = delete;

 private:
  Parser& parser_;
  int saved_;
};

}  // namespace kiln::python
