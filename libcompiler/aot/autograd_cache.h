#pragma once
// PyTorch's AOT autograd cache: what AOT made of a Dynamo graph (the aten graphs and how the
// runtime calls them), kept so that a later compile of the same graph, in this process or
// another, skips tracing and partitioning (the backend's compiler still runs: inductor then hits
// its own FX graph cache). The key covers the Dynamo graph (its structural hash includes the
// inputs' sizes, strides and dtypes), where its inputs come from (as PyTorch's aot_config
// does: two frames with the same ops on different variables miss), the AOT options, grad mode, which inputs require grad or are
// leaves, and Kiln's version. The storage is the backend's (inductor keeps it in its cache
// database). A result whose graphs do not print and read back the same is not kept.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "libcompiler/ir/graph_module.h"
#include "libcompiler/ops/autocast.h"
#include "libdiag/trace/compile_id.h"

namespace kiln::aot {

struct AotCacheStorage {
  // Why the cache cannot be used now (caches disabled, the bisector running), or nothing.
  std::function<std::optional<std::string>()> bypass_reason;
  std::function<std::optional<std::string>(const std::string& key)> load;
  std::function<void(const std::string& key, const std::string& entry)> store;
};

// What AOT hands on to the backend's compiler and the runtime: the inference graph (no
// backward), or the forward/backward pair with what the autograd function needs.
struct AotResult {
  std::shared_ptr<ir::GraphModule> forward;   // or the inference graph
  std::shared_ptr<ir::GraphModule> backward;  // null for inference
  size_t forward_outputs = 0, saved_sizes = 0;
  std::vector<size_t> mutated_inputs;
  std::vector<bool> input_requires_grad, output_requires_grad;
  std::vector<int64_t> output_aliased_input;  // TracedGraph's
};

struct AotCacheKey {
  std::string key;  // "a" and 51 base32-like characters, as PyTorch's keys look
  std::vector<std::string> components;
};

struct AotCacheInputs {
  const ir::GraphModule* dynamo_graph;
  std::vector<std::string> input_sources;  // where Dynamo reads each input: "L['x']"
  std::string options;  // the AOT options that change what is traced, printed
  bool grad_enabled;
  std::vector<bool> input_requires_grad, input_is_leaf;
  // Autocast decides which casts the traced graph holds: a graph traced under it is another entry.
  ops::AutocastStates autocast;
};
AotCacheKey aot_cache_key(const AotCacheInputs& inputs);

// Why a Dynamo graph cannot be cached (PyTorch's check_cacheable refuses higher-order ops such as
// torch.cond, with this text), or nothing.
std::optional<std::string> uncacheable_graph_reason(const ir::GraphModule& dynamo_graph);

// The stored result, or nothing on a miss (an entry that does not read back is a miss).
std::optional<AotResult> aot_cache_load(const AotCacheStorage& storage, const AotCacheKey& key);
// Keeps the result unless its graphs do not round-trip through their printed form.
void aot_cache_store(const AotCacheStorage& storage, const AotCacheKey& key, const AotResult& result);

// The aotautograd_cache_hit / _miss / _bypass trace artifacts.
void report_aot_cache_hit(const AotCacheKey& key, const std::optional<trace::CompileId>& compile_id);
void report_aot_cache_miss(const AotCacheKey& key, const std::optional<trace::CompileId>& compile_id);
void report_aot_cache_bypass(const std::string& reason, const std::optional<trace::CompileId>& compile_id);

}  // namespace kiln::aot
