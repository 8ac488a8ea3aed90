#pragma once
// PyTorch's debug folder: <TORCH_COMPILE_DEBUG_DIR or the working folder>/torch_compile_debug/
// run_<YYYY_MM_DD_HH_MM_SS_micro>-pid_<pid>/, one per process, made when first asked for.
#include <filesystem>

namespace kiln::fx {

std::filesystem::path debug_run_dir();

}  // namespace kiln::fx
