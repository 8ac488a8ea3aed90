// TraceWriter output: file name, prefix, key order, separators, escapes, payload lines, lazy
// creation and an unwritable folder (reference trace_format.md §1.1, §2, §11).
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "libdiag/trace/glog_prefix.h"
#include "libdiag/trace/payload_md5.h"
#include "libdiag/trace/trace_writer.h"
#include "tests/libdiag/trace/collecting_visitor.h"
#include "tests/libdiag/trace/compile_ids.h"
#include "tests/support/shared_data.h"

namespace kiln::trace {
namespace {

std::vector<std::string> file_lines(const std::filesystem::path& path) {
  std::ifstream input(path, std::ios::binary);
  std::vector<std::string> lines;
  for (std::string line; std::getline(input, line);) lines.push_back(line);
  return lines;
}

// The envelope of a written line (what follows "] ").
std::string envelope_of(const std::string& line) { return line.substr(line.find("] ") + 2); }

std::string md5_hex(std::string_view text) {
  PayloadMd5 md5;
  return md5.hex(text);
}

// "dedicated_log_torch_trace_" + middle + 8 characters of [a-z0-9_] + ".log"
bool is_trace_file_name(std::string_view name, std::string_view middle) {
  const std::string head = "dedicated_log_torch_trace_" + std::string(middle);
  if (!name.starts_with(head) || !name.ends_with(".log") || name.size() != head.size() + 8 + 4) return false;
  for (char c : name.substr(head.size(), 8))
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

TEST(TraceWriter, CreatesNothingBeforeTheFirstRecord) {
  const auto dir = kiln::test::scratchDir("trace_writer_lazy") / "nested" / "trace";
  TraceWriter writer(dir);
  EXPECT_TRUE(writer.enabled());
  EXPECT_FALSE(std::filesystem::exists(dir));
  EXPECT_TRUE(writer.file().empty());
  writer.record("chromium_event", TraceJson::object());
  ASSERT_TRUE(std::filesystem::is_directory(dir));
  EXPECT_EQ(writer.file().parent_path(), dir);
  EXPECT_TRUE(is_trace_file_name(writer.file().filename().string(), "")) << writer.file();
}

TEST(TraceWriter, RankGoesIntoTheFileNameAndEveryRecordButStr) {
  const auto dir = kiln::test::scratchDir("trace_writer_rank");
  TraceWriter writer(dir, 3);
  writer.record("dynamo_start", {{"stack", writer.frame_list({{"/home/u/model.py", 7, "forward", std::nullopt}})}},
                {id({}, 0, 0, 0), {}});
  EXPECT_TRUE(is_trace_file_name(writer.file().filename().string(), "rank_3_")) << writer.file();
  const auto lines = file_lines(writer.file());
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(envelope_of(lines[0]), R"({"str": ["/home/u/model.py", 0]})");
  EXPECT_EQ(envelope_of(lines[1]),
            R"({"dynamo_start": {"stack": [{"line": 7, "name": "forward", "filename": 0}]}, "rank": 3, )"
            R"("frame_id": 0, "frame_compile_id": 0, "attempt": 0})");
}

TEST(TraceWriter, PrefixNamesTheCallerRelativeToTheCheckout) {
  const auto dir = kiln::test::scratchDir("trace_writer_prefix");
  TraceWriter writer(dir);
  const uint32_t line = __LINE__ + 1;
  writer.record("chromium_event", TraceJson::object());
  writer.record("chromium_event", TraceJson::object(), {}, std::nullopt, CallSite("C:/odd\npath.cc", 12));
  const auto lines = file_lines(writer.file());
  ASSERT_EQ(lines.size(), 2u);
  // The reader's prefix matcher is checked against real PyTorch logs elsewhere.
  const auto first = parse_glog_prefix(lines[0]);
  ASSERT_TRUE(first) << lines[0];
  EXPECT_EQ(first->level, 'V');
  EXPECT_EQ(first->microseconds % 1000, 0u);  // PyTorch writes milliseconds * 1000
  EXPECT_EQ(first->thread, static_cast<uint64_t>(getpid()));
  EXPECT_EQ(first->pathname, " tests/libdiag/trace/writer_test.cpp");
  EXPECT_EQ(first->lineno, line);
  EXPECT_TRUE(lines[0].starts_with("V")) << lines[0];  // the prefix starts the line
  const auto second = parse_glog_prefix(lines[1]);
  ASSERT_TRUE(second) << lines[1];
  EXPECT_EQ(second->pathname, " C_/odd_path.cc");
  EXPECT_EQ(second->lineno, 12u);
}

TEST(TraceWriter, KeyOrderSeparatorsAndOmittedIdParts) {
  const auto dir = kiln::test::scratchDir("trace_writer_keys");
  TraceWriter writer(dir, 2);
  writer.record("kiln_custom", {{"z", 1}, {"a", {{"\xC3\xA9t\xC3\xA9", "\xF0\x9F\x98\x80"}}}}, {id(1, 3, 0, {}), {}});
  writer.compilation_metrics({{"co_name", "f"}, {"graph_op_count", 2}, {"fail_type", nullptr}}, {id({}, 0, 1, 0), {}});
  const auto lines = file_lines(writer.file());
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(envelope_of(lines[0]),
            R"({"kiln_custom": {"z": 1, "a": {"\u00e9t\u00e9": "\ud83d\ude00"}}, "rank": 2, )"
            R"("compiled_autograd_id": 1, "frame_id": 3, "frame_compile_id": 0})");
  EXPECT_EQ(envelope_of(lines[1]),
            R"({"compilation_metrics": {"co_name": "f", "graph_op_count": 2, "fail_type": null}, "rank": 2, )"
            R"("frame_id": 0, "frame_compile_id": 1, "attempt": 0})");
}

TEST(TraceWriter, PayloadLinesAndMd5) {
  const auto dir = kiln::test::scratchDir("trace_writer_payload");
  TraceWriter writer(dir);
  const std::string payload = "a\n\nb\n";
  writer.artifact("fx_graph_runnable", ArtifactEncoding::String, payload, {id({}, 0, 0, 0), {}});
  writer.artifact("fx_graph_cache_miss", ArtifactEncoding::Json, "", {id({}, 0, 0, 0), {}});
  const auto lines = file_lines(writer.file());
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_EQ(envelope_of(lines[0]), R"({"artifact": {"name": "fx_graph_runnable", "encoding": "string"}, )"
                                   R"("frame_id": 0, "frame_compile_id": 0, "attempt": 0, "has_payload": ")" +
                                       md5_hex(payload) + "\"}");
  EXPECT_EQ(std::vector<std::string>(lines.begin() + 1, lines.begin() + 5),
            (std::vector<std::string>{"\ta", "\t", "\tb", "\t"}));
  EXPECT_EQ(envelope_of(lines[5]), R"({"artifact": {"name": "fx_graph_cache_miss", "encoding": "json"}, )"
                                   R"("frame_id": 0, "frame_compile_id": 0, "attempt": 0, )"
                                   R"("has_payload": "d41d8cd98f00b204e9800998ecf8427e"})");
  EXPECT_EQ(lines[6], "\t");  // an empty payload is one empty piece
}

TEST(TraceWriter, StackOutsideACompilationAndInterningOnce) {
  const auto dir = kiln::test::scratchDir("trace_writer_stack");
  TraceWriter writer(dir);
  EXPECT_EQ(writer.intern("/a.py"), 0u);
  EXPECT_EQ(writer.intern("/a.py"), 0u);
  TraceContext context;
  context.stack = {{"/b.py", 3, "<module>", "main()"}, {"/a.py", 9, "f", std::nullopt}};
  writer.record("guard_added_fast", {{"expr", "s0 > 1"}}, context);
  // A compile id wins over the stack, as in PyTorch.
  context.compile_id = id({}, 0, 0, 0);
  writer.record("guard_added_fast", {{"expr", "s0 > 2"}}, context);
  const auto lines = file_lines(writer.file());
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(envelope_of(lines[0]), R"({"str": ["/a.py", 0]})");
  EXPECT_EQ(envelope_of(lines[1]), R"({"str": ["/b.py", 1]})");
  EXPECT_EQ(envelope_of(lines[2]), R"({"guard_added_fast": {"expr": "s0 > 1"}, "stack": [{"line": 3, "name": )"
                                   R"j("<module>", "filename": 1, "loc": "main()"}, {"line": 9, "name": "f", )j"
                                   R"("filename": 0}]})");
  EXPECT_EQ(envelope_of(lines[3]),
            R"({"guard_added_fast": {"expr": "s0 > 2"}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0})");
}

// The payload names the compilation without its attempt (PyTorch's "0/0" all through a restart);
// the header carries the attempt.
TEST(TraceWriter, ChromiumEventsHavePyTorchsPayloadShape) {
  const auto dir = kiln::test::scratchDir("trace_writer_chromium");
  TraceWriter writer(dir);
  TraceContext compiling{id({}, 0, 0, 1), {}};
  writer.chromium_event("entire_frame_compile", ChromiumPhase::Begin, compiling, {{"fn_name", "_compile"}});
  TraceContext outside;
  outside.stack = {{"/a.py", 1, "f", std::nullopt}};  // never written for chromium events
  writer.chromium_event("compile_file", ChromiumPhase::End, outside);
  const auto lines = file_lines(writer.file());
  ASSERT_EQ(lines.size(), 25u);
  EXPECT_TRUE(envelope_of(lines[0]).starts_with(
      R"({"chromium_event": {}, "frame_id": 0, "frame_compile_id": 0, "attempt": 1, "has_payload": ")"));
  const std::vector<std::string> expected = {"\t{", "\t\"name\": \"entire_frame_compile\","};
  EXPECT_EQ(std::vector<std::string>(lines.begin() + 1, lines.begin() + 3), expected);
  ASSERT_TRUE(lines[3].starts_with("\t\"ts\": ") && lines[3].ends_with(",")) << lines[3];
  const double ts = std::stod(lines[3].substr(7));  // microseconds since the epoch
  EXPECT_GT(ts, 1.7e15);
  EXPECT_LT(ts, 1e16);
  EXPECT_EQ(std::vector<std::string>(lines.begin() + 4, lines.begin() + 13),
            (std::vector<std::string>{"\t\"args\": {", "\t\"fn_name\": \"_compile\",", "\t\"compile_id\": \"0/0\"",
                                      "\t},", "\t\"ph\": \"B\",", "\t\"cat\": \"dynamo_timed\",", "\t\"tid\": 0,",
                                      "\t\"pid\": 0", "\t}"}));
  EXPECT_TRUE(envelope_of(lines[13]).starts_with(R"({"chromium_event": {}, "has_payload": ")")) << lines[13];
  EXPECT_EQ(lines[18], "\t\"compile_id\": \"None\"");
  EXPECT_EQ(lines[20], "\t\"ph\": \"E\",");
}

TEST(TraceWriter, PayloadTextIsMadeReadable) {
  const auto dir = kiln::test::scratchDir("trace_writer_readable");
  TraceWriter writer(dir);
  writer.record("kiln_custom", TraceJson::object(), {}, std::string_view("dos\r\nline\rkept\xFF\r"));
  test::CollectingVisitor visitor;
  TraceReader reader(visitor);
  const ReadResult result = reader.read_file(writer.file());
  EXPECT_EQ(result.counters.format(), "Stats { ok: 1, unknown: 1 }");
  ASSERT_EQ(visitor.records.size(), 1u);
  // "\r" before a newline cannot survive reading, so it is not written; bad bytes become U+FFFD.
  EXPECT_EQ(visitor.records[0].payload, "dos\nline\rkept\xEF\xBF\xBD");
  EXPECT_TRUE(visitor.records[0].payload_md5_ok);
}

TEST(TraceWriter, UnwritableFolderDisablesTracingWithOneMessage) {
  const auto scratch = kiln::test::scratchDir("trace_writer_unwritable");
  std::ofstream(scratch / "a_file") << "x";
  TraceWriter writer(scratch / "a_file" / "trace");
  testing::internal::CaptureStderr();
  writer.record("chromium_event", TraceJson::object());
  writer.artifact("x", ArtifactEncoding::String, "payload");
  EXPECT_EQ(writer.intern("/a.py"), 0u);
  const std::string messages = testing::internal::GetCapturedStderr();
  EXPECT_FALSE(writer.enabled());
  EXPECT_TRUE(writer.file().empty());
  EXPECT_TRUE(messages.starts_with("TORCH_TRACE: cannot create ")) << messages;
  EXPECT_NE(messages.find("a_file/trace: "), std::string::npos) << messages;
  EXPECT_TRUE(messages.ends_with("; tracing disabled\n")) << messages;
  EXPECT_EQ(std::count(messages.begin(), messages.end(), '\n'), 1);
}

TEST(TraceWriter, DisabledWithoutAFolder) {
  TraceWriter writer("");
  EXPECT_FALSE(writer.enabled());
  writer.record("chromium_event", TraceJson::object());
  EXPECT_TRUE(writer.file().empty());
}

TEST(TraceWriter, FromEnvironmentReadsTorchTrace) {
  const auto dir = kiln::test::scratchDir("trace_writer_environment");
  ASSERT_EQ(setenv("TORCH_TRACE", dir.c_str(), 1), 0);
  TraceWriter& writer = TraceWriter::from_environment();
  EXPECT_EQ(&writer, &TraceWriter::from_environment());
  EXPECT_TRUE(writer.enabled());
  writer.record("chromium_event", TraceJson::object());
  EXPECT_EQ(writer.file().parent_path(), dir);
}

TEST(TraceWriter, ConcurrentRecordsStayWhole) {
  const auto dir = kiln::test::scratchDir("trace_writer_threads");
  TraceWriter writer(dir);
  constexpr int kThreads = 4, kRecords = 200;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&writer, t] {
      for (int i = 0; i < kRecords; ++i)
        writer.artifact("thread_" + std::to_string(t), ArtifactEncoding::String,
                        std::string(100 + i, static_cast<char>('a' + t)) + "\nline two\n",
                        {id({}, static_cast<uint32_t>(t), static_cast<uint32_t>(i), 0), {}});
    });
  for (auto& thread : threads) thread.join();
  test::CollectingVisitor visitor;
  TraceReader reader(visitor);
  EXPECT_EQ(reader.read_file(writer.file()).counters.format(), "Stats { ok: 800 }");
}

}  // namespace
}  // namespace kiln::trace
