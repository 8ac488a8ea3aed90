#pragma once
// torch._logging.set_logs(...): component levels and artifact switches given in code.
#include <vector>
#include <string>
#include <variant>

#include "libdiag/log/log_settings.h"

namespace kiln::log {

// A Python argument value: True/False, or an int (a logging level). Python's None is "not
// given": leave the argument out.
using SetLogsValue = std::variant<bool, int>;

struct SetLogsArgument {
  std::string name;  // a keyword ("dynamo", "all", "guards") or a `modules` dict key
  SetLogsValue value;
};

// The settings set_logs(**keywords, modules=dict(modules)) asks for. Keywords are applied in
// PyTorch's order, whatever order they come in, then modules entries in theirs. The
// interpreter rejects keywords that are not is_set_logs_keyword with Python's TypeError first.
// Throws LogSettingsError with PyTorch's texts ("Expected bool to enable artifact guards,
// received 1", "Unrecognized log level for log dynamo: 15, ...", "Unrecognized log or
// artifact name passed to set_logs: bogus").
LogSettings set_logs_settings(const std::vector<SetLogsArgument>& keywords,
                              const std::vector<SetLogsArgument>& modules);

// set_logs itself: replaces the settings in force. TORCH_LOGS has complete precedence: when it
// is in the environment, this logs PyTorch's warning and changes nothing.
void set_logs(const std::vector<SetLogsArgument>& keywords,
              const std::vector<SetLogsArgument>& modules = {});

}  // namespace kiln::log
