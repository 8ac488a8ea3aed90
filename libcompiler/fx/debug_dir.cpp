#include "libcompiler/fx/debug_dir.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

namespace kiln::fx {

std::filesystem::path debug_run_dir() {
  static const std::filesystem::path dir = [] {
    const char* root = std::getenv("TORCH_COMPILE_DEBUG_DIR");
    auto now = std::chrono::system_clock::now();
    std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    auto micros = std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count() % 1000000;
    std::tm local{};
    localtime_r(&seconds, &local);
    char name[96];
    std::snprintf(name, sizeof name, "run_%04d_%02d_%02d_%02d_%02d_%02d_%06lld-pid_%d", local.tm_year + 1900, local.tm_mon + 1,
                  local.tm_mday, local.tm_hour, local.tm_min, local.tm_sec, static_cast<long long>(micros), static_cast<int>(getpid()));
    // Absolute, as PyTorch's (its path is logged: "debug trace: ...").
    const std::filesystem::path base = root && *root ? std::filesystem::absolute(root) : std::filesystem::current_path();
    return base / "torch_compile_debug" / name;
  }();
  return dir;
}

bool compile_debug_enabled() {
  const char* v = std::getenv("TORCH_COMPILE_DEBUG");
  return v && std::string(v) == "1";
}

}  // namespace kiln::fx
