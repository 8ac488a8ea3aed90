#pragma once
// The question a compiler asks before each unit of work of a bisectable subsystem (each
// decomposition applied, each pass application, each aten node lowered): should this one be
// skipped? (PyTorch's CompilerBisector.disable_subsystem, debug_tools.md §4.2.) The answer comes
// from the environment the bisector's driver (bisector.h) sets for each run of the program:
//
//   TORCH_BISECT_BACKEND, TORCH_BISECT_SUBSYSTEM   what is bisected; other subsystems are never
//                                                   disabled
//   TORCH_BISECT_MAX=n                              disable the applications counted past n
//                                                   (-1: every one, the "test_disable" run); without
//                                                   it nothing is disabled and every application is
//                                                   counted ("find_max_bounds")
//   KILN_BISECT_REPORT=<file>                       each application of the subsystem appends
//                                                   "<counter>\t<debug info>" there, from which the
//                                                   driver learns the upper bound and names the culprit
//
// Counters start at 0 in each process and count per subsystem; reset_counters() starts them again
// (the driver does before each run, as PyTorch's does, for programs run in its own process).
#include <functional>
#include <string>
#include <string_view>

namespace kiln::bisect {

bool disable_subsystem(std::string_view backend, std::string_view subsystem,
                       const std::function<std::string()>& debug_info = {});

void reset_counters();

// The subsystem a run bisects when it names one for this backend (a config change is applied by
// whoever reads that config: libcompiler/repro for Kiln's config modules).
std::string bisected_subsystem(std::string_view backend);

}  // namespace kiln::bisect
