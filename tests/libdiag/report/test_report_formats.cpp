// Output naming, cache markers, serde-compatible JSON and HTML escaping of the report
// (reference trace_format.md §6.2, §6.9, §6.10).
#include <gtest/gtest.h>
#include <simdjson.h>

#include "libdiag/report/html_escape.h"
#include "libdiag/report/output_naming.h"
#include "libdiag/report/sorted_json.h"

namespace kiln::report {
namespace {

TEST(OutputNaming, NumberGoesBeforeTheLastDot) {
  EXPECT_EQ(with_output_number("fx_graph_runnable.txt", 3), "fx_graph_runnable_3.txt");
  EXPECT_EQ(with_output_number("torch._functorch.config.txt", 4), "torch._functorch.config_4.txt");
  EXPECT_EQ(with_output_number("no_extension", 7), "no_extension_7");
  EXPECT_EQ(with_output_number("inductor_output_code_cyjw.html", 5), "inductor_output_code_cyjw_5.html");
}

TEST(OutputNaming, CacheMarkersInTlparseOrder) {
  EXPECT_EQ(cache_marker("-_0_0_0/fx_graph_cache_miss_6.json"), "\u274c");
  EXPECT_EQ(cache_marker("-_0_0_0/fx_graph_cache_hit_20.json"), "\u2705");
  EXPECT_EQ(cache_marker("-_0_0_0/aotautograd_cache_bypass_3.json"), "\u2753");
  EXPECT_EQ(cache_marker("-_0_0_0/cache_hit_then_cache_miss_1.json"), "\u274c");  // miss wins
  EXPECT_EQ(cache_marker("-_0_0_0/dynamo_output_graph_0.txt"), "");
}

std::string serialize(std::string_view json, bool pretty) {
  simdjson::dom::parser parser;
  simdjson::dom::element value = parser.parse(json.data(), json.size()).value();
  std::string out;
  append_sorted_json(out, value, pretty);
  return out;
}

TEST(SortedJson, CompactWithSortedKeysAndLastDuplicateWinning) {
  EXPECT_EQ(serialize(R"({"b": 1, "a": {"d": [1, 2], "c": null}, "b": 2, "e": "x"})", false),
            R"({"a":{"c":null,"d":[1,2]},"b":2,"e":"x"})");
}

TEST(SortedJson, PrettyLikeSerde) {
  EXPECT_EQ(serialize(R"({"b": [], "a": {}, "c": [1, {"z": true}]})", true),
            "{\n  \"a\": {},\n  \"b\": [],\n  \"c\": [\n    1,\n    {\n      \"z\": true\n    }\n  ]\n}");
}

TEST(SortedJson, StringsEscapeOnlyWhatJsonRequires) {
  std::string out;
  append_json_string(out, std::string("q\"b\\n\n\t\x01/\xc3\xa9\x7f", 12));
  EXPECT_EQ(out, "\"q\\\"b\\\\n\\n\\t\\u0001/\xc3\xa9\x7f\"");
}

TEST(SortedJson, NumbersKeepTheirKind) {
  EXPECT_EQ(serialize(R"([1, -2, 18446744073709551615, 1.0, 1e2, 0.5])", false),
            "[1,-2,18446744073709551615,1.0,100.0,0.5]");
}

TEST(SortedJson, FloatLayoutFollowsRyu) {
  auto text = [](double value) {
    std::string out;
    append_json_double(out, value);
    return out;
  };
  EXPECT_EQ(text(1733527101197944.0), "1733527101197944.0");
  EXPECT_EQ(text(1733527095925179.5), "1733527095925179.5");
  EXPECT_EQ(text(0.0), "0.0");
  EXPECT_EQ(text(1e-7), "1e-7");
  EXPECT_EQ(text(0.0001), "0.0001");
  EXPECT_EQ(text(1.5e20), "1.5e20");
  EXPECT_EQ(text(1e16), "1e16");
  EXPECT_EQ(text(123456789012345680.0), "1.2345678901234568e17");
  EXPECT_EQ(text(-2.5), "-2.5");
}

TEST(SortedJson, FloatsComeOutAsSerdeParsesThem) {
  // serde_json's default float parser is off by one ulp on these (seen in real PyTorch traces:
  // tlparse 0.4.3 writes the right-hand values into raw.jsonl and chromium_events.json).
  EXPECT_EQ(serialize("[1715885247.9018195, 0.10665464401245117]", false), "[1715885247.9018197,0.10665464401245116]");
}

TEST(HtmlEscape, EscapesMarkupAndQuotes) {
  EXPECT_EQ(html_escape("<a href=\"x\">'&'</a>"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  EXPECT_EQ(html_escape(std::string("nul\0byte", 8)), std::string("nul\0byte", 8));
}

TEST(HtmlEscape, OnlyWebUrlsBecomeLinks) {
  EXPECT_TRUE(is_web_url("https://example.com/a"));
  EXPECT_TRUE(is_web_url("HTTP://example.com"));
  EXPECT_TRUE(is_web_url("-_0_0_0/dynamo_output_graph_0.txt"));
  EXPECT_TRUE(is_web_url("dump_file/a:b.html"));
  EXPECT_FALSE(is_web_url("javascript:alert(1)"));
  EXPECT_FALSE(is_web_url("JavaScript:alert(1)"));
  EXPECT_FALSE(is_web_url("data:text/html,<script>x</script>"));
}

}  // namespace
}  // namespace kiln::report
