#pragma once
// The repro tools' settings (debug_tools.md §1.1-1.2, §3.5), read from torch._dynamo.config at
// each compile (the config module reads TORCHDYNAMO_REPRO_AFTER, TORCHDYNAMO_REPRO_LEVEL, ... when
// imported, as PyTorch's does).
#include <optional>

#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/repro/repro_state.h"

namespace kiln::repro {

struct ReproConfig {
  std::optional<ReproAfter> after;  // repro_after: None, "dynamo" or "aot"
  int level = 2;                    // repro_level 1..4
  bool forward_only = false;        // repro_forward_only
  bool ignore_non_fp = false;       // repro_ignore_non_fp
  double tolerance = 1e-3;          // repro_tolerance
  bool use_fp64 = true;             // same_two_models_use_fp64
};

// ValueError for a repro_after or repro_level PyTorch would not accept.
ReproConfig read_repro_config(python::Interpreter& interp);

// While a repro file runs, or the minifier tests a candidate, the wrappers stand aside: a repro
// must not dump another repro of itself (PyTorch's launchers do, from the environment they set).
class SuspendReproWrappers {
 public:
  SuspendReproWrappers();
  ~SuspendReproWrappers();
  SuspendReproWrappers(const SuspendReproWrappers&) = delete;
  SuspendReproWrappers& operator=(const SuspendReproWrappers&) = delete;
  static bool active();
};

}  // namespace kiln::repro
