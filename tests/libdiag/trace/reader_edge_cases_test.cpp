// The reader on the edge cases of reference trace_format.md §9, with small hand-made logs from
// testdata/traces/: exact counters, diagnostics and their line numbers.
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "tests/libdiag/trace/collecting_visitor.h"
#include "tests/support/shared_data.h"

namespace kiln::trace {
namespace {

using test::CollectingVisitor;
using Lines = std::vector<uint64_t>;

ReadResult read_testdata(const std::string& name, CollectingVisitor& visitor) {
  TraceReader reader(visitor);
  return reader.read_file(kiln::test::testdataPath("traces/" + name));
}

ReadResult read_text(const std::string& text, CollectingVisitor& visitor) {
  std::istringstream input(text);
  TraceReader reader(visitor);
  return reader.read(input);
}

constexpr const char* kGlog = "Failed to parse glog prefix on line ";
constexpr const char* kMetadata = "Failed to parse metadata JSON: \n";
constexpr const char* kRawJsonl = "Failed to parse JSON envelope for raw.jsonl: ";
constexpr const char* kNotObject = "JSON payload is not an object, dropping line from raw.jsonl";

TEST(ReaderEdgeCases, LinesWithoutPrefixFailTheGlogMatch) {
  CollectingVisitor visitor;
  const ReadResult result = read_testdata("bad_prefix.log", visitor);
  EXPECT_EQ(result.counters.format(), "Stats { ok: 3, fail_glog: 6 }");
  EXPECT_EQ(visitor.lines_of(kGlog), (Lines{2, 4, 5, 6, 7, 8}));
  EXPECT_EQ(visitor.diagnostics.front().message, "Failed to parse glog prefix on line 2");
  ASSERT_EQ(visitor.records.size(), 3u);
  // Text before the prefix is allowed: the search is unanchored.
  EXPECT_EQ(visitor.records[1].line, 3u);
  EXPECT_EQ(visitor.records[1].event_keys, std::vector<std::string>{"chromium_event"});
  // "1500233:9]": the process id gives its last digit to the path, which must not be empty.
  EXPECT_EQ(visitor.records[2].thread, 150023u);
  EXPECT_EQ(visitor.records[2].pathname, "3");
  EXPECT_EQ(visitor.records[2].lineno, 9u);
  EXPECT_EQ(visitor.records[0].pathname, " torch/_dynamo/utils.py");
}

TEST(ReaderEdgeCases, BrokenJsonCountsTwiceAndItsPayloadLinesFailTheGlogMatch) {
  CollectingVisitor visitor;
  const ReadResult result = read_testdata("broken_json.log", visitor);
  EXPECT_EQ(result.counters.format(), "Stats { ok: 1, fail_glog: 2, fail_json: 2 }");
  EXPECT_EQ(visitor.lines_of(kMetadata), Lines{1});
  EXPECT_EQ(visitor.lines_of(kRawJsonl), Lines{1});
  EXPECT_EQ(visitor.lines_of(kGlog), (Lines{2, 3}));
  EXPECT_TRUE(visitor.diagnostics.front().message.ends_with(" on line 1")) << visitor.diagnostics.front().message;
  EXPECT_TRUE(visitor.rejected.empty());  // not JSON at all: nothing for raw.jsonl
}

TEST(ReaderEdgeCases, JsonThatIsNotAnObjectCountsTwice) {
  CollectingVisitor visitor;
  const ReadResult result = read_testdata("non_object.log", visitor);
  EXPECT_EQ(result.counters.format(), "Stats { fail_json: 6 }");
  EXPECT_EQ(visitor.lines_of(kNotObject), (Lines{1, 2, 3}));
  EXPECT_EQ(visitor.lines_of(kMetadata), (Lines{1, 2, 3}));
  EXPECT_TRUE(visitor.rejected.empty());
}

TEST(ReaderEdgeCases, KnownKeysThatDoNotFitTheirSchemaRejectTheLineOnce) {
  CollectingVisitor visitor;
  const ReadResult result = read_testdata("schema_mismatch.log", visitor);
  EXPECT_EQ(result.counters.format(), "Stats { ok: 3, fail_glog: 1, fail_json: 6, unknown: 4 }");
  // describe_tensor without describer_id, artifact name 5, a 3-element str, rank "zero", a
  // duplicated event key, a frame without filename.
  EXPECT_EQ(visitor.rejected, (Lines{1, 3, 4, 5, 6, 7}));
  EXPECT_EQ(visitor.lines_of(kMetadata), (Lines{1, 3, 4, 5, 6, 7}));
  EXPECT_TRUE(visitor.lines_of(kRawJsonl).empty());
  EXPECT_EQ(visitor.lines_of(kGlog), Lines{2});  // the rejected line's payload
  EXPECT_NE(visitor.diagnostics.front().message.find("missing field `describer_id`"), std::string::npos)
      << visitor.diagnostics.front().message;
  ASSERT_EQ(visitor.records.size(), 3u);
  // A malformed id makes the record "(unknown)"; the id keys after it are unknown fields.
  EXPECT_TRUE(visitor.records[0].compile_id.malformed);
  EXPECT_EQ(visitor.records[0].compile_id.display(), "(unknown)");
  EXPECT_EQ(visitor.records[0].compile_id.directory(8), "unknown_8");
  EXPECT_EQ(visitor.records[0].unknown_keys, (std::vector<std::string>{"frame_compile_id", "attempt"}));
  // A null event key is an absent one.
  EXPECT_TRUE(visitor.records[1].event_keys.empty());
  EXPECT_EQ(visitor.records[1].compile_id.display(), "[1/2]");
  EXPECT_EQ(visitor.records[1].compile_id.directory(9), "-_1_2_-");
  // A plain struct may be written as an array; a repeated unknown key counts once.
  EXPECT_EQ(visitor.records[2].event_keys,
            (std::vector<std::string>{"describe_storage", "my_custom_key", "compilation_metrics_runtime"}));
  EXPECT_EQ(result.unknown_fields,
            (std::set<std::string>{"attempt", "compilation_metrics_runtime", "frame_compile_id", "my_custom_key"}));
}

TEST(ReaderEdgeCases, HasPayloadWithoutTabLinesIsAnEmptyPayload) {
  CollectingVisitor visitor;
  const ReadResult result = read_testdata("has_payload_no_tab.log", visitor);
  EXPECT_EQ(result.counters.format(), "Stats { ok: 3, fail_payload_md5: 1 }");
  ASSERT_EQ(visitor.records.size(), 3u);
  EXPECT_EQ(visitor.records[0].payload, "");
  EXPECT_TRUE(visitor.records[0].payload_md5_ok);  // md5 of the empty string
  EXPECT_FALSE(visitor.records[1].payload_md5_ok);
  EXPECT_FALSE(visitor.records[2].has_payload);
}

TEST(ReaderEdgeCases, Md5MustBeTheLowercaseHexOfThePayload) {
  CollectingVisitor visitor;
  const ReadResult result = read_testdata("md5_mismatch.log", visitor);
  EXPECT_EQ(result.counters.format(), "Stats { ok: 5, fail_payload_md5: 4 }");
  ASSERT_EQ(visitor.records.size(), 5u);
  const std::vector<bool> ok = {visitor.records[0].payload_md5_ok, visitor.records[1].payload_md5_ok,
                                visitor.records[2].payload_md5_ok, visitor.records[3].payload_md5_ok,
                                visitor.records[4].payload_md5_ok};
  // exact, altered payload, uppercase hex, not hex, a 30-digit prefix
  EXPECT_EQ(ok, (std::vector<bool>{true, false, false, false, false}));
  EXPECT_EQ(visitor.records[1].payload, "graph():\n    return x!");  // processing goes on with the text read
  EXPECT_EQ((Lines{visitor.records[0].line, visitor.records[4].line}), (Lines{1, 13}));
}

TEST(ReaderEdgeCases, FirstRankSeenFiltersLaterRecords) {
  CollectingVisitor visitor;
  const ReadResult result = read_testdata("other_rank.log", visitor);
  EXPECT_EQ(result.counters.format(), "Stats { ok: 3, other_rank: 2 }");
  EXPECT_EQ(visitor.lines_of("Detected rank: Some(0)"), Lines{2});
  std::vector<std::pair<uint64_t, bool>> seen;
  for (const auto& record : visitor.records) seen.emplace_back(record.line, record.other_rank);
  // line 3 has rank 1, line 5 has none; the str record on line 4 takes no part.
  EXPECT_EQ(seen, (std::vector<std::pair<uint64_t, bool>>{{1, false}, {2, false}, {3, true}, {5, true}, {6, false}}));
  EXPECT_EQ(result.string_table.at(0), "/a.py");
}

TEST(ReaderEdgeCases, InvalidUtf8LinesAreSkippedCountedAndReported) {
  CollectingVisitor visitor;
  const ReadResult result = read_testdata("invalid_utf8.log", visitor);
  EXPECT_EQ(result.counters.format(), "Stats { ok: 2, fail_utf8: 3 }");
  EXPECT_EQ(visitor.lines_of("line "), (Lines{1, 4, 6}));
  EXPECT_EQ(visitor.diagnostics.front().message, "line 1: invalid UTF-8");
  ASSERT_EQ(visitor.records.size(), 2u);
  // A skipped line inside a payload does not end it (tlparse's line iterator drops it).
  EXPECT_EQ(visitor.records[0].payload, "one\nthree");
  EXPECT_TRUE(visitor.records[0].payload_md5_ok);
  EXPECT_EQ(result.counters.strict_failures(), 3u);
}

TEST(ReaderEdgeCases, CrlfLineEndingsAreAccepted) {
  CollectingVisitor visitor;
  const ReadResult result = read_testdata("crlf.log", visitor);
  EXPECT_EQ(result.counters.format(), "Stats { ok: 2 }");
  ASSERT_EQ(visitor.records.size(), 2u);
  EXPECT_EQ(visitor.records[0].payload, "first\n\nthird");
  EXPECT_TRUE(visitor.records[0].payload_md5_ok);
  EXPECT_EQ(visitor.records[1].line, 6u);
  EXPECT_EQ(result.lines, 6u);
}

TEST(ReaderEdgeCases, BlankLinesAreSkippedEvenInsidePayloads) {
  CollectingVisitor visitor;
  const ReadResult result = read_testdata("blank_lines.log", visitor);
  EXPECT_EQ(result.counters.format(), "Stats { ok: 2, fail_glog: 2 }");
  ASSERT_EQ(visitor.records.size(), 2u);
  EXPECT_EQ(visitor.records[0].line, 2u);
  EXPECT_EQ(visitor.records[0].payload, "a\nb");
  EXPECT_TRUE(visitor.records[0].payload_md5_ok);
  // A str record consumes no payload lines, so its tab lines fail the prefix match.
  EXPECT_EQ(visitor.lines_of(kGlog), (Lines{8, 9}));
  EXPECT_EQ(visitor.strings, (std::vector<std::pair<uint64_t, std::string>>{{0, "/a.py"}}));
}

TEST(ReaderEdgeCases, TruncatedLastLines) {
  CollectingVisitor cut_envelope;
  EXPECT_EQ(read_testdata("truncated_last_line.log", cut_envelope).counters.format(),
            "Stats { ok: 1, fail_json: 2 }");
  EXPECT_EQ(cut_envelope.lines_of(kMetadata), Lines{2});
  CollectingVisitor cut_payload;
  EXPECT_EQ(read_testdata("truncated_payload_end.log", cut_payload).counters.format(), "Stats { ok: 1 }");
  ASSERT_EQ(cut_payload.records.size(), 1u);
  EXPECT_EQ(cut_payload.records[0].payload, "x = 1\ny = 2");
}

TEST(ReaderEdgeCases, EmptyFile) {
  CollectingVisitor visitor;
  const ReadResult result = read_testdata("empty.log", visitor);
  EXPECT_EQ(result.counters.format(), "Stats { }");
  EXPECT_EQ(result.bytes, 0u);
  EXPECT_EQ(result.lines, 0u);
  EXPECT_TRUE(visitor.diagnostics.empty());
}

TEST(ReaderEdgeCases, BinaryGarbage) {
  CollectingVisitor visitor;
  const ReadResult result = read_testdata("binary_garbage.log", visitor);
  EXPECT_EQ(result.counters.format(), "Stats { ok: 1, fail_glog: 2, fail_json: 2, fail_utf8: 3 }");
  EXPECT_EQ(visitor.lines_of("line "), (Lines{3, 5, 7}));
  EXPECT_EQ(visitor.lines_of(kGlog), (Lines{1, 4}));
  EXPECT_EQ(visitor.lines_of(kMetadata), Lines{2});
  ASSERT_EQ(visitor.records.size(), 1u);
  EXPECT_EQ(visitor.records[0].line, 6u);  // the separator before the fraction may be any character
}

TEST(ReaderEdgeCases, TenMegabyteLines) {
  const std::string huge(10 << 20, 'x');
  const std::string prefix = "V1206 15:18:21.230000 1500233 torch/_dynamo/utils.py:1] ";
  const std::string big_envelope = R"({"chromium_event": {}, "big": ")" + huge + "\"}";
  CollectingVisitor visitor;
  const ReadResult result =
      read_text(prefix + big_envelope + "\n" + huge + "\n" + prefix + R"({"chromium_event": {}})", visitor);
  EXPECT_EQ(result.counters.format(), "Stats { ok: 2, fail_glog: 1, unknown: 1 }");
  EXPECT_EQ(visitor.lines_of(kGlog), Lines{2});
  ASSERT_EQ(visitor.records.size(), 2u);
  EXPECT_EQ(visitor.records[0].envelope_text, big_envelope);
  EXPECT_EQ(visitor.records[1].line, 3u);
  EXPECT_FALSE(visitor.progress.empty());
}

TEST(ReaderEdgeCases, NestingDeeperThanSerdeAllowsIsBrokenJson) {
  const std::string prefix = "V1206 15:18:21.230000 1500233 torch/_dynamo/utils.py:1] ";
  auto nested = [](int depth) {
    // The envelope object is one level; the unknown key holds depth - 1 more.
    return R"({"deep": )" + std::string(depth - 1, '[') + std::string(depth - 1, ']') + "}";
  };
  CollectingVisitor visitor;
  const ReadResult result = read_text(prefix + nested(127) + "\n" + prefix + nested(128) + "\n", visitor);
  EXPECT_EQ(result.counters.format(), "Stats { ok: 1, fail_json: 2, unknown: 1 }");
  EXPECT_EQ(visitor.lines_of(kMetadata), Lines{2});
  // The same limit with a number in the innermost object (simdjson counts it as a level; tlparse
  // 0.4.3 keeps 127 such objects).
  auto nested_objects = [](int depth) {
    std::string text = R"({"deep": )";
    for (int i = 1; i < depth; ++i) text += R"({"a": )";
    return text + "1" + std::string(depth, '}');
  };
  CollectingVisitor objects;
  const ReadResult with_numbers = read_text(prefix + nested_objects(127) + "\n" + prefix + nested_objects(128) + "\n", objects);
  EXPECT_EQ(with_numbers.counters.format(), "Stats { ok: 1, fail_json: 2, unknown: 1 }");
  EXPECT_EQ(objects.lines_of(kMetadata), Lines{2});
}

}  // namespace
}  // namespace kiln::trace
