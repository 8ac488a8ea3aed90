#pragma once
// The compiles a TORCH_TRACE folder records, summarised as ../shared/tools/tracestats.py does:
// one entry per compilation_metrics record, in order.
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kiln::test {

struct CompileSummary {
  std::string id;                    // "0/0", "1/0_1"
  std::optional<std::string> co_name;
  std::optional<int64_t> ops;        // graph_op_count
  bool library = false;              // a frame of torch's own code
  bool graph = false;                // a dynamo_output_graph was written
  std::optional<std::string> fail_type;
  friend bool operator==(const CompileSummary&, const CompileSummary&) = default;
};

std::vector<CompileSummary> compiles_in(const std::filesystem::path& trace_dir);
// "(co_name, ops)", the form the fidelity checks compare ("None" for what is absent).
std::string compile_key(const std::optional<std::string>& co_name, std::optional<int64_t> ops);
// Per compile id ("0/0", "1/0_1"), the kinds of record its compile wrote: the record's key
// ("dynamo_output_graph", "compilation_metrics"), or an artifact's name ("fx_graph_cache_miss").
std::map<std::string, std::set<std::string>> record_kinds_by_compile(const std::filesystem::path& trace);

// `trace` below is a TORCH_TRACE folder or one of its logs (a rank's).
// Per record key ("artifact" for every artifact), how many records the trace holds.
std::map<std::string, int64_t> record_counts(const std::filesystem::path& trace);
// The "rank" of the records that carry a compile context (all but "str"); -1 for one without.
std::set<int64_t> ranks_in(const std::filesystem::path& trace);
// The metadata "name" of each record with this key, in order ("submod_0", ...).
std::vector<std::string> record_names(const std::filesystem::path& trace, const std::string& key);
// The compile id ("4/0") of the first record with this key, "" when there is none.
std::string compile_of(const std::filesystem::path& trace, const std::string& key);
// The metadata `field` (a string) of each record with this key written by compile `compile`, in
// order: the "source" of describe_source records, say.
std::vector<std::string> record_fields(const std::filesystem::path& trace, const std::string& key, const std::string& field,
                                       const std::string& compile);

// Per compilation ("0/0": chromium events name no attempt), the phases its chromium events
// closed ("dynamo", "create_aot_dispatcher_function", "inductor_compile", ...) and its instants.
std::map<std::string, std::set<std::string>> phases_by_compile(const std::filesystem::path& trace_dir);
// The field names of each compilation_metrics record, sorted.
std::vector<std::vector<std::string>> metrics_fields(const std::filesystem::path& trace_dir);

// The keys of the non-library compiles.
std::vector<std::string> user_compiles(const std::vector<CompileSummary>& compiles);

}  // namespace kiln::test
