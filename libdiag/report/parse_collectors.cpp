// Records that feed the global pages instead of producing files: chromium events (§4.7), queued
// shape events for the next compilation_metrics page (§4.8), and dynamo_start stacks (§4.4).
#include "libdiag/report/metadata_fields.h"
#include "libdiag/report/parser.h"

namespace kiln::report {
namespace {

PendingShapeEvent shape_event(const ParseContext& context) {
  PendingShapeEvent event;
  if (auto stack = element_field(context.metadata, "stack")) event.stack = decode_stack(*stack);
  if (auto stack = element_field(context.metadata, "user_stack")) event.user_stack = decode_stack(*stack);
  return event;
}

}  // namespace

void parse_chromium_event(ParseContext& context) { context.state.chromium_events->append(context.payload()); }

void parse_symbolic_shape_specialization(ParseContext& context) {
  PendingShapeEvent event = shape_event(context);
  event.symbol = std::string(string_field(context.metadata, "symbol").value_or(""));
  event.sources = string_list_field(context.metadata, "sources").value_or(std::vector<std::string>{});
  event.value = std::string(string_field(context.metadata, "value").value_or(""));
  context.state.pending_specializations[context.record.compile_id].push_back(std::move(event));
}

void parse_guard_added_fast(ParseContext& context) {
  PendingShapeEvent event = shape_event(context);
  event.expr = std::string(string_field(context.metadata, "expr").value_or(""));
  context.state.pending_fast_guards[context.record.compile_id].push_back(std::move(event));
}

void parse_dynamo_start(ParseContext& context) {
  auto stack_value = element_field(context.metadata, "stack");
  if (!stack_value) return;
  StackSummary stack = strip_convert_frame_suffix(decode_stack(*stack_value), context.state.strings);
  context.state.stack_trie.insert(stack, context.record.compile_id);
  context.state.dynamo_start_stacks[context.record.compile_id] = std::move(stack);
}

}  // namespace kiln::report
