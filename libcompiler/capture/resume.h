#pragma once
// Resume points: where in a function a resume frame (torch_dynamo_resume_in_<fn>_at_<line>)
// starts, and how to run the rest of a function from there. A resume frame is the original
// function's code run from a statement on: its locals are given, and the statement it starts
// in, when a call broke in the middle of it, replays the values computed before the call (the
// stack) and the call's result instead of computing them again.
#include <optional>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "libcompiler/python/ast.h"
#include "libcompiler/python/interp/evaluator.h"

namespace kiln::capture {

struct StatementPosition {
  const python::StmtList* block;
  size_t index;
};
// Outermost first; the last position is where the continuation starts (an index equal to the
// block's size starts after its last statement, in the enclosing block).
using StatementPath = std::vector<StatementPosition>;

// The path to `target` in `body`. nullopt when it is not there, or when it is inside a loop,
// `with` or `try`, which a resume frame cannot enter (Dynamo skips such frames).
std::optional<StatementPath> resumable_path(const python::StmtList& body, const python::Statement* target);

// Runs the statement at the innermost position, then what follows it in each enclosing block.
python::Flow run_continuation(python::Evaluator& evaluator, const StatementPath& path);

// The first statement of a continuation (in order, compound statements whole) that reads `name`.
const python::Statement* first_statement_reading(const StatementPath& path, const std::string& name);

// The names a continuation reads (over-approximated: every load in what is left to run, except
// inside the replayed expressions).
std::set<std::string> names_read(const StatementPath& path, const std::unordered_set<const python::Expression*>& replayed);

}  // namespace kiln::capture
