#include "libdiag/report/multi_rank_discovery.h"

#include <algorithm>
#include <charconv>
#include <system_error>

#include "libdiag/report/report.h"

namespace kiln::report {

std::optional<uint32_t> rank_of_log_name(std::string_view file_name) {
  // A compressed log is its rank's log too (the reader inflates it).
  if (file_name.ends_with(".log.gz")) file_name.remove_suffix(3);
  constexpr std::string_view kPrefix = "dedicated_log_torch_trace_rank_";
  constexpr std::string_view kSuffix = ".log";
  if (!file_name.starts_with(kPrefix) || !file_name.ends_with(kSuffix) ||
      file_name.size() < kPrefix.size() + kSuffix.size())
    return std::nullopt;
  std::string_view middle = file_name.substr(kPrefix.size(), file_name.size() - kPrefix.size() - kSuffix.size());
  const std::string_view token = middle.substr(0, middle.find('_'));
  // Like Rust's u32::from_str: digits with an optional leading '+', no overflow.
  std::string_view digits = token.starts_with('+') ? token.substr(1) : token;
  uint32_t rank = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), rank);
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return rank;
}

std::vector<RankLog> discover_rank_logs(const std::filesystem::path& dir) {
  std::vector<RankLog> logs;
  std::error_code error;
  std::filesystem::directory_iterator entries(dir, error);
  if (error) throw ReportError("cannot list " + dir.string() + ": " + error.message());
  for (const auto& entry : entries) {
    if (!entry.is_regular_file(error)) continue;
    if (auto rank = rank_of_log_name(entry.path().filename().string())) logs.push_back({*rank, entry.path()});
  }
  std::sort(logs.begin(), logs.end(), [](const RankLog& a, const RankLog& b) {
    return a.rank != b.rank ? a.rank < b.rank : a.path.filename() < b.path.filename();
  });
  return logs;
}

}  // namespace kiln::report
