#include "libcompiler/capture/compile_times.h"

#include <cstdio>

#include "libcompiler/capture/tabulate.h"

namespace kiln::capture {

void CompileTimes::add(const std::string& phase, double seconds) {
  for (auto& [name, times] : phases_)
    if (name == phase) {
      times.push_back(seconds);
      return;
    }
  phases_.push_back({phase, {seconds}});
}

std::string CompileTimes::table() const {
  std::vector<std::vector<std::string>> rows;
  for (const auto& [name, times] : phases_) {
    std::string text;
    for (double t : times) {
      char value[32];
      std::snprintf(value, sizeof value, "%.4f", t);
      text += (text.empty() ? "" : ", ") + std::string(value);
    }
    rows.push_back({name, text});
  }
  return "TorchDynamo compilation metrics:\n" + tabulate({{"Function"}, {"Runtimes (s)"}}, rows);
}

CompileTimes& compile_times() {
  static CompileTimes times;
  return times;
}

}  // namespace kiln::capture
