#pragma once
// The per-parse counters tlparse prints as "Stats { ok: 64, fail_payload_md5: 1 }" (reference §8.3).
#include <cstdint>
#include <string>

namespace kiln::trace {

// X(name): in tlparse's print order. fail_utf8 is Kiln's own (tlparse aborts the run instead).
#define KILN_TRACE_COUNTERS(X) \
  X(ok)                        \
  X(other_rank)                \
  X(fail_glog)                 \
  X(fail_json)                 \
  X(fail_payload_md5)          \
  X(fail_dynamo_guards_json)   \
  X(fail_parser)               \
  X(fail_key_conflict)         \
  X(fail_json_serialization)   \
  X(unknown)                   \
  X(fail_utf8)

struct Counters {
#define KILN_DECLARE_COUNTER(name) uint64_t name = 0;
  KILN_TRACE_COUNTERS(KILN_DECLARE_COUNTER)
#undef KILN_DECLARE_COUNTER

  // "Stats { ok: 64, fail_payload_md5: 1 }": only non-zero counters, "Stats { }" if all zero.
  std::string format() const;
  // The counters that make tlparse --strict fail (fail_glog + fail_json + fail_payload_md5 +
  // other_rank + fail_dynamo_guards_json + fail_parser), plus fail_utf8.
  uint64_t strict_failures() const;
};

}  // namespace kiln::trace
