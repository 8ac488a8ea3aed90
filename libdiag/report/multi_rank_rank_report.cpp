#include "libdiag/report/multi_rank_rank_report.h"

#include <algorithm>
#include <charconv>
#include <system_error>

#include <simdjson.h>

#include "libdiag/report/report.h"

namespace kiln::report {
namespace {

// "fx_graph_cache_miss_14.json" -> 14; names without a number sort first.
uint64_t output_number(const std::string& file_name) {
  const size_t dot = file_name.rfind('.');
  const std::string_view stem(file_name.data(), dot == std::string::npos ? file_name.size() : dot);
  const size_t underscore = stem.rfind('_');
  if (underscore == std::string_view::npos) return 0;
  uint64_t number = 0;
  const std::string_view digits = stem.substr(underscore + 1);
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
  return error == std::errc() && end == digits.data() + digits.size() ? number : 0;
}

std::string string_or_empty(simdjson::dom::object object, std::string_view key) {
  std::string_view value;
  return object[key].get_string().get(value) == simdjson::SUCCESS ? std::string(value) : std::string();
}

}  // namespace

RankReport load_rank_report(const std::filesystem::path& out_dir, uint32_t rank) {
  RankReport report;
  report.rank = rank;
  report.dir = out_dir / ("rank_" + std::to_string(rank));
  const std::filesystem::path listing = report.dir / "compile_directory.json";

  simdjson::padded_string content;
  simdjson::dom::parser parser;
  simdjson::dom::object groups;
  if (simdjson::padded_string::load(listing.string()).get(content) != simdjson::SUCCESS)
    throw ReportError("cannot read " + listing.string());
  if (parser.parse(content).get_object().get(groups) != simdjson::SUCCESS)
    throw ReportError(listing.string() + " is not a JSON object");

  std::vector<std::pair<std::string_view, simdjson::dom::element>> members;
  for (auto field : groups) members.emplace_back(field.key, field.value);
  std::stable_sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [key, group] : members) {
    if (key != "unknown" && !key.starts_with("unknown_")) report.compile_ids.emplace(key);
    simdjson::dom::array artifacts;
    if (group["artifacts"].get_array().get(artifacts) != simdjson::SUCCESS) continue;
    for (simdjson::dom::element item : artifacts) {
      simdjson::dom::object artifact;
      if (item.get_object().get(artifact) != simdjson::SUCCESS) continue;
      RankArtifact entry;
      entry.compile_id = std::string(key);
      entry.name = string_or_empty(artifact, "name");
      entry.url = string_or_empty(artifact, "url");
      entry.suffix = string_or_empty(artifact, "suffix");
      uint64_t number = 0;
      if (artifact["number"].get_uint64().get(number) == simdjson::SUCCESS) entry.number = number;
      const size_t slash = entry.url.find('/');
      if (slash != std::string::npos) report.compile_id_of_dir.emplace(entry.url.substr(0, slash), entry.compile_id);
      report.artifacts.push_back(std::move(entry));
    }
  }

  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(report.dir, error))
    if (entry.is_directory(error)) report.compile_dirs.push_back(entry.path().filename().string());
  std::sort(report.compile_dirs.begin(), report.compile_dirs.end());
  return report;
}

std::vector<std::filesystem::path> files_with_prefix(const RankReport& report, std::string_view compile_dir,
                                                     std::string_view prefix, std::string_view extension) {
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(report.dir / compile_dir, error)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with(prefix) && name.ends_with(extension) && entry.is_regular_file(error))
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) {
    const std::string name_a = a.filename().string(), name_b = b.filename().string();
    const uint64_t number_a = output_number(name_a), number_b = output_number(name_b);
    return number_a != number_b ? number_a < number_b : name_a < name_b;
  });
  return files;
}

}  // namespace kiln::report
