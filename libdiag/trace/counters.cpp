#include "libdiag/trace/counters.h"

namespace kiln::trace {

std::string Counters::format() const {
  std::string fields;
#define KILN_FORMAT_COUNTER(name)                              \
  if (name > 0) {                                              \
    if (!fields.empty()) fields += ", ";                       \
    fields += #name ": " + std::to_string(name);               \
  }
  KILN_TRACE_COUNTERS(KILN_FORMAT_COUNTER)
#undef KILN_FORMAT_COUNTER
  return fields.empty() ? "Stats { }" : "Stats { " + fields + " }";
}

uint64_t Counters::strict_failures() const {
  return fail_glog + fail_json + fail_payload_md5 + other_rank + fail_dynamo_guards_json + fail_parser + fail_utf8;
}

}  // namespace kiln::trace
