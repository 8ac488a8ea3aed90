#include "libcompiler/capture/compile_times.h"

#include <algorithm>
#include <cstdio>

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
  std::vector<std::pair<std::string, std::string>> rows;
  size_t name_width = std::string("Function").size(), times_width = std::string("Runtimes (s)").size();
  for (const auto& [name, times] : phases_) {
    std::string text;
    for (double t : times) {
      char value[32];
      std::snprintf(value, sizeof value, "%.4f", t);
      text += (text.empty() ? "" : ", ") + std::string(value);
    }
    name_width = std::max(name_width, name.size());
    times_width = std::max(times_width, text.size());
    rows.emplace_back(name, text);
  }
  auto padded = [](std::string text, size_t width) {
    text.resize(std::max(text.size(), width), ' ');
    return text;
  };
  std::string out = "TorchDynamo compilation metrics:\n" + padded("Function", name_width) + "  Runtimes (s)\n" +
                    std::string(name_width, '-') + "  " + std::string(times_width, '-') + "\n";
  for (const auto& [name, text] : rows) out += padded(name, name_width) + "  " + text + "\n";
  return out;
}

CompileTimes& compile_times() {
  static CompileTimes times;
  return times;
}

}  // namespace kiln::capture
