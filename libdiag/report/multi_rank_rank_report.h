#pragma once
// One rank's finished single-rank report, as the multi-rank analyses read it back (reference §7
// steps 3-11): its compile_directory.json and its per-compile folders.
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::report {

// One entry of compile_directory.json.
struct RankArtifact {
  std::string compile_id;  // the key it is listed under: "[0/0]", "[-/-]", "unknown"
  std::string name;        // base file name (with its number), or a link's name
  std::string url;         // path relative to the rank folder, or a link's URL
  uint64_t number = 0;
  std::string suffix;      // cache marker: "", "✅", "❌", "❓"
};

struct RankReport {
  uint32_t rank = 0;
  std::filesystem::path dir;               // <out>/rank_<r>
  std::vector<RankArtifact> artifacts;     // keys in sorted order, each key's entries in order
  std::set<std::string> compile_ids;       // the keys, except "unknown" and "unknown_*"
  std::vector<std::string> compile_dirs;   // names of the sub-folders of `dir`, sorted
  // Folder name -> the first key (in sorted order) listing a file under that folder.
  std::map<std::string, std::string> compile_id_of_dir;
};

// Reads <out_dir>/rank_<rank>. Throws ReportError when compile_directory.json cannot be read or
// is not a JSON object.
RankReport load_rank_report(const std::filesystem::path& out_dir, uint32_t rank);

// The files of `report.dir/compile_dir` whose name starts with `prefix` and ends with
// `extension` ("" for any), ordered by their output number (the "_<N>" before the extension),
// then by name.
std::vector<std::filesystem::path> files_with_prefix(const RankReport& report, std::string_view compile_dir,
                                                     std::string_view prefix, std::string_view extension);

}  // namespace kiln::report
