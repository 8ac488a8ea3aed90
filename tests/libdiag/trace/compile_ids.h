#pragma once
// A CompileId from its four parts, for the trace tests (absent parts as std::nullopt).
#include <cstdint>
#include <optional>

#include "libdiag/trace/compile_id.h"

namespace kiln::trace {

inline CompileId id(std::optional<uint32_t> ca, std::optional<uint32_t> frame, std::optional<uint32_t> compile,
                    std::optional<uint32_t> attempt) {
  CompileId result;
  result.compiled_autograd_id = ca;
  result.frame_id = frame;
  result.frame_compile_id = compile;
  result.attempt = attempt;
  return result;
}

}  // namespace kiln::trace
