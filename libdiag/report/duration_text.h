#pragma once
// How the report and the diff print compile times and their changes.
#include <string>

namespace kiln::report {

std::string seconds_text(double seconds);                     // "1.234 s"
std::string change_percent_text(double before, double after);  // "+21.6%", "-3.0%", "=", "new"

}  // namespace kiln::report
