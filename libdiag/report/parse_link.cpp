// `link` records (reference §4.4): an index entry pointing at an external URL, no file.
#include "libdiag/report/metadata_fields.h"
#include "libdiag/report/parser.h"

namespace kiln::report {

void parse_link(ParseContext& context) {
  context.emit({ParserOutput::Kind::Link, std::string(string_field(context.metadata, "name").value_or("")), {},
                std::string(string_field(context.metadata, "url").value_or(""))});
}

}  // namespace kiln::report
