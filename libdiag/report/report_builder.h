#pragma once
// The report builder: a TraceVisitor that turns records into report files in one streaming pass
// (reference §5). Parser outputs are written the moment they are produced; what the global pages
// need is kept in small indexes (ReportState) and written by finish().
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "libdiag/report/async_file_writer.h"
#include "libdiag/report/byte_accounting.h"
#include "libdiag/report/parser.h"
#include "libdiag/report/raw_jsonl.h"
#include "libdiag/report/report.h"
#include "libdiag/report/report_state.h"
#include "libdiag/report/sqlite_export.h"
#include "libdiag/trace/trace_reader.h"

namespace kiln::report {

class ReportBuilder : public trace::TraceVisitor, private OutputSink {
 public:
  ReportBuilder(const std::filesystem::path& out_dir, const ReportOptions& options, uint64_t input_bytes);
  ~ReportBuilder() override;

  void on_record(const trace::Record& record) override;
  void on_other_rank(const trace::Record& record) override;
  void on_rejected(uint64_t line, const trace::GlogPrefix& prefix, simdjson::dom::object envelope) override;
  void on_string(uint64_t index, std::string_view value) override;
  void on_diagnostic(uint64_t line, const std::string& message) override;
  void on_progress(uint64_t bytes_read) override;

  // Writes the global pages and returns the result; `read` is what the reader counted.
  ReportResult finish(const trace::ReadResult& read);

 private:
  std::string emit(ParserOutput output) override;
  CompileGroup& group_for(const trace::Record& record);
  void run_parsers(const trace::Record& record, CompileGroup& group, const std::string& directory);
  void write_payload_fallback(const trace::Record& record);
  void ensure_directory(const std::string& relative);
  void diagnose(const std::string& message) const;

  std::filesystem::path out_dir_;
  const ReportOptions& options_;
  uint64_t input_bytes_;
  ReportState state_;
  std::vector<CompileGroup> groups_;
  std::map<trace::CompileId, size_t> group_index_;
  uint64_t output_counter_ = 0;
  std::set<std::string> created_directories_;
  std::set<std::string> written_payloads_;
  trace::Counters parser_counters_;  // the counters only the report can tell (fail_parser, ...)
  std::optional<int64_t> rank_;
  ByteAccounting bytes_;
  std::unique_ptr<RawJsonlWriter> raw_jsonl_;
  std::unique_ptr<SqliteExport> sqlite_;
  std::vector<int> parser_rows_scratch_;
  AsyncFileWriter files_;  // its thread touches nothing but its own queue

  // The record being processed: where its files go and which file holds its payload.
  struct Current {
    CompileGroup* group = nullptr;
    const std::string* directory = nullptr;
    std::string_view payload;
    std::optional<std::string> payload_filename;
    bool skip_rest = false;
  } current_;
};

}  // namespace kiln::report
