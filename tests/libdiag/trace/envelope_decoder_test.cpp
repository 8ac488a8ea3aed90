// Envelope decoding with tlparse's serde rules (reference §2.2, §3.2, §4.1, §4.2).
#include <gtest/gtest.h>

#include "libdiag/trace/envelope_decoder.h"
#include "libdiag/trace/event_schema.h"

namespace kiln::trace {
namespace {

struct Decoded {
  bool ok = false;
  std::string error;
  DecodedEnvelope envelope;
};

Decoded decode(const std::string& json) {
  static simdjson::dom::parser parser;
  Decoded out;
  simdjson::dom::element element = parser.parse(json).value();
  out.ok = decode_envelope(element.get_object().value(), out.envelope, out.error);
  return out;
}

TEST(EnvelopeDecoder, AcceptsWhatTlparseAccepts) {
  for (const char* json : {
           R"({"dynamo_output_graph": {"sizes": {"l_x_": [4, "s0"]}}})",
           R"({"dynamo_output_graph": {"_sizes": {"l_x_": [4, "s0"]}}})",
           R"({"optimize_ddp_split_graph": []})",
           R"({"artifact": ["name", "string"]})",
           R"({"artifact": {"name": "a", "encoding": "weird", "extra": 1}})",
           R"({"compilation_metrics": {"co_firstlineno": -3, "start_time": 5, "fail_type": null, "x": [1]}})",
           R"({"describe_tensor": {"id": 0, "describer_id": 0, "ndim": 1, "dtype": "f", "device": "cpu", "size": [3], "storage_offset": "s0", "is_leaf": true, "view_func": "x"}})",
           R"({"guard_added": {"frame_locals": {"locals": {"x": null, "y": "1"}}, "symbol_to_sources": {"s0": "L['x']"}}})",
           R"({"dynamo_start": {"stack": [{"line": -1, "name": "f", "filename": 4294967295, "loc": null}]}})",
           R"({"chromium_event": null, "rank": null, "has_payload": null, "stack": null})",
           R"({"str": ["/a.py", 4294967295]})",
       }) {
    const Decoded decoded = decode(json);
    EXPECT_TRUE(decoded.ok) << json << ": " << decoded.error;
  }
}

TEST(EnvelopeDecoder, RejectsKnownKeysThatDoNotFit) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"dynamo_output_graph": {"_sizes": {"l_x_": [4.5]}}})", "SymInt"},
      {R"({"optimize_ddp_split_graph": [1]})", "invalid length"},
      {R"({"optimize_ddp_split_graph": "x"})", "invalid type"},
      {R"({"artifact": ["name"]})", "invalid length"},
      {R"({"artifact": {"name": "a", "encoding": null}})", "invalid type: null"},
      {R"({"artifact": {"name": "a"}})", "missing field `encoding`"},
      {R"({"artifact": {"name": "a", "name": "b", "encoding": "string"}})", "duplicate field `name`"},
      {R"({"compilation_metrics": {"co_firstlineno": 1.0}})", "expected i32"},
      {R"({"compilation_metrics": {"graph_op_count": -1}})", "expected u64"},
      {R"({"compilation_metrics": {"restart_reasons": [null]}})", "expected a string"},
      {R"({"describe_tensor": {"id": 0, "describer_id": 0, "ndim": 1, "dtype": "f", "device": "cpu", "size": [3], "is_leaf": null}})", "is_leaf"},
      {R"({"describe_tensor": [0, 0, 1, "f", "cpu", [3]]})", "expected struct DescribeTensor"},
      {R"({"str": {"string": "/a.py", "index": 0}})", "expected a tuple"},
      {R"({"str": ["/a.py", 4294967296]})", "expected u32"},
      {R"({"dynamo_start": {"stack": [{"line": 1, "name": "f", "filename": -1}]}})", "expected u32"},
      {R"({"rank": -1})", "field `rank`"},
      {R"({"has_payload": 5})", "field `has_payload`"},
      {R"({"rank": 0, "rank": 0})", "duplicate field `rank`"},
      {R"({"stack": {}})", "field `stack`"},
  };
  for (const auto& [json, error] : cases) {
    const Decoded decoded = decode(json);
    EXPECT_FALSE(decoded.ok) << json;
    EXPECT_NE(decoded.error.find(error), std::string::npos) << json << ": " << decoded.error;
  }
}

TEST(EnvelopeDecoder, CompileIdKeysStopAtTheFirstMalformedOne) {
  Decoded decoded = decode(R"({"compiled_autograd_id": null, "frame_id": 1, "frame_compile_id": 2, "attempt": 0})");
  ASSERT_TRUE(decoded.ok);
  EXPECT_EQ(decoded.envelope.compile_id.display(), "[1/2]");
  EXPECT_TRUE(decoded.envelope.unknown_keys.empty());

  decoded = decode(R"({"frame_id": 0, "attempt": -1, "frame_compile_id": 0, "frame_compile_id": 1})");
  ASSERT_TRUE(decoded.ok);  // a bad id never rejects the line
  EXPECT_TRUE(decoded.envelope.compile_id.malformed);
  EXPECT_EQ(decoded.envelope.unknown_keys, std::vector<std::string_view>{"frame_compile_id"});

  decoded = decode(R"({"frame_id": 0, "frame_id": 0, "attempt": 1})");
  ASSERT_TRUE(decoded.ok);
  EXPECT_TRUE(decoded.envelope.compile_id.malformed);
  EXPECT_EQ(decoded.envelope.unknown_keys, std::vector<std::string_view>{"attempt"});

  decoded = decode(R"({"chromium_event": {}})");
  ASSERT_TRUE(decoded.ok);
  EXPECT_EQ(decoded.envelope.compile_id, CompileId{});
  EXPECT_EQ(decoded.envelope.compile_id.display(), "[-/-]");
}

TEST(EnvelopeDecoder, EventKeysAndUnknownKeysInOrder) {
  const Decoded decoded =
      decode(R"({"create_symbol": {}, "artifact": {"name": "a", "encoding": "json"}, "link": null, "x": 1, "x": 2})");
  ASSERT_TRUE(decoded.ok) << decoded.error;
  EXPECT_EQ(decoded.envelope.event_keys, (std::vector<std::string_view>{"create_symbol", "artifact", "x"}));
  EXPECT_EQ(decoded.envelope.unknown_keys, (std::vector<std::string_view>{"create_symbol", "x"}));
}

TEST(EnvelopeDecoder, InterningRecord) {
  const Decoded decoded = decode(R"({"str": ["/data/x.py", 12]})");
  ASSERT_TRUE(decoded.ok);
  ASSERT_TRUE(decoded.envelope.interned_string);
  EXPECT_EQ(*decoded.envelope.interned_string, "/data/x.py");
  EXPECT_EQ(decoded.envelope.interned_index, 12u);
}

TEST(EventSchema, EveryKeyOfTheReferenceTableIsKnown) {
  EXPECT_EQ(kEventKeyCount, 35u);
  for (size_t i = 0; i < kEventKeyCount; ++i) {
    const auto key = static_cast<EventKey>(i);
    EXPECT_EQ(find_event_key(event_key_name(key)), key);
  }
  EXPECT_FALSE(find_event_key("create_symbol"));  // unknown to tlparse 0.4.3
  EXPECT_FALSE(find_event_key("compilation_metrics_runtime"));
  EXPECT_EQ(event_schema(*find_event_key("guard_added")), SchemaId::PropagateRealTensors);
}

}  // namespace
}  // namespace kiln::trace
