#include "libcompiler/repro/minifier.h"

#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "libcompiler/ir/runnable_printer.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/python/python_repr.h"
#include "libcompiler/repro/content_store.h"
#include "libcompiler/repro/passes/pass.h"
#include "libcompiler/repro/python_oracle.h"
#include "libcompiler/tensor/copy.h"
#include "libdiag/reduce/delta.h"
#include "libdiag/reduce/memo.h"

namespace kiln::repro {

using namespace std::chrono_literals;

namespace {

reduce::CandidateKey sha256(const std::string& text) {
  reduce::CandidateKey key{};
  unsigned int length = 0;
  if (!EVP_Digest(text.data(), text.size(), key.data(), &length, EVP_sha256(), nullptr)) throw std::runtime_error("OpenSSL SHA-256 failed");
  return key;
}

std::string hex(const reduce::CandidateKey& key) {
  std::ostringstream text;
  for (uint8_t byte : key) text << std::hex << std::setw(2) << std::setfill('0') << int(byte);
  return text.str();
}

// What a candidate is: its code and its inputs' types, geometry and bytes.
std::string state_text(const ReproState& state) {
  std::string text = ir::printRunnable(*state.module);
  for (const ops::IValue& input : state.inputs) {
    if (!input.is_tensor()) {
      text += input.is_int() ? std::to_string(input.to_int()) : input.is_double() ? python::repr_float(input.to_double()) : "other";
      text += "\n";
      continue;
    }
    const ops::Tensor& t = input.to_tensor();
    const ops::Tensor data = ops::contiguous(tensor::to_host(t));
    text += std::string(tensor::dtype_name(t.dtype())) + tensor::shape_str(t.sizes()) + tensor::shape_str(t.strides()) +
            (t.requires_grad() ? "grad " : " ") +
            sha1_hex(std::string_view(static_cast<const char*>(data.data_ptr()), size_t(data.numel()) * data.itemsize())) + "\n";
  }
  return text;
}

// The binary that tests run in: a rebuilt compiler must not be answered from an old memo.
std::string build_identity() {
  char path[4096];
  const ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
  if (length <= 0) return "unknown build";
  path[length] = '\0';
  struct stat info{};
  stat(path, &info);
  return std::string(path) + " " + std::to_string(info.st_mtime) + " " + std::to_string(info.st_size);
}

std::string target_text(const ReproTarget& target, const std::string& check_str) {
  return std::string(target.after == ReproAfter::Aot ? "aot " : "dynamo ") + target.backend + " accuracy=" +
         std::to_string(int(target.accuracy)) + " tol=" + python::repr_float(target.tolerance) +
         (target.only_fwd ? " only_fwd" : " fwd_bwd") + " check=" + check_str + (target.oracle ? " python=" + target.oracle->python() : "");
}

// The first run, in a child like every test, reporting what it ended in through a pipe.
struct FirstRun {
  Failure failure;
  std::chrono::duration<double> elapsed{};
};

FirstRun first_run(python::Interpreter& interp, const ReproState& state, const ReproTarget& target, std::chrono::milliseconds limit) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) throw std::runtime_error("pipe failed");
  reduce::TestRunner runner(
      [&](std::span<const size_t>) {
        close(pipe_fds[0]);
        const Failure found = run_state(interp, state, target);
        // Bounded, so that the pipe never fills while the parent waits for the child to end.
        const std::string report = std::to_string(int(found.kind)) + "\n" + found.type + "\n" + found.message.substr(0, 8192);
        for (size_t done = 0; done < report.size();) {
          const ssize_t written = write(pipe_fds[1], report.data() + done, report.size() - done);
          if (written <= 0) break;
          done += size_t(written);
        }
        return 0;
      },
      {1, limit, true});
  const auto started = std::chrono::steady_clock::now();
  runner.start(0, {});
  close(pipe_fds[1]);
  // The report fits the pipe's buffer: the child never waits for this read, which comes after
  // the child has ended (or was killed for its time limit).
  const reduce::TestRunner::Finished finished = runner.wait();
  std::string report;
  char buffer[4096];
  for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof buffer)) > 0;) report.append(buffer, size_t(n));
  close(pipe_fds[0]);
  FirstRun result;
  result.elapsed = std::chrono::steady_clock::now() - started;
  if (finished.outcome == reduce::Outcome::Crashed) result.failure = {Failure::Kind::Crash, "Crash", ""};
  else if (finished.outcome == reduce::Outcome::TimedOut) result.failure = {Failure::Kind::Hang, "Hang", ""};
  else {
    std::istringstream lines(report);
    std::string kind, type;
    std::getline(lines, kind);
    std::getline(lines, type);
    std::ostringstream message;
    message << lines.rdbuf();
    result.failure = {Failure::Kind(kind.empty() ? 0 : std::stoi(kind)), type, message.str()};
  }
  return result;
}

// How a test child that keeps the failure ends: crashes and hangs are seen by the runner, an
// exception or accuracy failure is reported by the child's exit status.
reduce::Outcome failing_outcome(const Failure& failure) {
  if (failure.kind == Failure::Kind::Crash) return reduce::Outcome::Crashed;
  if (failure.kind == Failure::Kind::Hang) return reduce::Outcome::TimedOut;
  return reduce::Outcome::Interesting;
}

std::string counts(const ReproState& state) {
  return std::to_string(call_node_count(state.module->graph)) + " nodes, " + std::to_string(state.inputs.size()) + " inputs";
}

}  // namespace

MinifyResult minify(python::Interpreter& interp, const ReproState& start, const MinifyOptions& options, std::ostream& log) {
  const auto started = std::chrono::steady_clock::now();
  MinifyResult result;
  result.state = start;
  result.nodes_before = call_node_count(start.module->graph);
  result.inputs_before = start.inputs.size();
  auto finish = [&](MinifyResult::Status status) {
    result.status = status;
    result.nodes_after = call_node_count(result.state.module->graph);
    result.inputs_after = result.state.inputs.size();
    result.elapsed = std::chrono::steady_clock::now() - started;
    return result;
  };

  log << "Started off with " << counts(start) << "\n" << std::flush;
  const FirstRun first = first_run(interp, start, options.target, options.timeout ? *options.timeout * 10 : 120'000ms);
  ++result.tests_run;
  result.failure = first.failure;
  if (!first.failure.failed()) {
    log << "Input graph did not fail the tester: " << first.failure.describe() << "\n";
    return finish(MinifyResult::Status::DidNotFail);
  }
  log << "The failure to keep: " << first.failure.describe().substr(0, 300) << "\n" << std::flush;
  const Failure expected = first.failure;
  const auto limit = options.timeout.value_or(
      std::max<std::chrono::milliseconds>(5000ms, std::chrono::duration_cast<std::chrono::milliseconds>(first.elapsed * 10)));

  const std::string session = build_identity() + "\n" + target_text(options.target, options.check_str) + "\n";
  auto key_of = [&](const ReproState& state) { return sha256(session + state_text(state)); };
  {
    reduce::Memo memo(options.memo_path.string(), "first run", reduce::kContentScope);
    memo.record(key_of(start), failing_outcome(expected));
  }

  // The values cut nodes carry. A graph the interpreter cannot run eagerly has none: cutting
  // then makes no candidate, and only the passes that cut nothing reduce it.
  auto values_of = [&](const ReproState& state) {
    try {
      return node_values(state);
    } catch (const std::exception& error) {
      log << "No eager values of the graph's nodes (" << error.what() << "): nodes cannot be cut into inputs\n";
      return NodeValues{};
    }
  };
  ReproState state = start;
  NodeValues values = values_of(state);
  for (bool changed = true; changed;) {
    changed = false;
    for (const ReproPass* pass : repro_passes()) {
      const PassInput input{state, values};
      const size_t items = pass->item_count(input);
      if (items == 0) continue;
      log << "Strategy: " << pass->name << " (" << counts(state) << ")\n" << std::flush;
      reduce::ReduceOptions reduce_options;
      reduce_options.runner = {options.jobs, limit, true};
      reduce_options.interesting = {failing_outcome(expected)};
      reduce_options.memo_path = options.memo_path.string();
      reduce_options.problem = std::string(pass->name) + " " + hex(key_of(state));
      reduce_options.progress = options.progress;
      if (options.max_tests) {
        if (result.tests_run >= options.max_tests) return finish(MinifyResult::Status::BudgetExhausted);
        reduce_options.max_tests = options.max_tests - result.tests_run;
      }
      const std::string invalid_prefix = session + reduce_options.problem;
      reduce_options.content_key = [&](std::span<const size_t> kept) {
        std::optional<ReproState> candidate = pass->candidate(input, kept);
        if (candidate) return key_of(*candidate);
        std::string indices;
        for (size_t index : kept) indices += std::to_string(index) + ",";
        return sha256(invalid_prefix + " invalid " + indices);
      };
      const reduce::ChildTest test = [&](std::span<const size_t> kept) -> int {
        std::optional<ReproState> candidate = pass->candidate(input, kept);
        if (!candidate) return 1;
        return same_failure(run_state(interp, *candidate, options.target), expected, options.check_str) ? 0 : 1;
      };
      const reduce::ReduceResult reduced = reduce::reduce(items, test, reduce_options);
      result.tests_run += reduced.stats.tests_run;
      result.memo_hits += reduced.stats.memo_hits;
      result.crashed += reduced.stats.crashed;
      result.timed_out += reduced.stats.timed_out;
      if (reduced.status == reduce::ReduceStatus::BudgetExhausted) return finish(MinifyResult::Status::BudgetExhausted);
      std::optional<ReproState> smaller;
      if (reduced.status == reduce::ReduceStatus::Minimal && reduced.state.kept.size() < items)
        smaller = pass->candidate(input, reduced.state.kept);
      if (!smaller || state_text(*smaller) == state_text(state)) {
        log << "FAIL: " << pass->name << "\n";
        continue;
      }
      log << "SUCCESS: Went from " << counts(state) << " to " << counts(*smaller) << "\n" << std::flush;
      state = std::move(*smaller);
      values = values_of(state);
      result.state = state;
      changed = true;
      if (options.on_smaller) options.on_smaller(state);
    }
  }
  return finish(MinifyResult::Status::Minimal);
}

std::string summary(const MinifyResult& result) {
  std::ostringstream text;
  text << "Minified " << result.nodes_before << " -> " << result.nodes_after << " nodes (" << result.inputs_before << " -> "
       << result.inputs_after << " inputs): " << result.tests_run << " tests run, " << result.memo_hits << " memo hits, "
       << result.crashed << " crashed, " << result.timed_out << " timed out, " << std::fixed << std::setprecision(2)
       << result.elapsed.count() << " s";
  return text.str();
}

}  // namespace kiln::repro
