#pragma once
// The torch._inductor.config settings the code generator reads, taken when a graph compiles.
#include <optional>
#include <string>

namespace kiln::inductor {

struct InductorConfig {
  // cpp.inject_relu_bug_TESTING_ONLY: None, "compile_error", "runtime_error" or "accuracy"; what
  // CPU kernels do with relu.
  std::optional<std::string> inject_relu_bug;
  // triton.inject_relu_bug_TESTING_ONLY: the same for GPU kernels (CUDA's, in Kiln).
  std::optional<std::string> triton_inject_relu_bug;
  bool fallback_random = false;
  // max_autotune, or torch.compile(mode="max-autotune"): kernels are timed at a few vector
  // widths and the fastest kept.
  bool max_autotune = false;

  // What the compile cache keys on.
  std::string key() const;
};

}  // namespace kiln::inductor
