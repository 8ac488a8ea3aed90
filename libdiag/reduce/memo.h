#pragma once
// The SQLite file of a reduction: the outcome of every candidate tested (so no candidate is ever
// tested twice, within a run or across runs) and the checkpoint of each problem (the smallest
// interesting list so far, so an interrupted run resumes where it stopped). ":memory:" keeps the
// memo for one run only.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libdiag/reduce/candidate_key.h"
#include "libdiag/reduce/outcome.h"

struct sqlite3;
struct sqlite3_stmt;

namespace kiln::reduce {

struct Checkpoint {
  std::vector<size_t> kept;  // indices into the original list, ascending
  size_t granularity = 2;    // ddmin's number of chunks at that point
};

class Memo {
 public:
  // `problem` names what is reduced (e.g. a hash of the input): one file can hold several, each
  // with its checkpoint. `candidate_scope` names the outcomes it sees: the problem's own by
  // default; a scope shared by several problems whose candidate keys name content.
  Memo(const std::string& path, std::string problem, std::string candidate_scope = {});
  ~Memo();
  Memo(const Memo&) = delete;
  Memo& operator=(const Memo&) = delete;

  std::optional<Outcome> lookup(const CandidateKey& key);
  void record(const CandidateKey& key, Outcome outcome);

  // The checkpoint saved for this problem with this item count, if any.
  std::optional<Checkpoint> load_checkpoint(size_t item_count);
  void save_checkpoint(size_t item_count, const Checkpoint& checkpoint);

 private:
  void exec(const char* sql);
  sqlite3_stmt* prepare(const char* sql);
  void check(int status, const char* what);

  std::string problem_;
  std::string scope_;
  sqlite3* db_ = nullptr;
  sqlite3_stmt* lookup_ = nullptr;
  sqlite3_stmt* record_ = nullptr;
  sqlite3_stmt* load_ = nullptr;
  sqlite3_stmt* save_ = nullptr;
};

}  // namespace kiln::reduce
