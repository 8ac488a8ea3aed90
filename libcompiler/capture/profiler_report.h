#pragma once
// torch._dynamo.utils.CompileProfiler().report(): graph breaks by reason and recompiles by
// function, as PyTorch 2.4 printed them.
#include <string>

#include "libcompiler/capture/runtime.h"

namespace kiln::capture {

std::string profiler_report(const Runtime& runtime);

}  // namespace kiln::capture
