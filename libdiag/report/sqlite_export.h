#pragma once
// --sqlite FILE: every record of the log in an SQLite database, for ad-hoc SQL over a trace
// (which compiles were slowest, which artifacts are largest, ...). One transaction for the whole
// parse; the produced artifacts and the string table are added when the report finishes.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

#include "libdiag/report/report.h"
#include "libdiag/report/stack_frame.h"

struct sqlite3;
struct sqlite3_stmt;

namespace kiln::report {

struct SqliteRecord {
  uint64_t line = 0;
  std::optional<int64_t> rank;
  std::string_view compile_id;  // display form; "" for rejected lines
  std::string_view kind;        // first event key
  std::string_view status;      // "ok", "other_rank" or "rejected"
  std::string_view envelope;    // the envelope JSON as written in the log
  uint64_t payload_bytes = 0;
  std::optional<std::string_view> payload_path;  // relative to the report folder
};

class SqliteExport {
 public:
  // Replaces any existing database at `path`.
  explicit SqliteExport(const std::filesystem::path& path);
  ~SqliteExport();
  SqliteExport(const SqliteExport&) = delete;
  SqliteExport& operator=(const SqliteExport&) = delete;

  void add(const SqliteRecord& record);
  // Adds the artifacts of every group and the string table, and commits.
  void finish(const std::vector<CompileGroup>& groups, const StringTable& strings);

 private:
  void exec(const char* sql);
  void check(int status, const char* what);
  sqlite3* db_ = nullptr;
  sqlite3_stmt* insert_record_ = nullptr;
};

}  // namespace kiln::report
