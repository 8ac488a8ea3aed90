#pragma once
// How tlparse names produced files (reference §6.2, §6.10).
#include <cstdint>
#include <string>
#include <string_view>

namespace kiln::report {

// "fx_graph_runnable.txt", 3 -> "fx_graph_runnable_3.txt"; the number goes before the last dot
// ("torch._functorch.config.txt" -> "torch._functorch.config_4.txt"), or at the end without one.
std::string with_output_number(std::string_view file_name, uint64_t number);

// The cache marker of a produced path: "❌" if it contains cache_miss, else "✅" for cache_hit,
// else "❓" for cache_bypass, else "".
std::string_view cache_marker(std::string_view path);

}  // namespace kiln::report
