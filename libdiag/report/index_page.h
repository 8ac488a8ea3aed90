#pragma once
// index.html of a normal-mode report (reference §6.4) plus Kiln's additions: the compile
// timeline, the filter box over build products and the byte tables.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "libdiag/report/byte_accounting.h"
#include "libdiag/report/report.h"
#include "libdiag/report/report_state.h"

namespace kiln::report {

struct IndexInputs {
  const ReportState& state;
  const std::vector<CompileGroup>& groups;
  const ReportOptions& options;
  const ByteAccounting& bytes;
  uint64_t input_bytes;
};

std::string render_index(const IndexInputs& inputs);

// The stack-trie colour of a compile id (§6.5): its metrics, all attempts together.
std::string_view compile_status(const ReportState& state, const trace::CompileId& id);

// The "Build products" list: one item per group, one sub-item per entry.
std::string render_build_products(const std::vector<CompileGroup>& groups);

}  // namespace kiln::report
