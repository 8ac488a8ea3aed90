#include "libcompiler/inductor/compile_cache.h"

#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>

#include "kiln_config.h"
#include "libcompiler/aot/build_identity.h"
#include "libcompiler/inductor/codegen/kernel_backend.h"
#include "libcompiler/ir/structural_hash.h"
#include "libdiag/bisect/subsystem_switch.h"

namespace kiln::inductor {

namespace fs = std::filesystem;

namespace {

class Database {
 public:
  // A usable database handle for the cache file, or null when the cache cannot be used. The
  // database is opened once per cache folder: a script may point TORCHINDUCTOR_CACHE_DIR elsewhere
  // after torch.compile opened it.
  sqlite3* handle() {
    std::lock_guard lock(mutex_);
    const fs::path dir = cache_dir();
    if (dir != dir_) {
      close();
      failed_ = false;
      dir_ = dir;
    }
    if (db_ || failed_) return db_;
    std::error_code ec;
    fs::create_directories(dir, ec);
    const fs::path file = dir / "fx_graph_cache.sqlite3";
    int status = open(file);
    // A database of an earlier layout (its tables without the digest column) is started over too.
    if (status == SQLITE_NOTADB || status == SQLITE_CORRUPT || status == SQLITE_ERROR) {
      // Not a database, or damaged: start over. Only then: other processes may have the file
      // open (its WAL index mapped), and removing a sound database under them would crash them.
      fs::remove(file, ec);
      fs::remove(file.string() + "-wal", ec);
      fs::remove(file.string() + "-shm", ec);
      status = open(file);
    }
    // Anything else (the database busy past the timeout, a folder that cannot be written):
    // this process compiles without the cache.
    if (status != SQLITE_OK) failed_ = true;
    return db_;
  }

 private:
  // SQLITE_OK with db_ open, or the error (db_ closed).
  int open(const fs::path& file) {
    int status = sqlite3_open(file.c_str(), &db_);
    if (status == SQLITE_OK) {
      sqlite3_busy_timeout(db_, 10000);
      const char* schema =
          "PRAGMA journal_mode=WAL;"
          "CREATE TABLE IF NOT EXISTS fx_graph (key TEXT PRIMARY KEY, object BLOB NOT NULL, kernels TEXT NOT NULL,"
          " digest TEXT NOT NULL);"
          "CREATE TABLE IF NOT EXISTS aot_autograd (key TEXT PRIMARY KEY, entry TEXT NOT NULL, digest TEXT NOT NULL);"
          "SELECT count(*) FROM fx_graph; SELECT digest FROM fx_graph LIMIT 1; SELECT digest FROM aot_autograd LIMIT 1;";
      status = sqlite3_exec(db_, schema, nullptr, nullptr, nullptr);
    }
    if (status != SQLITE_OK) close();
    return status;
  }
  void close() {
    sqlite3_close(db_);
    db_ = nullptr;
  }

  std::mutex mutex_;
  fs::path dir_;
  sqlite3* db_ = nullptr;
  bool failed_ = false;
};

// Never destroyed: the warm-up thread may still be opening it while the process exits.
Database& database() {
  static Database* db = new Database;
  return *db;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : "\n") + s;
  return out;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size() && !text.empty()) {
    const size_t end = text.find('\n', start);
    out.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

}  // namespace

const char* cache_outcome_name(CacheOutcome outcome) {
  switch (outcome) {
    case CacheOutcome::Hit: return "hit";
    case CacheOutcome::Miss: return "miss";
    case CacheOutcome::Bypass: return "bypass";
  }
  return "";
}

std::string cache_dir() {
  if (const char* dir = std::getenv("TORCHINDUCTOR_CACHE_DIR"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return (fs::path(xdg) / "kiln" / "inductor").string();
  if (const char* home = std::getenv("HOME"); home && *home) return (fs::path(home) / ".cache" / "kiln" / "inductor").string();
  return (fs::temp_directory_path() / "kiln_inductor").string();
}

bool cache_enabled() {
  const char* off = std::getenv("TORCHINDUCTOR_FORCE_DISABLE_CACHES");
  return !(off && std::string(off) == "1");
}

std::optional<std::string> higher_order_cache_bypass_reason(const ir::GraphModule& module) {
  for (const ir::Node* node : module.graph.nodes())
    if (node->targetNamespace() == ir::TargetNamespace::HigherOrder)
      return "Can't cache HigherOrderOperator: " + std::string(node->targetName());
  return std::nullopt;
}

std::optional<std::string> cache_bypass_reason() {
  if (!cache_enabled()) return "caches are disabled (TORCHINDUCTOR_FORCE_DISABLE_CACHES=1)";
  if (!bisect::bisected_subsystem("inductor").empty()) return "the compiler bisector is running";
  return std::nullopt;
}

CacheKey cache_key(const ir::GraphModule& module, const InductorConfig& config, const KernelBackend& backend) {
  CacheKey key;
  // The graph's hash covers its symbolic sizes (f32[s0, 3]), not the sizes of the call that
  // compiled it: one entry serves every size of a dynamic graph. The build is part of the key, so
  // that object code of another build (another kernel calling convention) is never linked.
  key.components = {"gm: " + ir::structuralHash(module), "inductor_config: " + config.key(),
                    std::string("kiln_version: ") + KILN_VERSION, "kiln_build: " + aot::build_identity(),
                    "host_target: " + backend.target()};
  key.key = "f" + ir::sha256Hex(join(key.components)).substr(0, 51);
  return key;
}

// What a row holds, bound to the key it was stored under: a row whose contents were stored under
// another key (rows swapped, edited or damaged) does not match its digest and is a miss.
std::string row_digest(const std::string& key, const std::string& content, const std::string& more = "") {
  return ir::sha256Hex(key + '\0' + content + '\0' + more);
}

void open_cache() {
  if (cache_enabled()) database().handle();
}

std::optional<CacheEntry> cache_lookup(const CacheKey& key) {
  sqlite3* db = database().handle();
  if (!db) return std::nullopt;
  sqlite3_stmt* stmt = nullptr;
  std::optional<CacheEntry> entry;
  if (sqlite3_prepare_v2(db, "SELECT object, kernels, digest FROM fx_graph WHERE key = ?", -1, &stmt, nullptr) != SQLITE_OK)
    return std::nullopt;
  sqlite3_bind_text(stmt, 1, key.key.c_str(), -1, SQLITE_TRANSIENT);
  if (sqlite3_step(stmt) == SQLITE_ROW) {
    CacheEntry e;
    const auto* blob = static_cast<const char*>(sqlite3_column_blob(stmt, 0));
    e.object_code.assign(blob ? blob : "", static_cast<size_t>(sqlite3_column_bytes(stmt, 0)));
    const auto* kernels = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 1));
    const auto* digest = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 2));
    e.kernel_names = split_lines(kernels ? kernels : "");
    if (digest && row_digest(key.key, e.object_code, kernels ? kernels : "") == digest) entry = std::move(e);
  }
  sqlite3_finalize(stmt);
  return entry;
}

void cache_store(const CacheKey& key, const CacheEntry& entry) {
  sqlite3* db = database().handle();
  if (!db) return;
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO fx_graph (key, object, kernels, digest) VALUES (?, ?, ?, ?)", -1, &stmt,
                         nullptr) != SQLITE_OK)
    return;
  const std::string kernels = join(entry.kernel_names);
  const std::string digest = row_digest(key.key, entry.object_code, kernels);
  sqlite3_bind_text(stmt, 1, key.key.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_blob(stmt, 2, entry.object_code.data(), static_cast<int>(entry.object_code.size()), SQLITE_TRANSIENT);
  sqlite3_bind_text(stmt, 3, kernels.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(stmt, 4, digest.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_step(stmt);
  sqlite3_finalize(stmt);
}

aot::AotCacheStorage aot_autograd_cache() {
  aot::AotCacheStorage storage;
  storage.bypass_reason = cache_bypass_reason;
  storage.load = [](const std::string& key) -> std::optional<std::string> {
    sqlite3* db = database().handle();
    sqlite3_stmt* stmt = nullptr;
    if (!db || sqlite3_prepare_v2(db, "SELECT entry, digest FROM aot_autograd WHERE key = ?", -1, &stmt, nullptr) != SQLITE_OK)
      return std::nullopt;
    sqlite3_bind_text(stmt, 1, key.c_str(), -1, SQLITE_TRANSIENT);
    std::optional<std::string> entry;
    if (sqlite3_step(stmt) == SQLITE_ROW) {
      const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
      const auto* digest = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 1));
      if (text && digest && row_digest(key, text) == digest) entry = text;
    }
    sqlite3_finalize(stmt);
    return entry;
  };
  storage.store = [](const std::string& key, const std::string& entry) {
    sqlite3* db = database().handle();
    sqlite3_stmt* stmt = nullptr;
    if (!db ||
        sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO aot_autograd (key, entry, digest) VALUES (?, ?, ?)", -1, &stmt, nullptr) != SQLITE_OK)
      return;
    const std::string digest = row_digest(key, entry);
    sqlite3_bind_text(stmt, 1, key.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(stmt, 2, entry.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(stmt, 3, digest.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_step(stmt);
    sqlite3_finalize(stmt);
  };
  return storage;
}

}  // namespace kiln::inductor
