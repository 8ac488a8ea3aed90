#pragma once
// raw.jsonl (reference §6.9): the string table, then one line per record: the envelope plus
// timestamp (current year), thread, pathname, lineno and payload_filename, keys sorted, compact.
// The string table is only complete at the end, so records stream to a side file that is
// appended after the table line when the report finishes.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <simdjson.h>

#include "libdiag/report/file_output.h"
#include "libdiag/report/sorted_json.h"
#include "libdiag/report/stack_frame.h"
#include "libdiag/trace/glog_prefix.h"

namespace kiln::report {

class RawJsonlWriter {
 public:
  using Diagnostic = std::function<void(const std::string&)>;
  RawJsonlWriter(const std::filesystem::path& out_dir, int year, Diagnostic diagnostic);

  // Appends one record. An envelope that already holds one of the added keys is dropped with a
  // "Key conflict" message; returns false then (tlparse's fail_key_conflict).
  bool append(simdjson::dom::object envelope, const trace::GlogPrefix& prefix,
              std::optional<std::string_view> payload_filename);
  // Writes raw.jsonl: the string-table line, then the records.
  void finish(const StringTable& strings);

 private:
  // "YYYY-MM-DDTHH:MM:SS.ffffffZ" (quoted) with the current year.
  void append_timestamp(std::string& out, const trace::GlogPrefix& prefix) const;

  std::filesystem::path final_path_, records_path_;
  int year_;
  Diagnostic diagnostic_;
  BufferedWriter records_;
  JsonMembers members_;  // reused for every record
};

// The year raw.jsonl timestamps get: glog prefixes have none, so tlparse uses the current one.
int current_year();

}  // namespace kiln::report
