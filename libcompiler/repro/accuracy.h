#pragma once
// PyTorch's accuracy rules (torch._dynamo.utils.same, debug_tools.md §3.2): whether a compiled
// result `res` is acceptably close to the eager result `ref`, judged against a float64 reference
// `fp64_ref` of the same computation. A tensor passes when allclose(ref, res, tol, tol); failing
// that, when res is not much further from fp64_ref than ref is:
//   RMSE(fp64_ref, res) <= multiplier * RMSE(fp64_ref, ref) + tol / 10
// with multiplier 2 (3 for fp16/bf16 results, for tensors of fewer than 1000 elements, for 4-D
// tensors whose last two sizes are 1, and for tol >= 0.02; 8 or 10 for small tensors on request).
// Cosine mode instead asks for a cosine similarity of at least 0.99.
#include <functional>
#include <string>
#include <vector>

#include "libcompiler/ops/ivalue.h"

namespace kiln::repro {

struct SameOptions {
  double tol = 1e-4;
  bool cos_similarity = false;
  bool equal_nan = false;
  bool exact_dtype = true;
  bool ignore_non_fp = false;  // integer, bool and non-tensor values always pass
  bool use_larger_multiplier_for_smaller_tensor = false;
  bool force_max_multiplier = false;
};

// Where same() says why something failed: PyTorch's log.error lines ("RMSE (res-fp64): ...")
// and log.warning lines ("Similarity score=..."). The default writes them to the torch._dynamo
// log as PyTorch does (torch/_dynamo/utils.py).
struct SameLog {
  std::function<void(const std::string&)> error;
  std::function<void(const std::string&)> warning;
  static SameLog to_dynamo_log();
};

// One value: a tensor, a Python number (a float is a 0-d tensor), None, a bool or a string.
// fp64_ref is ref itself when it has no float64 counterpart.
bool same(const ops::IValue& ref, const ops::IValue& res, const ops::IValue& fp64_ref, const SameOptions& options,
          const SameLog& log = SameLog::to_dynamo_log());
// A flat output list, element by element ("Length mismatch" when the lengths differ).
bool same(const std::vector<ops::IValue>& ref, const std::vector<ops::IValue>& res, const std::vector<ops::IValue>& fp64_ref,
          const SameOptions& options, const SameLog& log = SameLog::to_dynamo_log());

// sqrt(mean((a - b)^2)) in float64: PyTorch's rmse.
double rmse(const ops::Tensor& a, const ops::Tensor& b);
// The multiplier of the RMSE rule for a result of this dtype and size (see above).
double rmse_multiplier(const ops::Tensor& ref, const ops::Tensor& res, size_t fp64_numel, const SameOptions& options);

}  // namespace kiln::repro
