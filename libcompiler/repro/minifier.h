#pragma once
// The minifier: reduces a failing repro state to a small one that fails the same way. It runs the
// state once to learn the failure (an exception's type and message class, an accuracy failure, a
// crash or a hang), then sweeps the passes of passes.def over it, each through libdiag/reduce's
// engine, until a sweep changes nothing. Every candidate runs in a forked child with a time limit
// (a candidate that crashes or hangs costs one test, and counts as failing only when the original
// failure was a crash or a hang), N at a time; every outcome is kept in a SQLite memo under the
// candidate's content, so no candidate is tested twice and a rerun after an interruption replays
// what was done from the memo and resumes where it stopped.
#include <chrono>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>

#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/repro/candidate_test.h"

namespace kiln::repro {

struct MinifyOptions {
  ReproTarget target;
  std::filesystem::path memo_path;  // the memo and checkpoints (":memory:" for none)
  size_t jobs = 1;
  // Per candidate; by default 10 times the first run's duration, at least 5 s. The first run
  // itself gets 10 times this limit when it is given, else 120 s.
  std::optional<std::chrono::milliseconds> timeout;
  std::string check_str;  // only failures whose "Type: message" holds it count
  size_t max_tests = 0;   // stop (resumably) after this many tests; 0: no limit
  bool progress = true;   // the engine's progress bar, on a terminal
  // Called with each smaller state found (to write checkpoints).
  std::function<void(const ReproState&)> on_smaller;
};

struct MinifyResult {
  enum class Status { Minimal, BudgetExhausted, DidNotFail };
  Status status = Status::Minimal;
  Failure failure;  // what the original state failed with
  ReproState state;
  size_t nodes_before = 0, nodes_after = 0, inputs_before = 0, inputs_after = 0;
  size_t tests_run = 0, memo_hits = 0, crashed = 0, timed_out = 0;
  std::chrono::duration<double> elapsed{};
};

MinifyResult minify(python::Interpreter& interp, const ReproState& start, const MinifyOptions& options, std::ostream& log);

// "Minified 109 -> 1 nodes (25 -> 1 inputs): 31 tests run, 4 memo hits, 0 crashed, 0 timed out, 0.41 s"
std::string summary(const MinifyResult& result);

}  // namespace kiln::repro
