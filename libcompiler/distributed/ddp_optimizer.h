#pragma once
// Dynamo's DDPOptimizer (torch._dynamo.config.optimize_ddp): a graph captured while a
// DistributedDataParallel forward runs is split where DDP's gradient buckets end, and each part
// is compiled by the backend on its own (its own AOT forward and backward), so that a bucket's
// all-reduce can start as soon as the backward of its part has run instead of after the whole
// graph's backward. Buckets are counted as DDP fills them: parameter bytes in reverse graph
// order, the first bucket closing at 1 MB (DDP's _DEFAULT_FIRST_BUCKET_BYTES), the others at the
// module's bucket_cap_mb.
#include <cstdint>
#include <string>
#include <vector>

#include "libcompiler/fx/backend_registry.h"

namespace kiln::distributed {

struct DdpBucket {
  int64_t size = 0;                     // bytes of the parameters counted in it
  std::vector<std::string> params;      // their placeholder (or attribute) names
  std::vector<const ir::Node*> nodes;   // in reverse graph order
  // Nodes taken in past the capacity so that the bucket has a value used outside it (a split
  // part must return something).
  int64_t opcount_increased_to_capture_external_output = 0;
  int64_t paramsize_before_opcount_increase = 0;
};

// The buckets of `module` (Dynamo's graph; `example_inputs` per placeholder tell its
// parameters), the first bucket holding the graph's first nodes.
std::vector<DdpBucket> ddp_buckets(const ir::GraphModule& module, const std::vector<python::Ref>& example_inputs,
                                   int64_t bucket_bytes_cap, int64_t first_bucket_cap);

// `inner` behind the split: one bucket compiles the graph whole.
fx::Backend ddp_optimizer(fx::Backend inner, int64_t bucket_bytes_cap, int64_t first_bucket_cap);

// Splits the graphs compiled while a DistributedDataParallel forward runs (fx::set_backend_splitter).
void install_ddp_optimizer();

}  // namespace kiln::distributed
