#pragma once
// The per-envelope-key parsers of the report (DESIGN.md §8: each envelope key has one small parser
// that returns output files; adding an event kind is adding one parser). The table of parsers,
// in the order tlparse runs its handlers, is parsers.def.
#include <stdexcept>
#include <string>
#include <string_view>

#include <simdjson.h>

#include "libdiag/report/report.h"
#include "libdiag/report/report_state.h"
#include "libdiag/trace/trace_reader.h"

namespace kiln::report {

// One thing a parser produces (tlparse's ParserOutput).
struct ParserOutput {
  enum class Kind {
    File,             // `content` into <compile dir>/<name>, numbered; the payload still falls back
    PayloadFile,      // the payload verbatim into <compile dir>/<name>, numbered
    PayloadReformat,  // `content` derived from the payload into <compile dir>/<name>, numbered
    GlobalFile,       // `content` at <output root>/<name>; consumes a number, keeps its name
    Link,             // an index entry `name` -> `url`; consumes a number, no file
  };
  Kind kind = Kind::File;
  std::string name;
  std::string content;
  std::string url;
};

// A parser's failure: printed as `message`, counted fail_parser (or fail_dynamo_guards_json).
class ParserFailure : public std::runtime_error {
 public:
  explicit ParserFailure(const std::string& message, bool guards_json = false)
      : std::runtime_error(message), guards_json(guards_json) {}
  bool guards_json;
};

// Where parser outputs go: the report builder writes each one as soon as it is emitted.
class OutputSink {
 public:
  virtual ~OutputSink() = default;
  // Writes `output` now and returns its URL (relative to the report folder, or the link's URL).
  virtual std::string emit(ParserOutput output) = 0;
};

struct ParseContext {
  const trace::Record& record;
  simdjson::dom::element metadata;  // the value of the parser's event key
  std::string_view event_key;
  const ReportOptions& options;
  ReportState& state;
  const CompileGroup& group;          // the record's group, with the entries produced so far
  const std::string& compile_directory;  // directory of the record's raw compile id
  OutputSink& sink;
  bool skip_rest = false;  // set to drop the rest of this record's processing (export guard_added)

  std::string_view payload() const { return record.payload; }
  std::string emit(ParserOutput output) { return sink.emit(std::move(output)); }
};

using Parser = void (*)(ParseContext& context);

// Which report mode runs a parser.
enum class ParserMode { Normal, Export, Both };

#define KILN_REPORT_PARSER(key, function, mode) void function(ParseContext& context);
#include "libdiag/report/parsers.def"
#undef KILN_REPORT_PARSER

}  // namespace kiln::report
