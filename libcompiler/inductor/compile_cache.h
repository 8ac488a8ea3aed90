#pragma once
// Inductor's FX graph cache: compiled kernels kept in SQLite under TORCHINDUCTOR_CACHE_DIR
// (default: the user's cache folder, $XDG_CACHE_HOME or ~/.cache, /kiln/inductor), keyed by the
// graph's structural hash (which covers the input sizes, strides and dtypes), the inductor
// configuration, Kiln's version and the host CPU the object code was compiled for. An entry
// holds the kernels' object file and names; a hit re-runs lowering and scheduling (well under a
// millisecond) and links the object, skipping LLVM. Several processes may use one cache at once
// (WAL journal, busy timeout); a cache file that is not a database, or a damaged one, is removed
// and rebuilt; a cache that cannot be used at all is skipped (compiles still work).
#include <optional>
#include <string>
#include <vector>

#include "libcompiler/aot/autograd_cache.h"
#include "libcompiler/inductor/inductor_config.h"
#include "libcompiler/ir/graph_module.h"

namespace kiln::inductor {

struct CacheEntry {
  std::string object_code;
  std::vector<std::string> kernel_names;
};

struct CacheKey {
  std::string key;  // 52 lowercase base32-like characters, as PyTorch's keys look
  std::vector<std::string> components;  // what went into it, for the fx_graph_cache_* artifact
};

// What became of a compile's cache lookup: the fx_graph_cache_hit / _miss / _bypass artifacts.
// max-autotune compiles bypass the cache (their kernel choice is made when they first run), and so
// do compiles while the compiler bisector runs (the same graph then generates other code).
enum class CacheOutcome { Hit, Miss, Bypass };
const char* cache_outcome_name(CacheOutcome outcome);  // "hit", "miss", "bypass"

class KernelBackend;
// The key of a graph compiled by `backend` (whose target is part of it).
CacheKey cache_key(const ir::GraphModule& module, const InductorConfig& config, const KernelBackend& backend);

// The cache folder; TORCHINDUCTOR_CACHE_DIR when set.
std::string cache_dir();

// TORCHINDUCTOR_FORCE_DISABLE_CACHES=1 turns the cache off.
bool cache_enabled();

// Why compiles may not use the caches now, or nothing: they are disabled, or the compiler
// bisector runs (the same graph then generates other code, and each application must be counted).
std::optional<std::string> cache_bypass_reason();

// Why a graph may not be cached at all (PyTorch's FX graph cache refuses higher-order ops: "Can't
// cache HigherOrderOperator: cond"), or nothing.
std::optional<std::string> higher_order_cache_bypass_reason(const ir::GraphModule& module);

// Opens (or rebuilds) the cache database now rather than at the first lookup.
void open_cache();

std::optional<CacheEntry> cache_lookup(const CacheKey& key);
void cache_store(const CacheKey& key, const CacheEntry& entry);

// The AOT autograd cache, kept in the same database.
aot::AotCacheStorage aot_autograd_cache();

}  // namespace kiln::inductor
