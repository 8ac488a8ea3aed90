// Kiln's additions to index.html: the compile timeline and the byte tables.
#include <gtest/gtest.h>

#include "libdiag/report/byte_accounting.h"
#include "libdiag/report/compile_timeline.h"

namespace kiln::report {
namespace {

TEST(CompileTimeline, DrawsPhasesOfEachCompileId) {
  CompileTimeline timeline;
  EXPECT_TRUE(timeline.empty());
  timeline.add_event("0/0", "dynamo", "B", 1000, std::nullopt);
  timeline.add_event("0/0", "inductor_compile", "B", 2000, std::nullopt);
  timeline.add_event("0/0", "inductor_compile", "E", 3500, std::nullopt);
  timeline.add_event("0/0", "dynamo", "E", 5000, std::nullopt);
  timeline.add_event("None", "dynamo", "B", 0, std::nullopt);                        // outside a compile
  timeline.add_event("1/0", "create_aot_dispatcher_function", "X", 6000, 1000.0);   // complete event
  timeline.add_event("1/0", "GraphLowering.run", "B", 6100, std::nullopt);           // not a phase
  timeline.add_event("2/0", "dynamo", "E", 7000, std::nullopt);                      // end without begin
  ASSERT_FALSE(timeline.empty());
  const std::string svg = timeline.render_svg();
  EXPECT_NE(svg.find("<title>[0/0] Dynamo: 4.000 ms</title>"), std::string::npos) << svg;
  EXPECT_NE(svg.find("<title>[0/0] Inductor: 1.500 ms</title>"), std::string::npos);
  EXPECT_NE(svg.find("<title>[1/0] AOTAutograd: 1.000 ms</title>"), std::string::npos);
  EXPECT_EQ(svg.find("[None]"), std::string::npos);
  EXPECT_NE(svg.find("href='#[2/0]'"), std::string::npos);  // a row, but no bar
  EXPECT_EQ(svg.find("[2/0] Dynamo"), std::string::npos);
  EXPECT_NE(svg.find("6.000 ms total"), std::string::npos);  // 1000 .. 7000 us
}

TEST(CompileTimeline, EscapesCompileIds) {
  CompileTimeline timeline;
  timeline.add_event("<b>", "dynamo", "X", 0, 5.0);
  const std::string svg = timeline.render_svg();
  EXPECT_EQ(svg.find("<b>"), std::string::npos);
  EXPECT_NE(svg.find("[&lt;b&gt;]"), std::string::npos);
}

TEST(ByteAccounting, CountsTheLinesARecordTookInTheLog) {
  // "V... ] {json}\n" then "\ta\n\tb\n": 10 + 1 envelope bytes, 6 payload bytes.
  const RecordBytes bytes = record_bytes(10, true, "a\nb");
  EXPECT_EQ(bytes.envelope, 11u);
  EXPECT_EQ(bytes.payload, 6u);
  EXPECT_EQ(record_bytes(10, false, "").payload, 0u);
  EXPECT_EQ(record_bytes(10, true, "").payload, 0u);
}

TEST(ByteAccounting, TablesListLargestFirst) {
  ByteAccounting accounting;
  accounting.add("artifact", "[0/0]", {100, 900});
  accounting.add("chromium_event", "[-/-]", {50, 0});
  accounting.add("artifact", "[1/0]", {100, 0});
  const std::string html = accounting.render_html(2000, 1);
  EXPECT_LT(html.find("<td>artifact</td>"), html.find("<td>chromium_event</td>"));
  EXPECT_NE(html.find("<td>artifact</td><td class='bytes'>2</td>"), std::string::npos);
  EXPECT_NE(html.find("55.0%"), std::string::npos);  // 1100 of 2000 bytes
  EXPECT_NE(html.find("<a href='#[0/0]'>[0/0]</a>"), std::string::npos);
  EXPECT_NE(html.find("(2 more)"), std::string::npos);  // max_rows = 1: the other compile ids summed
}

}  // namespace
}  // namespace kiln::report
