#pragma once
// compile_directory.json (reference §6.9): every group's entries, keyed by display id, sorted.
#include <string>
#include <vector>

#include "libdiag/report/report.h"

namespace kiln::report {

std::string render_compile_directory(const std::vector<CompileGroup>& groups);

}  // namespace kiln::report
