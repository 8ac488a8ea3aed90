#include "libdiag/report/report_builder.h"

#include <algorithm>
#include <array>
#include <iostream>

#include "libdiag/report/compile_directory.h"
#include "libdiag/report/export_index.h"
#include "libdiag/report/failures_page.h"
#include "libdiag/report/file_output.h"
#include "libdiag/report/index_page.h"
#include "libdiag/report/kernel_stack_traces.h"
#include "libdiag/report/output_naming.h"
#include "libdiag/trace/event_schema.h"

namespace kiln::report {
namespace {

struct ParserRow {
  Parser parser;
  ParserMode mode;
  std::string_view key;
};

// parsers.def in table order; every key must be one the trace schema knows (event_schema.def).
constexpr ParserRow kParsers[] = {
#define KILN_REPORT_PARSER(key, function, mode) {&function, ParserMode::mode, #key},
#include "libdiag/report/parsers.def"
#undef KILN_REPORT_PARSER
};
#define KILN_REPORT_PARSER(key, function, mode) static_assert(trace::EventKey::key == trace::EventKey::key);
#include "libdiag/report/parsers.def"
#undef KILN_REPORT_PARSER

// For each known event key, the rows of kParsers that handle it (at most one per key here).
const std::array<int, trace::kEventKeyCount>& parser_rows_by_key() {
  static const auto table = [] {
    std::array<int, trace::kEventKeyCount> rows;
    rows.fill(-1);
    for (size_t row = 0; row < std::size(kParsers); ++row)
      rows[static_cast<size_t>(*trace::find_event_key(kParsers[row].key))] = static_cast<int>(row);
    return rows;
  }();
  return table;
}

bool runs_in(ParserMode mode, bool export_mode) {
  return mode == ParserMode::Both || (mode == ParserMode::Export) == export_mode;
}

// File and directory names come from the log: keep them inside the report folder.
std::string safe_file_name(std::string_view name) {
  constexpr size_t kMaxLength = 200;  // leaves room for "_<number>" and "_readable.html" within 255
  std::string safe(name.substr(0, kMaxLength));
  for (char& c : safe)
    if (c == '/' || c == '\\' || c == '\0') c = '_';
  if (safe.empty() || safe == "." || safe == "..") safe.insert(0, "_");
  return safe;
}

std::string_view base_name(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// The key a record is grouped under (reference §3.2): malformed ids form one "(unknown)" group.
trace::CompileId group_key(const trace::CompileId& id) {
  if (id.malformed) {
    trace::CompileId unknown;
    unknown.malformed = true;
    return unknown;
  }
  return id.normalized();
}

// Chromium events never produce a payload file and are left out of raw.jsonl (§4.7).
bool is_chromium_event(const trace::Record& record) {
  return std::find(record.event_keys.begin(), record.event_keys.end(), "chromium_event") != record.event_keys.end();
}

// What the byte tables and the database call a record: its (first) event key.
std::string_view record_kind(const trace::Record& record) {
  return record.event_keys.empty() ? std::string_view("(no event key)") : record.event_keys.front();
}

}  // namespace

ReportBuilder::ReportBuilder(const std::filesystem::path& out_dir, const ReportOptions& options,
                             uint64_t input_bytes)
    : out_dir_(out_dir), options_(options), input_bytes_(input_bytes) {
  if (!options_.export_mode) {
    state_.chromium_events = std::make_unique<ChromiumEventsWriter>(out_dir_ / "chromium_events.json");
    raw_jsonl_ = std::make_unique<RawJsonlWriter>(out_dir_, current_year(),
                                                  [this](const std::string& message) { diagnose(message); });
  }
  if (options_.sqlite_path) sqlite_ = std::make_unique<SqliteExport>(*options_.sqlite_path);
}

ReportBuilder::~ReportBuilder() = default;

void ReportBuilder::diagnose(const std::string& message) const {
  if (options_.diagnostic)
    options_.diagnostic(message);
  else
    std::cerr << message << '\n';
}

void ReportBuilder::on_diagnostic(uint64_t, const std::string& message) { diagnose(message); }

void ReportBuilder::on_progress(uint64_t bytes_read) {
  if (options_.progress) options_.progress(bytes_read, input_bytes_);
}

void ReportBuilder::on_string(uint64_t index, std::string_view value) { state_.strings.define(index, value); }

CompileGroup& ReportBuilder::group_for(const trace::Record& record) {
  const trace::CompileId key = group_key(record.compile_id);
  auto [slot, inserted] = group_index_.try_emplace(key, groups_.size());
  if (inserted) {
    CompileGroup group;
    group.id = key;
    group.first_line = record.line;
    group.display = key.display();
    group.directory = key.directory(record.line);
    groups_.push_back(std::move(group));
  }
  return groups_[slot->second];
}

void ReportBuilder::ensure_directory(const std::string& relative) {
  if (created_directories_.insert(relative).second) std::filesystem::create_directories(out_dir_ / relative);
}

std::string ReportBuilder::emit(ParserOutput output) {
  CompileGroup& group = *current_.group;
  OutputEntry entry;
  switch (output.kind) {
    case ParserOutput::Kind::Link:
      entry.name = std::move(output.name);
      entry.url = std::move(output.url);
      entry.is_link = true;
      entry.number = output_counter_++;
      group.entries.push_back(entry);
      return entry.url;
    case ParserOutput::Kind::GlobalFile: {
      const size_t slash = output.name.rfind('/');
      std::string path = slash == std::string::npos
                             ? safe_file_name(output.name)
                             : safe_file_name(output.name.substr(0, slash)) + "/" +
                                   safe_file_name(output.name.substr(slash + 1));
      if (slash != std::string::npos) ensure_directory(path.substr(0, path.rfind('/')));
      files_.write(out_dir_ / path, std::move(output.content));
      entry.name = std::string(base_name(path));
      entry.url = std::move(path);
      break;
    }
    case ParserOutput::Kind::File:
    case ParserOutput::Kind::PayloadFile:
    case ParserOutput::Kind::PayloadReformat: {
      const std::string& directory = *current_.directory;
      ensure_directory(directory);
      entry.name = with_output_number(safe_file_name(output.name), output_counter_);
      entry.url = directory + "/" + entry.name;
      const bool verbatim = output.kind == ParserOutput::Kind::PayloadFile;
      if (output.kind != ParserOutput::Kind::File) current_.payload_filename = entry.url;
      if (is_kernel_stack_traces_json(entry.name)) {
        // The companion takes the current number, so the JSON is listed one higher (tlparse
        // quirk); content that is not JSON gets no companion and an empty readable_url.
        entry.readable_url = "";
        if (auto readable = render_kernel_stack_traces_readable(verbatim ? current_.payload : output.content)) {
          entry.readable_url = directory + "/" + readable_companion_name(entry.name);
          files_.write(out_dir_ / *entry.readable_url, std::move(*readable));
          ++output_counter_;
        }
      }
      files_.write(out_dir_ / entry.url, verbatim ? std::string(current_.payload) : std::move(output.content));
      break;
    }
  }
  entry.suffix = std::string(cache_marker(entry.url));
  entry.number = output_counter_++;
  group.entries.push_back(entry);
  return entry.url;
}

void ReportBuilder::run_parsers(const trace::Record& record, CompileGroup& group, const std::string& directory) {
  const auto& rows_by_key = parser_rows_by_key();
  // The record's parser rows in table order (records carry one event key in practice).
  std::vector<int>& rows = parser_rows_scratch_;
  rows.clear();
  for (std::string_view key : record.event_keys) {
    auto event = trace::find_event_key(key);
    if (!event) continue;
    const int row = rows_by_key[static_cast<size_t>(*event)];
    if (row >= 0 && runs_in(kParsers[row].mode, options_.export_mode)) rows.push_back(row);
  }
  std::sort(rows.begin(), rows.end());

  for (int row : rows) {
    const ParserRow& parser = kParsers[row];
    simdjson::dom::element metadata;
    if (record.envelope[parser.key].get(metadata)) continue;
    ParseContext context{record, metadata, parser.key, options_, state_, group, directory, *this};
    try {
      parser.parser(context);
    } catch (const ParserFailure& failure) {
      if (failure.guards_json) {
        ++parser_counters_.fail_dynamo_guards_json;
        diagnose(failure.what());
      } else {
        ++parser_counters_.fail_parser;
        diagnose("Parser " + std::string(parser.key) + " failed: " + failure.what());
      }
    }
    if (context.skip_rest) {
      current_.skip_rest = true;
      return;
    }
  }
}

void ReportBuilder::write_payload_fallback(const trace::Record& record) {
  const std::string name = "payloads/" + safe_file_name(*record.has_payload) + ".txt";
  if (written_payloads_.insert(name).second) {
    ensure_directory("payloads");
    files_.write(out_dir_ / name, std::string(record.payload));
  }
  current_.payload_filename = name;
}

void ReportBuilder::on_record(const trace::Record& record) {
  if (record.rank && !rank_) rank_ = record.rank;
  if (options_.verbose)
    for (std::string_view key : record.unknown_keys) diagnose("Unknown field " + std::string(key));
  CompileGroup& group = group_for(record);
  const std::string directory = record.compile_id.directory(record.line);
  current_ = Current{&group, &directory, record.payload, std::nullopt, false};
  run_parsers(record, group, directory);
  const bool is_chromium = is_chromium_event(record);
  if (!current_.skip_rest) {
    simdjson::dom::element stack;
    if (!options_.export_mode && !record.envelope["stack"].get(stack) && !stack.is_null())
      state_.unknown_stack_trie.insert(decode_stack(stack), std::nullopt);
    if (record.has_payload && !record.payload.empty() && !is_chromium && !current_.payload_filename)
      write_payload_fallback(record);
    if (raw_jsonl_ && !is_chromium && !raw_jsonl_->append(record.envelope, record.prefix, current_.payload_filename))
      ++parser_counters_.fail_key_conflict;
  }
  const std::string_view kind = record_kind(record);
  const RecordBytes bytes = record_bytes(record.prefix.envelope_offset + record.envelope_text.size(),
                                         record.has_payload.has_value(), record.payload);
  bytes_.add(kind, group.display, bytes);
  if (sqlite_) {
    std::optional<std::string_view> payload_path;
    if (current_.payload_filename) payload_path = *current_.payload_filename;
    sqlite_->add({record.line, record.rank, group.display, kind, "ok", record.envelope_text, bytes.payload, payload_path});
  }
  current_ = Current{};
}

void ReportBuilder::on_other_rank(const trace::Record& record) {
  if (raw_jsonl_ && !is_chromium_event(record) && !raw_jsonl_->append(record.envelope, record.prefix, std::nullopt))
    ++parser_counters_.fail_key_conflict;
  const std::string_view kind = record_kind(record);
  const RecordBytes bytes = record_bytes(record.prefix.envelope_offset + record.envelope_text.size(),
                                         record.has_payload.has_value(), record.payload);
  bytes_.add(kind, "(other ranks)", bytes);
  if (sqlite_) {
    const std::string display = group_key(record.compile_id).display();
    sqlite_->add({record.line, record.rank, display, kind, "other_rank", record.envelope_text, bytes.payload, std::nullopt});
  }
}

void ReportBuilder::on_rejected(uint64_t line, const trace::GlogPrefix& prefix, simdjson::dom::object envelope) {
  if (raw_jsonl_ && !raw_jsonl_->append(envelope, prefix, std::nullopt)) ++parser_counters_.fail_key_conflict;
  if (sqlite_) {
    const std::string text = simdjson::minify(envelope);
    sqlite_->add({line, std::nullopt, "", "", "rejected", text, 0, std::nullopt});
  }
}

ReportResult ReportBuilder::finish(const trace::ReadResult& read) {
  ReportResult result;
  result.counters = read.counters;
  result.counters.fail_parser += parser_counters_.fail_parser;
  result.counters.fail_dynamo_guards_json += parser_counters_.fail_dynamo_guards_json;
  result.counters.fail_key_conflict += parser_counters_.fail_key_conflict;
  result.unknown_fields = read.unknown_fields;
  result.rank = rank_;
  result.input_bytes = input_bytes_;
  result.groups = groups_;

  if (options_.export_mode) {
    write_file(out_dir_ / "index.html", render_export_index(state_, groups_, options_));
  } else {
    state_.chromium_events->finish();
    raw_jsonl_->finish(state_.strings);
    write_file(out_dir_ / "compile_directory.json", render_compile_directory(groups_));
    write_file(out_dir_ / "failures_and_restarts.html", render_failures_page(state_.failures));
    state_.break_digest.finish();
    write_file(out_dir_ / kBreakDigestFile, state_.break_digest.to_json().dump(1) + "\n");
    IndexInputs index{state_, groups_, options_, bytes_, input_bytes_};
    write_file(out_dir_ / "index.html", render_index(index));
  }
  if (sqlite_) sqlite_->finish(groups_, state_.strings);
  files_.finish();
  return result;
}

}  // namespace kiln::report
