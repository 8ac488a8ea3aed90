#include "libdiag/report/sqlite_export.h"

#include <sqlite3.h>

#include <string>

namespace kiln::report {
namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE records (
  line INTEGER PRIMARY KEY,   -- line of the envelope in the log
  rank INTEGER,
  compile_id TEXT,            -- "[0/0]", "[-/-]", "(unknown)"; NULL for rejected lines
  kind TEXT,                  -- the event key
  status TEXT NOT NULL,       -- ok | other_rank | rejected
  envelope TEXT NOT NULL,     -- the envelope JSON (metadata, ids, has_payload)
  payload_bytes INTEGER NOT NULL,
  payload_path TEXT           -- the report file holding the payload
);
CREATE TABLE artifacts (
  compile_id TEXT NOT NULL,
  number INTEGER NOT NULL,
  name TEXT NOT NULL,
  url TEXT NOT NULL,
  suffix TEXT NOT NULL,
  is_link INTEGER NOT NULL
);
CREATE TABLE strings (idx INTEGER PRIMARY KEY, value TEXT NOT NULL);
)sql";

void bind_text(sqlite3_stmt* statement, int column, std::string_view text) {
  sqlite3_bind_text(statement, column, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
}

}  // namespace

SqliteExport::SqliteExport(const std::filesystem::path& path) {
  std::error_code ignored;
  std::filesystem::remove(path, ignored);
  if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) {
    std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw ReportError("cannot create " + path.string() + ": " + message);
  }
  exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;");
  exec(kSchema);
  exec("BEGIN");
  check(sqlite3_prepare_v2(db_,
                           "INSERT OR REPLACE INTO records(line, rank, compile_id, kind, status, envelope, "
                           "payload_bytes, payload_path) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           -1, &insert_record_, nullptr),
        "prepare");
}

SqliteExport::~SqliteExport() {
  sqlite3_finalize(insert_record_);
  sqlite3_close(db_);
}

void SqliteExport::check(int status, const char* what) {
  if (status != SQLITE_OK && status != SQLITE_DONE && status != SQLITE_ROW)
    throw ReportError(std::string("sqlite ") + what + ": " + sqlite3_errmsg(db_));
}

void SqliteExport::exec(const char* sql) { check(sqlite3_exec(db_, sql, nullptr, nullptr, nullptr), "exec"); }

void SqliteExport::add(const SqliteRecord& record) {
  sqlite3_stmt* s = insert_record_;
  sqlite3_bind_int64(s, 1, static_cast<sqlite3_int64>(record.line));
  if (record.rank) sqlite3_bind_int64(s, 2, *record.rank); else sqlite3_bind_null(s, 2);
  if (record.compile_id.empty()) sqlite3_bind_null(s, 3); else bind_text(s, 3, record.compile_id);
  if (record.kind.empty()) sqlite3_bind_null(s, 4); else bind_text(s, 4, record.kind);
  bind_text(s, 5, record.status);
  bind_text(s, 6, record.envelope);
  sqlite3_bind_int64(s, 7, static_cast<sqlite3_int64>(record.payload_bytes));
  if (record.payload_path) bind_text(s, 8, *record.payload_path); else sqlite3_bind_null(s, 8);
  check(sqlite3_step(s), "insert");
  sqlite3_reset(s);
}

void SqliteExport::finish(const std::vector<CompileGroup>& groups, const StringTable& strings) {
  sqlite3_stmt* artifact = nullptr;
  check(sqlite3_prepare_v2(db_, "INSERT INTO artifacts VALUES (?, ?, ?, ?, ?, ?)", -1, &artifact, nullptr),
        "prepare");
  for (const CompileGroup& group : groups) {
    for (const OutputEntry& entry : group.entries) {
      bind_text(artifact, 1, group.display);
      sqlite3_bind_int64(artifact, 2, static_cast<sqlite3_int64>(entry.number));
      bind_text(artifact, 3, entry.name);
      bind_text(artifact, 4, entry.url);
      bind_text(artifact, 5, entry.suffix);
      sqlite3_bind_int(artifact, 6, entry.is_link ? 1 : 0);
      int status = sqlite3_step(artifact);
      sqlite3_reset(artifact);
      if (status != SQLITE_DONE) {
        sqlite3_finalize(artifact);
        check(status, "insert");
      }
    }
  }
  sqlite3_finalize(artifact);
  sqlite3_stmt* string = nullptr;
  check(sqlite3_prepare_v2(db_, "INSERT INTO strings VALUES (?, ?)", -1, &string, nullptr), "prepare");
  for (const auto& [index, value] : strings.entries()) {
    sqlite3_bind_int64(string, 1, static_cast<sqlite3_int64>(index));
    bind_text(string, 2, value);
    int status = sqlite3_step(string);
    sqlite3_reset(string);
    if (status != SQLITE_DONE) {
      sqlite3_finalize(string);
      check(status, "insert");
    }
  }
  sqlite3_finalize(string);
  exec("COMMIT");
}

}  // namespace kiln::report
