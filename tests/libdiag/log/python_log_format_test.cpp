#include "libdiag/log/python_log_format.h"

#include <gtest/gtest.h>

#include <ctime>

#include "libdiag/log/log_settings.h"

namespace kiln::log {
namespace {

LogRecord sample_record() {
  std::tm fields{};
  fields.tm_year = 2026 - 1900;
  fields.tm_mon = 10;
  fields.tm_mday = 22;
  fields.tm_hour = 8;
  fields.tm_min = 17;
  fields.tm_sec = 16;
  fields.tm_isdst = -1;
  LogRecord record;
  record.level = Level::Info;
  record.time = std::chrono::system_clock::from_time_t(std::mktime(&fields)) +
                std::chrono::milliseconds(229);
  record.process_id = 431;
  record.logger_name = "torch.fx.experimental.symbolic_shapes";
  record.path = "torch/fx/experimental/symbolic_shapes.py";
  record.line = 3945;
  record.compile_id = "0/0";
  record.message = "create_env\nsecond line";
  return record;
}

std::string formatted(const std::string& format) {
  return PythonLogFormat::parse(format).format(sample_record());
}

std::string format_error_of(const std::string& format) {
  try {
    PythonLogFormat::parse(format);
  } catch (const LogSettingsError& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(PythonLogFormat, FieldsAndConversions) {
  EXPECT_EQ(formatted("%(levelname)s: %(message)s"), "INFO: create_env\nsecond line");
  EXPECT_EQ(formatted("%(name)s %(module)s %(filename)s %(pathname)s"),
            "torch.fx.experimental.symbolic_shapes symbolic_shapes symbolic_shapes.py "
            "torch/fx/experimental/symbolic_shapes.py");
  EXPECT_EQ(formatted("[%(lineno)6d|%(levelno)-4d|%(process)d]"), "[  3945|20  |431]");
  EXPECT_EQ(formatted("%(levelname)-8s|%(levelname).3s|%(lineno)s%%"), "INFO    |INF|3945%");
  EXPECT_EQ(formatted("%(asctime)s %(msecs)03d %(msecs)s"), "2026-11-22 08:17:16,229 229 229.0");
}

TEST(PythonLogFormat, ShortAndBasicAreLoggingsBasicFormat) {
  EXPECT_EQ(formatted("short"),
            "INFO:torch.fx.experimental.symbolic_shapes:create_env\nsecond line");
  EXPECT_EQ(formatted("basic"), formatted("%(levelname)s:%(name)s:%(message)s"));
}

TEST(PythonLogFormat, BadFormatsRaiseLikePython) {
  EXPECT_EQ(format_error_of("no fields"), "Invalid format 'no fields' for '%' style");
  EXPECT_EQ(format_error_of("%%"), "Invalid format '%%' for '%' style");
  EXPECT_EQ(format_error_of("%(message)"), "Invalid format '%(message)' for '%' style");
  EXPECT_EQ(format_error_of("%(message)d"), "Invalid format '%(message)d' for '%' style");
  EXPECT_EQ(format_error_of("%(levelname)s %d"), "Invalid format '%(levelname)s %d' for '%' style");
  EXPECT_EQ(format_error_of("%(color)s"), "Formatting field not found in record: 'color'");
}

}  // namespace
}  // namespace kiln::log
