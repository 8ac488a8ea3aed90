#pragma once
// PyTorch's debug folder: <TORCH_COMPILE_DEBUG_DIR or the working folder>/torch_compile_debug/
// run_<YYYY_MM_DD_HH_MM_SS_micro>-pid_<pid>/, one per process, made when first asked for.
#include <filesystem>

namespace kiln::fx {

std::filesystem::path debug_run_dir();

// TORCH_COMPILE_DEBUG=1: the folder gets Dynamo's debug.log and inductor's per-graph folders.
bool compile_debug_enabled();

}  // namespace kiln::fx
