#pragma once
// TORCH_LOGS_FORMAT: a Python logging format string ("%(levelname)s: %(message)s"), or
// "short"/"basic" for logging.BASIC_FORMAT. Like Python's logging.Formatter it prints the
// message as is, without a per-line prefix, and ignores artifacts' own formats.
//
// Fields: the ones PyTorch's help lists (levelname, message, pathname, levelno, lineno,
// filename, name) and module, process, asctime, msecs. pathname is the record's path as given
// (Python's is absolute). Conversions s, d, i and f with Python's flags, width and precision.
#include <string>
#include <string_view>
#include <vector>

#include "libdiag/log/log_record.h"

namespace kiln::log {

class PythonLogFormat {
 public:
  // Throws LogSettingsError: "Invalid format '<format>' for '%' style" as Python does for a
  // format without any field (Kiln also for a conversion it lacks), and "Formatting field not
  // found in record: '<key>'" for an unknown field, which Python only reports when logging.
  static PythonLogFormat parse(std::string_view format);

  std::string format(const LogRecord& record) const;

 private:
  struct Piece {
    std::string literal;  // text before the field
    std::string field;    // empty for the trailing text
    std::string flags;    // printf flags, as Python's %-formatting takes them
    std::string width;
    std::string precision;  // with its leading '.'
    char conversion = 's';
  };
  std::vector<Piece> pieces_;
};

}  // namespace kiln::log
