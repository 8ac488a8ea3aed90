#include "libdiag/report/multi_rank_tensor_meta.h"

#include <simdjson.h>

#include "libdiag/report/sorted_json.h"

namespace kiln::report {

std::map<uint32_t, std::string> tensor_meta_signatures(const std::vector<RankReport>& reports,
                                                       const std::function<void(const std::string&)>& warn) {
  std::map<uint32_t, std::string> signatures;
  simdjson::dom::parser parser;
  for (const RankReport& report : reports) {
    std::vector<std::string> fingerprints;
    for (const std::string& dir : report.compile_dirs) {
      const auto files = files_with_prefix(report, dir, "inductor_runtime_and_tensor_meta", ".json");
      if (files.empty()) continue;
      simdjson::padded_string content;
      simdjson::dom::element value;
      if (simdjson::padded_string::load(files.front().string()).get(content) != simdjson::SUCCESS ||
          parser.parse(content).get(value) != simdjson::SUCCESS) {
        warn("Skipping tensor metadata " + files.front().string() + ": not JSON");
        continue;
      }
      std::string fingerprint;
      append_sorted_json(fingerprint, value, /*pretty=*/false);
      fingerprints.push_back(std::move(fingerprint));
    }
    if (fingerprints.empty()) continue;
    std::string& signature = signatures[report.rank];
    for (size_t i = 0; i < fingerprints.size(); ++i) {
      if (i > 0) signature += ',';
      signature += fingerprints[i];
    }
  }
  return signatures;
}

}  // namespace kiln::report
