#include "libdiag/reduce/memo.h"

#include <sqlite3.h>

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace kiln::reduce {
namespace {

// Indices are stored as native-endian uint64 words: a memo file is read back on
// the machine that wrote it.
std::vector<uint64_t> to_words(const std::vector<size_t>& kept) { return {kept.begin(), kept.end()}; }

}  // namespace

Memo::Memo(const std::string& path, std::string problem, std::string candidate_scope)
    : problem_(std::move(problem)), scope_(candidate_scope.empty() ? problem_ : std::move(candidate_scope)) {
  if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) {
    std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    throw std::runtime_error("reduce memo " + path + ": " + message);
  }
  // Two reductions sharing a memo (the same command run twice at once) take turns at its lock.
  sqlite3_busy_timeout(db_, 30000);
  // Every outcome is committed at once so that a killed run loses nothing; WAL with NORMAL
  // synchronisation makes those small commits cheap.
  exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
       "CREATE TABLE IF NOT EXISTS tested(problem TEXT NOT NULL, candidate BLOB NOT NULL, outcome INTEGER NOT NULL,"
       " PRIMARY KEY(problem, candidate)) WITHOUT ROWID;"
       "CREATE TABLE IF NOT EXISTS checkpoint(problem TEXT PRIMARY KEY, item_count INTEGER NOT NULL,"
       " kept BLOB NOT NULL, granularity INTEGER NOT NULL);");
  lookup_ = prepare("SELECT outcome FROM tested WHERE problem = ?1 AND candidate = ?2");
  record_ = prepare("INSERT OR REPLACE INTO tested(problem, candidate, outcome) VALUES (?1, ?2, ?3)");
  load_ = prepare("SELECT kept, granularity FROM checkpoint WHERE problem = ?1 AND item_count = ?2");
  save_ = prepare("INSERT OR REPLACE INTO checkpoint(problem, item_count, kept, granularity) VALUES (?1, ?2, ?3, ?4)");
}

Memo::~Memo() {
  for (sqlite3_stmt* statement : {lookup_, record_, load_, save_}) sqlite3_finalize(statement);
  sqlite3_close(db_);
}

void Memo::check(int status, const char* what) {
  if (status != SQLITE_OK && status != SQLITE_ROW && status != SQLITE_DONE)
    throw std::runtime_error(std::string("reduce memo ") + what + ": " + sqlite3_errmsg(db_));
}

void Memo::exec(const char* sql) {
  // Two connections that switch a new database to WAL at once: SQLite answers one of them BUSY
  // at once, past its busy handler. It is tried again for as long as the busy timeout.
  int status = sqlite3_exec(db_, sql, nullptr, nullptr, nullptr);
  for (int waited_ms = 0; (status == SQLITE_BUSY || status == SQLITE_LOCKED) && waited_ms < 30000; waited_ms += 20) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    status = sqlite3_exec(db_, sql, nullptr, nullptr, nullptr);
  }
  check(status, "exec");
}

sqlite3_stmt* Memo::prepare(const char* sql) {
  sqlite3_stmt* statement = nullptr;
  check(sqlite3_prepare_v2(db_, sql, -1, &statement, nullptr), "prepare");
  return statement;
}

std::optional<Outcome> Memo::lookup(const CandidateKey& key) {
  sqlite3_bind_text(lookup_, 1, scope_.data(), int(scope_.size()), SQLITE_STATIC);
  sqlite3_bind_blob(lookup_, 2, key.data(), int(key.size()), SQLITE_STATIC);
  const int status = sqlite3_step(lookup_);
  check(status, "lookup");
  std::optional<Outcome> outcome;
  if (status == SQLITE_ROW) outcome = static_cast<Outcome>(sqlite3_column_int(lookup_, 0));
  sqlite3_reset(lookup_);
  return outcome;
}

void Memo::record(const CandidateKey& key, Outcome outcome) {
  sqlite3_bind_text(record_, 1, scope_.data(), int(scope_.size()), SQLITE_STATIC);
  sqlite3_bind_blob(record_, 2, key.data(), int(key.size()), SQLITE_STATIC);
  sqlite3_bind_int(record_, 3, static_cast<int>(outcome));
  const int status = sqlite3_step(record_);
  sqlite3_reset(record_);
  check(status, "record");
}

std::optional<Checkpoint> Memo::load_checkpoint(size_t item_count) {
  sqlite3_bind_text(load_, 1, problem_.data(), int(problem_.size()), SQLITE_STATIC);
  sqlite3_bind_int64(load_, 2, static_cast<sqlite3_int64>(item_count));
  const int status = sqlite3_step(load_);
  check(status, "load checkpoint");
  std::optional<Checkpoint> checkpoint;
  if (status == SQLITE_ROW) {
    const auto* bytes = static_cast<const unsigned char*>(sqlite3_column_blob(load_, 0));
    const size_t count = size_t(sqlite3_column_bytes(load_, 0)) / sizeof(uint64_t);
    std::vector<uint64_t> words(count);
    if (count) std::memcpy(words.data(), bytes, count * sizeof(uint64_t));
    checkpoint = Checkpoint{{words.begin(), words.end()}, size_t(sqlite3_column_int64(load_, 1))};
  }
  sqlite3_reset(load_);
  return checkpoint;
}

void Memo::save_checkpoint(size_t item_count, const Checkpoint& checkpoint) {
  const std::vector<uint64_t> words = to_words(checkpoint.kept);
  sqlite3_bind_text(save_, 1, problem_.data(), int(problem_.size()), SQLITE_STATIC);
  sqlite3_bind_int64(save_, 2, static_cast<sqlite3_int64>(item_count));
  // A zero-length blob must still be a blob, not NULL, for the empty list.
  sqlite3_bind_blob(save_, 3, words.empty() ? "" : static_cast<const void*>(words.data()),
                    int(words.size() * sizeof(uint64_t)), SQLITE_TRANSIENT);
  sqlite3_bind_int64(save_, 4, static_cast<sqlite3_int64>(checkpoint.granularity));
  const int status = sqlite3_step(save_);
  sqlite3_reset(save_);
  check(status, "save checkpoint");
}

}  // namespace kiln::reduce
