// `artifact` records (reference §4.6): string payloads copied to <name>_N.txt, json payloads
// re-serialised (sorted keys, two-space indent) to <name>_N.json. Graph-break and recompile
// reasons also feed the report's digest (break_digest.h).
#include "libdiag/report/artifact_kind.h"
#include "libdiag/report/metadata_fields.h"
#include "libdiag/report/parser.h"
#include "libdiag/report/sorted_json.h"
#include "libdiag/trace/json_parse.h"

namespace kiln::report {

namespace {

void add_to_digest(ParseContext& context, std::string_view name) {
  const auto kind = find_artifact_kind(name);
  if (kind == ArtifactKind::dynamo_graph_break_reason)
    context.state.break_digest.add_graph_break(context.record.compile_id, context.payload());
  else if (kind == ArtifactKind::recompile_reasons)
    context.state.break_digest.add_recompile_reasons(context.record.compile_id, context.payload());
}

}  // namespace

void parse_artifact(ParseContext& context) {
  const std::string name(string_field(context.metadata, "name").value_or(""));
  add_to_digest(context, name);
  const std::string_view encoding = string_field(context.metadata, "encoding").value_or("");
  if (encoding == "string") {
    context.emit({ParserOutput::Kind::PayloadFile, name + ".txt", {}, {}});
    return;
  }
  if (encoding != "json") throw ParserFailure("Unsupported encoding: " + std::string(encoding));
  const std::string_view payload = context.payload();
  simdjson::dom::element value;
  std::string pretty;
  if (trace::parse_json(context.state.payload_parser, payload).get(value))
    pretty = payload;  // not JSON: kept as written
  else
    append_sorted_json(pretty, value, /*pretty=*/true);
  context.emit({ParserOutput::Kind::PayloadReformat, name + ".json", std::move(pretty), {}});
}

}  // namespace kiln::report
