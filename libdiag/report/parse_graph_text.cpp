// The graph and text dumps whose payload is copied verbatim (reference §4.3, §4.4):
// <key>_N.txt, graph_dump's <name>_N.txt, optimize_ddp_split_child_<name>_N.txt.
#include "libdiag/report/metadata_fields.h"
#include "libdiag/report/parser.h"

namespace kiln::report {

void parse_graph_text(ParseContext& context) {
  context.emit({ParserOutput::Kind::PayloadFile, std::string(context.event_key) + ".txt", {}, {}});
}

void parse_graph_dump(ParseContext& context) {
  const std::string name(string_field(context.metadata, "name").value_or(""));
  context.emit({ParserOutput::Kind::PayloadFile, name + ".txt", {}, {}});
}

void parse_optimize_ddp_split_child(ParseContext& context) {
  const std::string name(string_field(context.metadata, "name").value_or(""));
  context.emit({ParserOutput::Kind::PayloadFile, "optimize_ddp_split_child_" + name + ".txt", {}, {}});
}

void parse_exported_program(ParseContext& context) {
  context.emit({ParserOutput::Kind::PayloadFile, "exported_program.txt", {}, {}});
}

}  // namespace kiln::report
