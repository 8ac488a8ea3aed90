// python_json_dumps against the output of CPython's json.dumps for the same values.
#include <gtest/gtest.h>

#include <cmath>

#include "libdiag/trace/python_json.h"
#include "libdiag/trace/trace_writer.h"

namespace kiln::trace {
namespace {

TEST(PythonJson, FloatsUseReprForm) {
  const std::pair<double, const char*> cases[] = {
      {1733527100252271.5, "1733527100252271.5"},
      {1e15, "1000000000000000.0"},
      {1e16, "1e+16"},
      {1.5e16, "1.5e+16"},
      {123456789.0, "123456789.0"},
      {0.0001, "0.0001"},
      {0.00001, "1e-05"},
      {1e-7, "1e-07"},
      {-2.5, "-2.5"},
      {0.1, "0.1"},
      {1.0 / 3.0, "0.3333333333333333"},
      {5e-324, "5e-324"},
      {1.7976931348623157e308, "1.7976931348623157e+308"},
      {100.0, "100.0"},
      {12345678901234567.0, "1.2345678901234568e+16"},
      {-0.0, "-0.0"},
      {0.0, "0.0"},
  };
  for (const auto& [value, expected] : cases) EXPECT_EQ(python_json_dumps(TraceJson(value)), expected);
  EXPECT_EQ(python_json_dumps(TraceJson(std::nan(""))), "null");
}

TEST(PythonJson, SeparatorsEscapesAndInsertionOrder) {
  TraceJson value;
  value["a"] = {1, 2, {{"b", nullptr}}};
  value["\xC3\xA9"] = "snow \xE2\x98\x83 \xF0\x9F\x98\x80 \x7F \x01 \t \" \\ /";
  value["t"] = true;
  EXPECT_EQ(python_json_dumps(value),
            R"({"a": [1, 2, {"b": null}], "\u00e9": "snow \u2603 \ud83d\ude00 \u007f \u0001 \t \" \\ /", "t": true})");
}

TEST(PythonJson, IndentZero) {
  const TraceJson value = {{"name", "dynamo"},
                           {"ts", 1.5},
                           {"args", {{"compile_id", "0/0"}}},
                           {"e", TraceJson::object()},
                           {"l", TraceJson::array()},
                           {"n", {1, {2}}}};
  EXPECT_EQ(python_json_dumps(value, PythonJsonLayout::IndentZero),
            "{\n\"name\": \"dynamo\",\n\"ts\": 1.5,\n\"args\": {\n\"compile_id\": \"0/0\"\n},\n\"e\": {},\n\"l\": [],"
            "\n\"n\": [\n1,\n[\n2\n]\n]\n}");
}

TEST(PythonJson, ListPayloadsHaveOneElementPerLine) {
  EXPECT_EQ(list_payload({{{"code", "x"}, {"stack", nullptr}}, 1}), "[\n{\"code\": \"x\", \"stack\": null},\n1\n]");
  EXPECT_EQ(list_payload(TraceJson::array()), "[\n\n]");
}

}  // namespace
}  // namespace kiln::trace
