#pragma once
// Python's logging levels as plain ints, as tests pass them to set_logs and read them back.
#include "libdiag/log/level.h"

namespace kiln::log {

inline constexpr int kDebug = static_cast<int>(Level::Debug);
inline constexpr int kInfo = static_cast<int>(Level::Info);
inline constexpr int kWarning = static_cast<int>(Level::Warning);
inline constexpr int kError = static_cast<int>(Level::Error);

}  // namespace kiln::log
