#include "libdiag/log/torch_logs_parser.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace kiln::log {
namespace {

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

// PyTorch's whole-string regex ((\+|-)?[\w\.]+,\s*)*(\+|-)?[\w\.]+ : items separated by a
// comma and optional whitespace, each an optional sign and at least one name character.
bool is_well_formed(std::string_view settings) {
  size_t i = 0;
  while (true) {
    if (i < settings.size() && (settings[i] == '+' || settings[i] == '-')) ++i;
    const size_t name_start = i;
    while (i < settings.size() && is_name_char(settings[i])) ++i;
    if (i == name_start) return false;
    if (i == settings.size()) return true;
    if (settings[i] != ',') return false;
    ++i;
    while (i < settings.size() && is_space(settings[i])) ++i;
  }
}

std::vector<std::string> split_items(std::string_view settings) {
  std::vector<std::string> items(1);
  for (char c : settings) {
    if (c == ',') items.emplace_back();
    else if (!is_space(c)) items.back() += c;
  }
  return items;
}

constexpr std::string_view kHelpExamples = R"(
Examples:
  TORCH_LOGS="+dynamo,aot" will set the log level of TorchDynamo to
  logging.DEBUG and AOT to logging.INFO

  TORCH_LOGS="-dynamo,+inductor" will set the log level of TorchDynamo to
  logging.ERROR and TorchInductor to logging.DEBUG

  TORCH_LOGS="aot_graphs" will enable the aot_graphs artifact

  TORCH_LOGS="+dynamo,schedule" will enable set the log level of TorchDynamo
  to logging.DEBUG and enable the schedule artifact

  TORCH_LOGS="+some.random.module,schedule" will set the log level of
  some.random.module to logging.DEBUG and enable the schedule artifact

  TORCH_LOGS="+torch._functorch._aot_autograd" will set the log level of
  torch._functorch._aot_autograd and all its submodules to logging.DEBUG
  (directory-based logging)

  TORCH_LOGS_FORMAT="%(levelname)s: %(message)s" or any provided format
  string will set the output format
  Valid keys are "levelname", "message", "pathname", "levelno", "lineno",
  "filename" and "name".

  TORCH_LOGS_OUT=/tmp/output.txt will output the logs to /tmp/output.txt as
  well. This is useful when the output is long.
)";

std::vector<std::string> sorted_component_names() {
  std::vector<std::string> names;
  for (size_t i = 0; i < kComponentCount; ++i)
    names.emplace_back(info(static_cast<Component>(i)).name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

std::string invalid_settings_message(std::string_view settings) {
  std::vector<std::string> valid = sorted_component_names();
  valid.emplace_back("all");
  for (size_t i = 0; i < kArtifactCount; ++i)
    valid.emplace_back(info(static_cast<Artifact>(i)).name);
  std::sort(valid.begin(), valid.end());
  std::string message =
      "\nInvalid log settings: " + std::string(settings) +
      ", must be a comma separated list of fully\n"
      "qualified module names, registered log names or registered artifact names.\n"
      "For more info on various settings, try TORCH_LOGS=\"help\"\n"
      "Valid settings:\n";
  for (size_t i = 0; i < valid.size(); ++i) message += (i ? ", " : "") + valid[i];
  return message + "\n";
}

std::string torch_logs_help(bool verbose) {
  constexpr size_t kNameColumn = 30;  // artifact names are padded to this width, then a tab
  std::vector<std::string> artifact_lines;
  for (size_t i = 0; i < kArtifactCount; ++i) {
    const ArtifactInfo& artifact = info(static_cast<Artifact>(i));
    if (!verbose && !artifact.visible) continue;
    std::string line(artifact.name);
    line.resize(kNameColumn, ' ');
    artifact_lines.push_back(line + "\t" + std::string(artifact.description));
  }
  std::sort(artifact_lines.begin(), artifact_lines.end());

  std::string text = "\nTORCH_LOGS Info\n" + std::string(kHelpExamples) + "\n\n" +
                     (verbose ? "All registered names"
                              : "Visible registered names (use TORCH_LOGS='+help' for full list)") +
                     "\n  all";
  for (const std::string& name : sorted_component_names()) text += "\n  " + name;
  for (const std::string& line : artifact_lines) text += "\n  " + line;
  return text + "\n";
}

LogSettings parse_torch_logs(std::string_view settings) {
  LogSettings parsed;
  if (settings.empty()) return parsed;
  if (settings == "help") throw LogSettingsError(torch_logs_help(false));
  if (settings == "+help") throw LogSettingsError(torch_logs_help(true));
  if (!is_well_formed(settings)) throw LogSettingsError(invalid_settings_message(settings));

  for (const std::string& item : split_items(settings)) {
    int level = static_cast<int>(Level::Info);
    if (item.front() == '+') level = static_cast<int>(Level::Debug);
    if (item.front() == '-') level = static_cast<int>(Level::Error);
    std::string name = item.front() == '+' || item.front() == '-' ? item.substr(1) : item;
    if (name == "all") name = "torch";

    if (const auto component = find_component(name)) {
      parsed.set_component_level(*component, level);
    } else if (const auto artifact = find_artifact(name)) {
      parsed.enable_artifact(*artifact);
    } else if (is_torch_module_name(name)) {
      parsed.set_level(std::move(name), level, true);
    } else {
      throw LogSettingsError(invalid_settings_message(settings));
    }
  }
  return parsed;
}

}  // namespace kiln::log
