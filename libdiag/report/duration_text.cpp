#include "libdiag/report/duration_text.h"

#include <cstdio>

namespace kiln::report {

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f s", seconds);
  return text;
}

std::string change_percent_text(double before, double after) {
  if (before == after) return "=";
  if (before == 0) return "new";
  char text[32];
  std::snprintf(text, sizeof text, "%+.1f%%", (after / before - 1) * 100);
  return text;
}

}  // namespace kiln::report
