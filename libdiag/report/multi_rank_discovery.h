#pragma once
// Which files of a folder are rank logs for `tlparse --all-ranks-html` (reference §1.2, §7 step 1).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

namespace kiln::report {

struct RankLog {
  uint32_t rank = 0;
  std::filesystem::path path;
};

// The rank of a file named "dedicated_log_torch_trace_rank_<digits>[_<anything>].log" (or
// ".log.gz", gzip-compressed): the first
// '_'-separated token after "rank_", read as an unsigned 32-bit number; nullopt for other names.
std::optional<uint32_t> rank_of_log_name(std::string_view file_name);

// The regular files of `dir` that are rank logs, ordered by rank, then by file name (so the order
// does not depend on the file system). Throws ReportError when `dir` cannot be listed.
std::vector<RankLog> discover_rank_logs(const std::filesystem::path& dir);

}  // namespace kiln::report
