#include "libcompiler/inductor/inductor_config.h"

namespace kiln::inductor {

std::string InductorConfig::key() const {
  return "relu_bug=" + inject_relu_bug.value_or("None") + ";triton_relu_bug=" + triton_inject_relu_bug.value_or("None") +
         ";fallback_random=" + (fallback_random ? "1" : "0") +
         ";max_autotune=" + (max_autotune ? "1" : "0");
}

}  // namespace kiln::inductor
