#pragma once
// `minify --python PY`: real PyTorch as the minifier's oracle. Kiln reduces the graph with its own
// passes, but every candidate is written as a repro file and run under PY (a Python with torch),
// so that the failure kept is PyTorch's: a bug in PyTorch, reduced by Kiln's reducer. PY runs
// pytorch_oracle_server.py, which imports torch once and forks a child per candidate (isolated
// as a fresh `PY repro.py` would be, without paying seconds of imports each time).
#include <sys/types.h>

#include <filesystem>
#include <string>

#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/repro/failure.h"
#include "libcompiler/repro/repro_state.h"
#include "libcompiler/repro/repro_writer.h"

namespace kiln::repro {

class PythonOracle {
 public:
  // Starts the server under `python`, its files (the server's log, the candidates and their logs)
  // in `work_dir`; returns once torch is imported. A runtime_error, with the server's last words,
  // when it cannot start. The repro wrapper's variables and TORCH_TRACE leave this process's
  // environment first, so that neither the server nor the files written for it carry them.
  // `candidate_file`: how each candidate is written (repro_writer.h: the content store PyTorch
  // reads, the launcher's config lines, a script-defined backend), its state the candidate's.
  PythonOracle(std::string python, const std::filesystem::path& work_dir, ReproScript candidate_file);
  ~PythonOracle();  // ends the server and any candidate still running
  PythonOracle(const PythonOracle&) = delete;
  PythonOracle& operator=(const PythonOracle&) = delete;

  const std::string& python() const { return python_; }

  // Runs a repro file's text under PyTorch: no failure, or the exception it raised (an
  // AccuracyError as an accuracy failure). Called in the minifier's test children: when the
  // candidate crashes PyTorch's process, this child dies of a signal too, as it would had the
  // candidate crashed Kiln. The candidate file and its log are removed once answered.
  Failure run(const std::string& repro_text) const;
  // The state written as a candidate repro file (its `run` command), run as above.
  Failure run(python::Interpreter& interp, const ReproState& state) const;

 private:
  void stop();

  std::string python_;
  std::filesystem::path work_dir_;
  ReproScript candidate_file_;
  std::filesystem::path socket_dir_;  // short: a Unix socket's path has at most 107 bytes
  pid_t server_ = -1;
};

}  // namespace kiln::repro
