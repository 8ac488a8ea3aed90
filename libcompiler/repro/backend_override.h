#pragma once
// The backend every compile uses when the environment names one, whatever the script asked for:
// KILN_COMPILE_BACKEND (what `minify --backend NAME` sets for the script it runs) or
// TORCH_BISECT_BACKEND (the compiler bisector's override, as in PyTorch).
#include <optional>
#include <string>

namespace kiln::repro {

inline constexpr const char* kCompileBackendVariable = "KILN_COMPILE_BACKEND";
inline constexpr const char* kBisectBackendVariable = "TORCH_BISECT_BACKEND";

std::optional<std::string> overriding_backend();

}  // namespace kiln::repro
