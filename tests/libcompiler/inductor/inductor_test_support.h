#pragma once
// What the inductor test files share: the compile cache turned off for the whole test binary,
// and the number of fused kernels a compiled graph launches.
#include <cstdlib>
#include <variant>

#include "libcompiler/inductor/compile_fx.h"

namespace kiln::test {

// Every test compiles: none reads or fills the user's compile cache.
inline const int kInductorCacheOff = setenv("TORCHINDUCTOR_FORCE_DISABLE_CACHES", "1", 1);

inline size_t fused_kernel_count(const inductor::CompiledArtifacts& artifacts) {
  size_t n = 0;
  for (const auto& step : artifacts.program->schedule().steps) n += std::holds_alternative<inductor::FusedKernel>(step);
  return n;
}

}  // namespace kiln::test
