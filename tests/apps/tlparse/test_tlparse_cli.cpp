// The tlparse command line: exit codes and messages of tlparse 0.4.3 (reference §8), plus
// Kiln's working --latest, --version and --sqlite, and gzip-compressed input.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "tests/apps/tlparse/run_command.h"
#include "tests/support/shared_data.h"

namespace kiln::test {
namespace {

namespace fs = std::filesystem;

// A one-compile log (records from reference §2.5, payload md5s real).
const char* kGoodLog =
    "V0102 03:04:05.679000 4242 torch/_dynamo/convert_frame.py:247] {\"dynamo_output_graph\": {}, \"frame_id\": 0, "
    "\"frame_compile_id\": 0, \"attempt\": 0, \"has_payload\": \"0cc175b9c0f1b6a831c399e269772661\"}\n"
    "\ta\n"
    "V0102 03:04:06.100000 4242 torch/_dynamo/utils.py:1045] {\"compilation_metrics\": {\"graph_op_count\": 2}, "
    "\"frame_id\": 0, \"frame_compile_id\": 0, \"attempt\": 0}\n";

fs::path write_log(const fs::path& dir, const std::string& name, const std::string& text) {
  std::ofstream(dir / name) << text;
  return dir / name;
}

CommandResult tlparse(const std::vector<std::string>& args, const fs::path& scratch) {
  std::vector<std::string> argv = {tlparse_binary().string()};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_command(argv, scratch);
}

TEST(TlparseCli, WritesTheReportAndPrintsStats) {
  const fs::path dir = scratchDir("cli_ok");
  const fs::path log = write_log(dir, "t.log", kGoodLog);
  const CommandResult result = tlparse({log.string(), "-o", (dir / "out").string(), "--no-browser"}, dir);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "Stats { ok: 2 }\n");
  EXPECT_TRUE(fs::exists(dir / "out" / "-_0_0_0" / "dynamo_output_graph_0.txt"));
  EXPECT_TRUE(fs::exists(dir / "out" / "-_0_0_0" / "compilation_metrics_1.html"));
  // JSON integers print as integers, as tlparse prints them ("Graph Ops: 2", not "2.0").
  std::ifstream page(dir / "out" / "-_0_0_0" / "compilation_metrics_1.html");
  const std::string html((std::istreambuf_iterator<char>(page)), std::istreambuf_iterator<char>());
  EXPECT_NE(html.find("Graph Ops: 2<"), std::string::npos) << html;
  EXPECT_EQ(html.find("Graph Ops: 2.0"), std::string::npos) << html;
}

TEST(TlparseCli, MissingInputIsAnError) {
  const fs::path dir = scratchDir("cli_missing");
  const CommandResult result =
      tlparse({(dir / "nope.log").string(), "-o", (dir / "out").string(), "--no-browser"}, dir);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, "Error: " + (dir / "nope.log").string() + " is not a file\n");
}

// A folder of logs is the usual first try (TORCH_TRACE names a folder): say what to pass instead.
TEST(TlparseCli, AFolderInputSuggestsLatest) {
  const fs::path dir = scratchDir("cli_folder");
  write_log(dir, "t.log", kGoodLog);
  const CommandResult result = tlparse({dir.string(), "-o", (dir / "out").string(), "--no-browser"}, dir);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("is a directory"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("--latest"), std::string::npos) << result.err;
}

TEST(TlparseCli, ExistingOutputNeedsOverwrite) {
  const fs::path dir = scratchDir("cli_overwrite");
  const fs::path log = write_log(dir, "t.log", kGoodLog);
  fs::create_directories(dir / "out");
  std::ofstream(dir / "out" / "stale.txt") << "old";
  CommandResult result = tlparse({log.string(), "-o", (dir / "out").string(), "--no-browser"}, dir);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, "Error: Directory " + (dir / "out").string() +
                            " already exists; pass --overwrite to replace it or use -o OUTDIR\n");
  result = tlparse({log.string(), "-o", (dir / "out").string(), "--overwrite", "--no-browser"}, dir);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_FALSE(fs::exists(dir / "out" / "stale.txt"));
  EXPECT_TRUE(fs::exists(dir / "out" / "index.html"));
}

TEST(TlparseCli, UsageErrorsExitTwo) {
  const fs::path dir = scratchDir("cli_usage");
  CommandResult result = tlparse({"--bogus"}, dir);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("Usage: tlparse [OPTIONS] <PATH>"), std::string::npos);
  result = tlparse({}, dir);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("<PATH>"), std::string::npos);
}

TEST(TlparseCli, HelpAndVersion) {
  const fs::path dir = scratchDir("cli_help");
  CommandResult result = tlparse({"--help"}, dir);
  EXPECT_EQ(result.exit_code, 0);
  for (const char* flag : {"--overwrite", "--latest", "--strict", "--strict-compile-id", "--no-browser",
                           "--custom-header-html", "--plain-text", "--export", "--inductor-provenance",
                           "--all-ranks-html", "--sqlite"})
    EXPECT_NE(result.out.find(flag), std::string::npos) << flag;
  result = tlparse({"--version"}, dir);
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.out.rfind("tlparse ", 0), 0u);
  EXPECT_NE(result.out.find("Kiln"), std::string::npos);
}

TEST(TlparseCli, StrictFailsOnABadLog) {
  const fs::path dir = scratchDir("cli_strict");
  const fs::path log = write_log(dir, "bad.log", std::string("stray print\n") + kGoodLog);
  CommandResult result = tlparse({log.string(), "-o", (dir / "lenient").string(), "--no-browser"}, dir);
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.err, "Failed to parse glog prefix on line 1\nStats { ok: 2, fail_glog: 1 }\n");
  result = tlparse({log.string(), "-o", (dir / "strict").string(), "--strict", "--no-browser"}, dir);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, "Failed to parse glog prefix on line 1\nStats { ok: 2, fail_glog: 1 }\nError: Something went wrong\n");
  EXPECT_TRUE(fs::is_empty(dir / "strict"));
}

TEST(TlparseCli, StrictCompileIdFailsOnMalformedIds) {
  const fs::path dir = scratchDir("cli_strict_id");
  const fs::path log = write_log(
      dir, "t.log",
      "V0102 03:04:05.679000 4242 x.py:1] {\"dynamo_output_graph\": {}, \"frame_id\": \"x\", \"frame_compile_id\": 0}\n");
  const CommandResult result =
      tlparse({log.string(), "-o", (dir / "out").string(), "--strict-compile-id", "--no-browser"}, dir);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("Error: Some log entries did not have compile id\n"), std::string::npos);
}

TEST(TlparseCli, LatestPicksTheNewestFile) {
  const fs::path dir = scratchDir("cli_latest");
  fs::create_directories(dir / "logs");
  write_log(dir / "logs", "old.log", "not a trace\n");
  const fs::path newest = write_log(dir / "logs", "new.log", kGoodLog);
  fs::last_write_time(dir / "logs" / "old.log", fs::last_write_time(newest) - std::chrono::hours(1));
  CommandResult result = tlparse({(dir / "logs").string(), "--latest", "-o", (dir / "out").string(), "--no-browser"}, dir);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "Stats { ok: 2 }\n");  // the old file would have failed its only line
  result = tlparse({newest.string(), "--latest", "-o", (dir / "out2").string(), "--no-browser"}, dir);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, "Error: Input path " + newest.string() + " is not a directory (required with --latest)\n");
  result = tlparse({(dir / "logs").string(), "--latest", "--all-ranks-html", "--no-browser"}, dir);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, "Error: --latest cannot be used with --all-ranks-html\n");
}

// A log of several compiles, so that a truncated copy of its compressed form still holds some.
std::string many_compiles_log(int compiles) {
  std::string text;
  for (int i = 0; i < compiles; ++i) {
    const std::string id = "\"frame_id\": " + std::to_string(i) + ", \"frame_compile_id\": 0, \"attempt\": 0";
    text += "V0102 03:04:05.679000 4242 torch/_dynamo/convert_frame.py:247] {\"dynamo_output_graph\": {}, " + id +
            ", \"has_payload\": \"0cc175b9c0f1b6a831c399e269772661\"}\n\ta\n";
    text += "V0102 03:04:06.100000 4242 torch/_dynamo/utils.py:1045] {\"compilation_metrics\": {\"graph_op_count\": " +
            std::to_string(i) + ", \"co_name\": \"fn_" + std::to_string(i) + "_" + std::string(200, 'x') + "\"}, " + id + "}\n";
  }
  return text;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST(TlparseCli, ReadsGzipCompressedLogsByTheirMagicBytes) {
  const fs::path dir = scratchDir("cli_gzip");
  write_log(dir, "t.log", many_compiles_log(3));
  ASSERT_EQ(run_command({"gzip", "-k", (dir / "t.log").string()}, dir).exit_code, 0);
  fs::copy_file(dir / "t.log.gz", dir / "renamed.log");  // known by content, not by name
  const CommandResult plain = tlparse({(dir / "t.log").string(), "-o", (dir / "plain").string(), "--no-browser"}, dir);
  for (const char* input : {"t.log.gz", "renamed.log"}) {
    const fs::path out = dir / (std::string("out_") + input);
    const CommandResult result = tlparse({(dir / input).string(), "-o", out.string(), "--no-browser"}, dir);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err, plain.err);
    EXPECT_EQ(read_text(out / "compile_directory.json"), read_text(dir / "plain" / "compile_directory.json"));
    EXPECT_EQ(read_text(out / "raw.log.gz"), read_text(dir / input));  // the input, still compressed
  }
}

TEST(TlparseCli, DamagedGzipFailsSayingWhereAndKeepsWhatWasRead) {
  const fs::path dir = scratchDir("cli_gzip_damaged");
  write_log(dir, "t.log", many_compiles_log(2000));
  ASSERT_EQ(run_command({"gzip", "-k", (dir / "t.log").string()}, dir).exit_code, 0);
  const std::string compressed = read_text(dir / "t.log.gz");
  write_log(dir, "truncated.gz", compressed.substr(0, compressed.size() / 2));
  CommandResult result = tlparse({(dir / "truncated.gz").string(), "-o", (dir / "out").string(), "--no-browser"}, dir);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("Error: " + (dir / "truncated.gz").string() + ": truncated gzip data"), std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("(after line "), std::string::npos) << result.err;
  // The compiles before the cut are in the report, index included.
  EXPECT_TRUE(fs::exists(dir / "out" / "index.html"));
  EXPECT_TRUE(fs::exists(dir / "out" / "-_0_0_0" / "compilation_metrics_1.html"));

  write_log(dir, "garbage.gz", std::string("\x1f\x8b") + std::string(100, 'z'));
  result = tlparse({(dir / "garbage.gz").string(), "-o", (dir / "out2").string(), "--no-browser"}, dir);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("corrupt gzip data at compressed byte"), std::string::npos) << result.err;
}

TEST(TlparseCli, LatestLooksIntoRunFoldersAndSkipsWhatIsNotATrace) {
  const fs::path dir = scratchDir("cli_latest_runs");
  for (const char* run : {"run1", "run2"}) fs::create_directories(dir / "traces" / run);
  const fs::path older = write_log(dir / "traces" / "run1", "dedicated_log_torch_trace_a.log", "V0102 not this one\n");
  write_log(dir / "traces" / "run2", "dedicated_log_torch_trace_b.log", kGoodLog);
  ASSERT_EQ(run_command({"gzip", (dir / "traces" / "run2" / "dedicated_log_torch_trace_b.log").string()}, dir).exit_code, 0);
  const fs::path newest = dir / "traces" / "run2" / "dedicated_log_torch_trace_b.log.gz";
  const fs::path notes = write_log(dir / "traces", "notes.txt", "not a trace\n");
  fs::last_write_time(older, fs::last_write_time(newest) - std::chrono::hours(1));
  fs::last_write_time(notes, fs::last_write_time(newest) + std::chrono::hours(1));
  CommandResult result = tlparse({(dir / "traces").string(), "--latest", "-o", (dir / "out").string(), "--no-browser"}, dir);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "Stats { ok: 2 }\n");
  EXPECT_TRUE(fs::exists(dir / "out" / "raw.log.gz"));

  fs::create_directories(dir / "empty");
  write_log(dir / "empty", "notes.txt", "not a trace\n");
  result = tlparse({(dir / "empty").string(), "--latest", "-o", (dir / "out2").string(), "--no-browser"}, dir);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("No trace log found in directory"), std::string::npos) << result.err;
}

TEST(TlparseCli, PlainTextWritesOutputCodeAsText) {
  const fs::path dir = scratchDir("cli_plain");
  const fs::path log = write_log(
      dir, "t.log",
      "V0102 03:04:05.679000 4242 x.py:1] {\"inductor_output_code\": {\"filename\": \"/tmp/ab/cxyz.py\"}, "
      "\"frame_id\": 0, \"frame_compile_id\": 0, \"attempt\": 0, \"has_payload\": \"0cc175b9c0f1b6a831c399e269772661\"}\n\ta\n");
  EXPECT_EQ(tlparse({log.string(), "-o", (dir / "html").string(), "--no-browser"}, dir).exit_code, 0);
  EXPECT_TRUE(fs::exists(dir / "html" / "-_0_0_0" / "inductor_output_code_cxyz_0.html"));
  EXPECT_EQ(tlparse({log.string(), "-o", (dir / "text").string(), "-p", "--no-browser"}, dir).exit_code, 0);
  EXPECT_TRUE(fs::exists(dir / "text" / "-_0_0_0" / "inductor_output_code_cxyz_0.txt"));
}

TEST(TlparseCli, VerboseNamesUnknownFieldsAndHeaderGoesOnTop) {
  const fs::path dir = scratchDir("cli_verbose");
  const fs::path log = write_log(dir, "t.log",
                                 "V0102 03:04:05.679000 4242 x.py:1] {\"my_key\": {}, \"frame_id\": 0, "
                                 "\"frame_compile_id\": 0, \"attempt\": 0}\n");
  const CommandResult result = tlparse({log.string(), "-o", (dir / "out").string(), "-v", "--custom-header-html",
                                        "<p id='hdr'>Team report</p>", "--no-browser"},
                                       dir);
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.err,
            "Unknown field my_key\nStats { ok: 1, unknown: 1 }\n"
            "Unknown fields: {\"my_key\"} (consider updating tlparse to render these)\n");
  std::ifstream index(dir / "out" / "index.html");
  const std::string html((std::istreambuf_iterator<char>(index)), std::istreambuf_iterator<char>());
  EXPECT_NE(html.find("<p id='hdr'>Team report</p>"), std::string::npos);  // unescaped, by design
}

TEST(TlparseCli, SqliteOptionWritesADatabase) {
  const fs::path dir = scratchDir("cli_sqlite");
  const fs::path log = write_log(dir, "t.log", kGoodLog);
  const CommandResult result =
      tlparse({log.string(), "-o", (dir / "out").string(), "--sqlite", (dir / "t.db").string(), "--no-browser"}, dir);
  EXPECT_EQ(result.exit_code, 0) << result.err;
  const CommandResult rows = run_command({"sqlite3", (dir / "t.db").string(), "SELECT count(*) FROM records"}, dir);
  // The sqlite3 shell is one of scripts/setup's packages: a failure to read the file is the
  // database's fault, not a reason to skip.
  ASSERT_EQ(rows.exit_code, 0) << rows.err;
  EXPECT_EQ(rows.out, "2\n");
}

}  // namespace
}  // namespace kiln::test
