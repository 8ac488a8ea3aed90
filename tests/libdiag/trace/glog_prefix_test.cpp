// The hand-written matcher against tlparse's prefix regex (reference §2.1).
#include <gtest/gtest.h>

#include "libdiag/trace/glog_prefix.h"

namespace kiln::trace {
namespace {

TEST(GlogPrefix, ParsesEveryGroup) {
  const std::string line =
      R"(V1206 15:18:21.230000 1500233 torch/_inductor/compile_fx.py:898] {"inductor_post_grad_graph": {}})";
  const auto prefix = parse_glog_prefix(line);
  ASSERT_TRUE(prefix);
  EXPECT_EQ(prefix->level, 'V');
  EXPECT_EQ(prefix->month, 12);
  EXPECT_EQ(prefix->day, 6);
  EXPECT_EQ(prefix->hour, 15);
  EXPECT_EQ(prefix->minute, 18);
  EXPECT_EQ(prefix->second, 21);
  EXPECT_EQ(prefix->microseconds, 230000u);
  EXPECT_EQ(prefix->thread, 1500233u);
  EXPECT_EQ(prefix->pathname, " torch/_inductor/compile_fx.py");  // the leading space is kept
  EXPECT_EQ(prefix->lineno, 898u);
  EXPECT_EQ(line.substr(prefix->envelope_offset, 2), "{\"");
}

TEST(GlogPrefix, SearchIsUnanchoredAndTakesTheFirstMatch) {
  const std::string line = "[rank0]:I0102 03:04:05.678901 42 a.py:7] {} W0102 03:04:05.678901 43 b.py:8] x";
  const auto prefix = parse_glog_prefix(line);
  ASSERT_TRUE(prefix);
  EXPECT_EQ(prefix->level, 'I');
  EXPECT_EQ(prefix->thread, 42u);
  EXPECT_EQ(prefix->envelope_offset, line.find("{}"));
}

TEST(GlogPrefix, EarlyLogsWithThreadIdents) {
  const auto prefix = parse_glog_prefix("V0423 10:00:00.000000 139877824898048 torch/_dynamo/x.py:1] {}");
  ASSERT_TRUE(prefix);
  EXPECT_EQ(prefix->thread, 139877824898048u);
}

TEST(GlogPrefix, RejectsWhatTheRegexRejects) {
  for (const char* line : {
           "",
           "hello",
           "X1206 15:18:21.230000 1 a.py:1] {}",     // level letter
           "V1206 15:18:21.23000 1 a.py:1] {}",      // five fractional digits
           "V1206 15:18:21.230000 a.py:1] {}",       // no process id
           "V1206 15:18:21.230000 1 C:\\x.py:1] {}", // a colon in the path
           "V1206 15:18:21.230000 1 a.py:] {}",      // no line number
           "V1206 15:18:21.230000 1 a.py:1]{}",      // no space after ]
           "V1206 15:18:21.230000 1 a.py:1] ",       // no envelope character
           "V1206 15:18:21.230000 1:1] {}",          // the path would be empty
           "V126 15:18:21.230000 1 a.py:1] {}",
       }) {
    EXPECT_FALSE(parse_glog_prefix(line)) << line;
  }
}

TEST(GlogPrefix, DigitRunGivesItsLastDigitToAnOtherwiseEmptyPath) {
  const auto prefix = parse_glog_prefix("V1206 15:18:21.230000 1500233:9] {}");
  ASSERT_TRUE(prefix);
  EXPECT_EQ(prefix->thread, 150023u);
  EXPECT_EQ(prefix->pathname, "3");
  EXPECT_EQ(prefix->lineno, 9u);
}

TEST(GlogPrefix, AnyCharacterSeparatesSecondsFromTheFraction) {
  EXPECT_TRUE(parse_glog_prefix("V1206 15:18:21,230000 1 a.py:1] {}"));
  EXPECT_TRUE(parse_glog_prefix("V1206 15:18:21\xC3\xA9" "230000 1 a.py:1] {}"));  // one two-byte character
  EXPECT_FALSE(parse_glog_prefix("V1206 15:18:21230000 1 a.py:1] {}"));
}

TEST(GlogPrefix, HugeDigitRunsSaturate) {
  const auto prefix = parse_glog_prefix("V1206 15:18:21.230000 99999999999999999999999 a.py:99999999999] {}");
  ASSERT_TRUE(prefix);
  EXPECT_EQ(prefix->thread, UINT64_MAX);
  EXPECT_EQ(prefix->lineno, UINT32_MAX);
}

TEST(GlogPrefix, ManyFailingCandidatesStayLinear) {
  // Every "V" starts a candidate that fails only at the far end; a quadratic search would
  // take minutes here, the cached colon and tail make it one pass.
  std::string line;
  for (int i = 0; i < 200000; ++i) line += "V1206 15:18:21.230000 1 ";
  line += "x:1]";
  EXPECT_FALSE(parse_glog_prefix(line));
  line += " {}";
  const auto prefix = parse_glog_prefix(line);
  ASSERT_TRUE(prefix);
  EXPECT_EQ(prefix->envelope_offset, line.size() - 2);
}

TEST(GlogPrefix, FormatRoundTrips) {
  GlogPrefix prefix;
  prefix.level = 'W';
  prefix.month = 1;
  prefix.day = 2;
  prefix.hour = 3;
  prefix.minute = 4;
  prefix.second = 5;
  prefix.microseconds = 678000;
  prefix.thread = 4242;
  prefix.pathname = " libcompiler/capture/guards.cpp";
  prefix.lineno = 77;
  const std::string text = format_glog_prefix(prefix);
  EXPECT_EQ(text, "W0102 03:04:05.678000 4242 libcompiler/capture/guards.cpp:77] ");
  const std::string line = text + "{}";  // the parsed pathname views into it
  const auto parsed = parse_glog_prefix(line);
  ASSERT_TRUE(parsed);
  EXPECT_EQ(format_glog_prefix(*parsed), text);
}

}  // namespace
}  // namespace kiln::trace
