#include "libdiag/log/glog_format.h"

#include <gtest/gtest.h>

#include <cctype>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "tests/support/shared_data.h"

namespace kiln::log {
namespace {

// A local time as the prefix shows it (the year is not shown; any will do).
std::chrono::system_clock::time_point local_time(int month, int day, int hour, int minute,
                                                 int second, int microsecond) {
  std::tm fields{};
  fields.tm_year = 2026 - 1900;
  fields.tm_mon = month - 1;
  fields.tm_mday = day;
  fields.tm_hour = hour;
  fields.tm_min = minute;
  fields.tm_sec = second;
  fields.tm_isdst = -1;
  return std::chrono::system_clock::from_time_t(std::mktime(&fields)) +
         std::chrono::microseconds(microsecond);
}

TEST(GlogFormat, PrefixHasEveryFieldInPyTorchsOrder) {
  LogRecord record;
  record.level = Level::Debug;
  record.time = local_time(11, 22, 8, 52, 16, 123000);
  record.process_id = 1000;
  record.path = "torch/_dynamo/guards.py";
  record.line = 2871;
  record.compile_id = "0/0";
  record.artifact = "guards";
  record.message = "GUARDS:";
  EXPECT_EQ(format_glog(record),
            "V1122 08:52:16.123000 1000 torch/_dynamo/guards.py:2871] [0/0] [__guards] GUARDS:");

  record.level = Level::Info;
  record.time = local_time(1, 2, 3, 4, 5, 6);
  record.compile_id = "";
  record.artifact = "";
  EXPECT_EQ(glog_prefix(record), "I0102 03:04:05.000006 1000 torch/_dynamo/guards.py:2871]");
  record.level = Level::Warning;
  record.compile_id = "1/0_1";
  EXPECT_EQ(glog_prefix(record),
            "W0102 03:04:05.000006 1000 torch/_dynamo/guards.py:2871] [1/0_1]");
}

TEST(GlogFormat, EveryLineOfAMessageGetsThePrefix) {
  LogRecord record;
  record.level = Level::Error;
  record.time = local_time(3, 4, 5, 6, 7, 0);
  record.process_id = 7;
  record.path = "a.py";
  record.line = 1;
  record.message = "first\n\n  third\n";
  EXPECT_EQ(format_glog(record),
            "E0304 05:06:07.000000 7 a.py:1] first\n"
            "E0304 05:06:07.000000 7 a.py:1] \n"
            "E0304 05:06:07.000000 7 a.py:1]   third\n"
            "E0304 05:06:07.000000 7 a.py:1] ");
  record.level = Level::Critical;
  record.message = "";
  EXPECT_EQ(format_glog(record), "C0304 05:06:07.000000 7 a.py:1] ");
}

// Under torch.distributed, as the real ddp_compile.py run's stderr shows.
TEST(GlogFormat, EveryLineOfARanksMessageNamesTheRank) {
  const LogRecord record{.time = local_time(11, 26, 9, 26, 18, 453000), .process_id = 4612,
                         .path = "torch/_dynamo/backends/distributed.py", .line = 596, .compile_id = "4/0",
                         .artifact = "ddp_graphs", .message = "\n---orig graph---", .rank = 0};
  EXPECT_EQ(format_glog(record),
            "[rank0]:V1126 09:26:18.453000 4612 torch/_dynamo/backends/distributed.py:596] [4/0] [__ddp_graphs] \n"
            "[rank0]:V1126 09:26:18.453000 4612 torch/_dynamo/backends/distributed.py:596] [4/0] [__ddp_graphs] ---orig graph---");
}

// One record of a real log: consecutive lines with the same prefix are one multi-line message.
struct RealRecord {
  std::string prefix;  // everything before the message, as written
  Level level = Level::Debug;
  std::chrono::system_clock::time_point time;
  int64_t process_id = 0;
  std::string path, compile_id, artifact;
  int line = 0;
  std::vector<std::string> lines;
};

struct RealLine {
  RealRecord record;  // without lines
  std::string message;
};

std::optional<Level> level_of(char letter) {
  switch (letter) {
    case 'V': return Level::Debug;
    case 'I': return Level::Info;
    case 'W': return Level::Warning;
    case 'E': return Level::Error;
    case 'C': return Level::Critical;
    default: return std::nullopt;
  }
}

// Reads "V1122 08:17:16.229000 431 torch/x.py:12] [0/0] [__graph_code] message" by hand
// (std::regex recurses per character and overflows the stack on long lines).
std::optional<RealLine> parse_line(std::string_view text) {
  const auto digits = [&](size_t at, size_t count) {
    if (at + count > text.size()) return -1;
    int value = 0;
    for (size_t i = at; i < at + count; ++i) {
      if (!std::isdigit(static_cast<unsigned char>(text[i]))) return -1;
      value = value * 10 + (text[i] - '0');
    }
    return value;
  };
  // Fixed-width part: "V1122 08:17:16.229000 "
  if (text.size() < 22 || !level_of(text[0]) || text[5] != ' ' || text[8] != ':' ||
      text[11] != ':' || text[14] != '.' || text[21] != ' ')
    return std::nullopt;
  const int fields[] = {digits(1, 2), digits(3, 2),  digits(6, 2),
                        digits(9, 2), digits(12, 2), digits(15, 6)};
  for (int field : fields)
    if (field < 0) return std::nullopt;
  RealLine parsed;
  RealRecord& r = parsed.record;
  r.level = *level_of(text[0]);
  r.time = local_time(fields[0], fields[1], fields[2], fields[3], fields[4], fields[5]);

  const size_t pid_end = text.find(' ', 22);
  const size_t bracket = text.find("] ", pid_end);
  if (pid_end == std::string_view::npos || bracket == std::string_view::npos) return std::nullopt;
  r.process_id = std::stoll(std::string(text.substr(22, pid_end - 22)));
  const std::string_view site = text.substr(pid_end + 1, bracket - pid_end - 1);
  const size_t colon = site.rfind(':');
  if (colon == std::string_view::npos) return std::nullopt;
  r.path = site.substr(0, colon);
  r.line = std::stoi(std::string(site.substr(colon + 1)));

  size_t at = bracket + 1;  // at the space before a tag or the message
  // " [<compile id>]" then " [__<artifact>]", each optional.
  const auto take_tag = [&](bool artifact) -> std::optional<std::string> {
    if (text.substr(at, 2) != " [" || (text.substr(at + 2, 2) == "__") != artifact)
      return std::nullopt;
    const size_t close = text.find(']', at);
    if (close == std::string_view::npos) return std::nullopt;
    const size_t start = at + (artifact ? 4 : 2);
    at = close + 1;
    return std::string(text.substr(start, close - start));
  };
  if (auto id = take_tag(false)) r.compile_id = *id;
  if (auto artifact = take_tag(true)) r.artifact = *artifact;
  if (text.substr(at, 1) != " ") return std::nullopt;
  parsed.message = text.substr(at + 1);
  r.prefix = text.substr(0, at);
  return parsed;
}

std::vector<RealRecord> read_records(const std::filesystem::path& path) {
  std::vector<RealRecord> records;
  std::ifstream in(path);
  std::string text;
  while (std::getline(in, text)) {
    auto parsed = parse_line(text);
    const bool looks_like_a_record = text.size() > 5 && level_of(text[0]) && text[5] == ' ' &&
                                     std::isdigit(static_cast<unsigned char>(text[1]));
    EXPECT_EQ(parsed.has_value(), looks_like_a_record) << text;
    if (!parsed) continue;  // tracebacks, warnings, program output
    if (records.empty() || records.back().prefix != parsed->record.prefix)
      records.push_back(std::move(parsed->record));
    records.back().lines.push_back(std::move(parsed->message));
  }
  return records;
}

TEST(GlogFormat, ReproducesTheRealPyTorchLogsByteForByte) {
  KILN_REQUIRE_SHARED();
  size_t records_checked = 0, lines_checked = 0, files = 0;
  const auto logs = kiln::test::realPath("pytorch-2.11/logs");
  for (const auto& entry : std::filesystem::directory_iterator(logs)) {
    if (entry.path().extension() != ".err") continue;
    ++files;
    for (const RealRecord& real : read_records(entry.path())) {
      std::string original, message;
      for (size_t i = 0; i < real.lines.size(); ++i) {
        original += (i ? "\n" : "") + real.prefix + " " + real.lines[i];
        message += (i ? "\n" : "") + real.lines[i];
      }
      LogRecord record;
      record.level = real.level;
      record.time = real.time;
      record.process_id = real.process_id;
      record.path = real.path;
      record.line = real.line;
      record.compile_id = real.compile_id;
      record.artifact = real.artifact;
      record.message = message;
      ASSERT_EQ(format_glog(record), original) << entry.path().filename();
      ++records_checked;
      lines_checked += real.lines.size();
    }
  }
  EXPECT_GE(files, 15u);
  EXPECT_GT(records_checked, 100u);
  EXPECT_GT(lines_checked, 10000u);
}

}  // namespace
}  // namespace kiln::log
