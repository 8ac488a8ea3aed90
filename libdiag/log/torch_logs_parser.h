#pragma once
// TORCH_LOGS: "<item>,<item>,..." (whitespace allowed after a comma), each item a registered
// component (no prefix: INFO, "+": DEBUG, "-": ERROR), "all" (the root logger "torch"), an
// artifact (prefix ignored) or a torch module name (that module and its submodules).
#include <string>
#include <string_view>

#include "libdiag/log/log_settings.h"

namespace kiln::log {

// Throws LogSettingsError with PyTorch's text for an invalid value (invalid_settings_message),
// and with the help text for "help" / "+help". An empty value asks for nothing (PyTorch 2.11
// crashes on it with an AttributeError; Kiln does not copy that).
LogSettings parse_torch_logs(std::string_view settings);

// "\nInvalid log settings: <settings>, must be ..." with every valid name, sorted.
std::string invalid_settings_message(std::string_view settings);
// The text of TORCH_LOGS="help" (visible artifacts) or "+help" (verbose: all of them).
std::string torch_logs_help(bool verbose);

}  // namespace kiln::log
