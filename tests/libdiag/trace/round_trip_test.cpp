// Writer -> reader round trip of many random records: keys, metadata, ids, ranks, stacks and
// payload bytes come back unchanged and every MD5 checks out.
#include <cmath>
#include <cstring>
#include <random>

#include <gtest/gtest.h>

#include "libdiag/trace/trace_writer.h"
#include "tests/libdiag/trace/collecting_visitor.h"
#include "tests/support/shared_data.h"

namespace kiln::trace {
namespace {

class RandomTrace {
 public:
  explicit RandomTrace(uint64_t seed) : rng_(seed) {}

  size_t below(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }

  // Random UTF-8: ASCII, controls, Latin, CJK and astral-plane characters. Payload text keeps
  // "\n" (line structure) but never "\r", which readers strip before a newline.
  std::string text(size_t max_length, bool payload) {
    std::string out;
    const size_t length = below(max_length + 1);
    for (size_t i = 0; i < length; ++i) {
      uint32_t code;
      switch (below(8)) {
        case 0: code = static_cast<uint32_t>(below(0x20)); break;
        case 1: code = static_cast<uint32_t>(0x80 + below(0x780)); break;
        case 2: code = static_cast<uint32_t>(0x4E00 + below(0x5000)); break;
        case 3: code = static_cast<uint32_t>(0x10000 + below(0x100000)); break;
        case 4: code = '\n'; break;
        default: code = static_cast<uint32_t>(0x20 + below(0x5F)); break;
      }
      if (payload && code == '\r') code = ' ';
      append_utf8(out, code);
    }
    return out;
  }

  TraceJson json(int depth) {
    switch (below(depth > 0 ? 8 : 6)) {
      case 0: return nullptr;
      case 1: return chance(0.5);
      case 2: return static_cast<int64_t>(rng_());
      case 3: return static_cast<uint64_t>(rng_()) | (uint64_t{1} << 63);
      case 4: {
        double value;
        do {
          const uint64_t bits = rng_();
          std::memcpy(&value, &bits, sizeof value);
        } while (!std::isfinite(value));
        return value;
      }
      case 5: return text(12, false);
      case 6: {
        TraceJson array = TraceJson::array();
        for (size_t n = below(4); n > 0; --n) array.push_back(json(depth - 1));
        return array;
      }
      default: {
        TraceJson object = TraceJson::object();
        for (size_t n = below(4); n > 0; --n) object[text(6, false)] = json(depth - 1);
        return object;
      }
    }
  }

  std::optional<uint32_t> part() { return chance(0.3) ? std::nullopt : std::optional<uint32_t>(below(5)); }

 private:
  static void append_utf8(std::string& out, uint32_t code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  std::mt19937_64 rng_;
};

struct Written {
  std::string key;
  TraceJson metadata;
  CompileId compile_id;
  std::vector<TraceFrame> stack;
  std::optional<std::string> payload;
};

Written random_record(RandomTrace& random) {
  Written w;
  switch (random.below(4)) {
    case 0:  // any metadata shape under a key tlparse does not know
      w.key = "kiln_event_" + std::to_string(random.below(3));
      w.metadata = random.json(4);
      break;
    case 1:  // known keys whose schema accepts any object
      w.key = random.chance(0.5) ? "aot_forward_graph" : "dynamo_output_graph";
      w.metadata = TraceJson::object();
      for (size_t n = random.below(3); n > 0; --n) w.metadata[random.text(5, false)] = random.json(3);
      break;
    case 2:
      w.key = "artifact";
      w.metadata = {{"name", random.text(10, false)}, {"encoding", random.chance(0.5) ? "string" : "json"}};
      break;
    default:
      w.key = "compilation_metrics";
      w.metadata = {{"co_name", random.text(8, false)}, {"graph_op_count", random.below(100)},
                    {"restart_reasons", TraceJson::array({random.text(20, false)})}, {"fail_type", nullptr}};
      break;
  }
  if (random.chance(0.7)) {
    w.compile_id.compiled_autograd_id = random.chance(0.2) ? random.part() : std::nullopt;
    w.compile_id.frame_id = random.part();
    w.compile_id.frame_compile_id = random.part();
    w.compile_id.attempt = random.part();
  } else if (random.chance(0.5)) {
    for (size_t n = 1 + random.below(3); n > 0; --n)
      w.stack.push_back({"/src/" + random.text(6, false), static_cast<int32_t>(random.below(500)),
                         random.text(6, false), random.chance(0.5) ? std::optional(random.text(10, false)) : std::nullopt});
  }
  switch (random.below(6)) {
    case 0: break;
    case 1: w.payload = ""; break;
    case 2: w.payload = "\n" + random.text(30, true) + "\n\n" + random.text(30, true) + "\n"; break;
    case 3: w.payload = list_payload(random.json(3).is_array() ? random.json(3) : TraceJson::array({random.json(2)})); break;
    case 4: w.payload = json_payload(random.json(3)); break;
    default: w.payload = random.text(400, true); break;
  }
  return w;
}

void write_record(TraceWriter& writer, const Written& w) {
  TraceContext context;
  if (w.compile_id != CompileId{}) context.compile_id = w.compile_id;
  context.stack = w.stack;
  writer.record(w.key, w.metadata, context, w.payload ? std::optional<std::string_view>(*w.payload) : std::nullopt);
}

void check_round_trip(uint64_t seed, std::optional<uint32_t> rank) {
  const auto dir = kiln::test::scratchDir("trace_round_trip_" + std::to_string(seed));
  RandomTrace random(seed);
  std::vector<Written> written;
  {
    TraceWriter writer(dir, rank);
    for (int i = 0; i < 600; ++i) {
      written.push_back(random_record(random));
      write_record(writer, written.back());
    }
  }
  const auto files = std::vector(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator());
  ASSERT_EQ(files.size(), 1u);
  test::CollectingVisitor visitor;
  TraceReader reader(visitor);
  const ReadResult result = reader.read_file(files[0].path());
  EXPECT_EQ(result.counters.ok, written.size());
  EXPECT_EQ(result.counters.strict_failures(), 0u) << result.counters.format();
  ASSERT_EQ(visitor.records.size(), written.size());
  for (size_t i = 0; i < written.size(); ++i) {
    const Written& w = written[i];
    const test::CollectedRecord& r = visitor.records[i];
    SCOPED_TRACE("record " + std::to_string(i) + " on line " + std::to_string(r.line));
    EXPECT_FALSE(r.other_rank);
    EXPECT_EQ(r.event_keys, std::vector<std::string>{w.key});
    EXPECT_EQ(r.compile_id, w.stack.empty() ? w.compile_id : CompileId{});
    EXPECT_EQ(r.rank, rank ? std::optional<int64_t>(*rank) : std::nullopt);
    EXPECT_EQ(r.has_payload.has_value(), w.payload.has_value());
    EXPECT_EQ(r.payload, w.payload.value_or(""));
    EXPECT_TRUE(r.payload_md5_ok);
    const TraceJson envelope = TraceJson::parse(r.envelope_text);
    EXPECT_EQ(envelope.begin().key(), w.key);
    EXPECT_EQ(envelope.at(w.key), w.metadata);
    if (!w.stack.empty()) {
      const TraceJson& frames = envelope.at("stack");
      ASSERT_EQ(frames.size(), w.stack.size());
      for (size_t f = 0; f < frames.size(); ++f) {
        EXPECT_EQ(result.string_table.at(frames[f].at("filename").get<uint32_t>()), w.stack[f].filename);
        EXPECT_EQ(frames[f].at("name"), w.stack[f].name);
        EXPECT_EQ(frames[f].at("line"), w.stack[f].line);
        EXPECT_EQ(frames[f].contains("loc"), w.stack[f].loc.has_value());
      }
    }
  }
}

TEST(TraceRoundTrip, RandomRecordsWithoutRank) { check_round_trip(1, std::nullopt); }
TEST(TraceRoundTrip, RandomRecordsWithRank) { check_round_trip(2, 5); }
TEST(TraceRoundTrip, MoreSeeds) {
  for (uint64_t seed = 3; seed < 8; ++seed) check_round_trip(seed, seed % 2 ? std::optional<uint32_t>(0) : std::nullopt);
}

}  // namespace
}  // namespace kiln::trace
