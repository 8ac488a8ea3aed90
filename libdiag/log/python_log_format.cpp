#include "libdiag/log/python_log_format.h"

#include <array>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <optional>

#include "libdiag/log/log_settings.h"

namespace kiln::log {
namespace {

constexpr std::string_view kBasicFormat = "%(levelname)s:%(name)s:%(message)s";

enum class FieldType { Text, Integer, Real };

struct Field {
  std::string_view name;
  FieldType type;
};

constexpr std::array kFields = {
    Field{"name", FieldType::Text},       Field{"levelname", FieldType::Text},
    Field{"levelno", FieldType::Integer}, Field{"pathname", FieldType::Text},
    Field{"filename", FieldType::Text},   Field{"module", FieldType::Text},
    Field{"lineno", FieldType::Integer},  Field{"message", FieldType::Text},
    Field{"process", FieldType::Integer}, Field{"asctime", FieldType::Text},
    Field{"msecs", FieldType::Real},
};

std::optional<FieldType> field_type(std::string_view name) {
  for (const Field& field : kFields)
    if (field.name == name) return field.type;
  return std::nullopt;
}

bool conversion_fits(char conversion, FieldType type) {
  switch (conversion) {
    case 's': return true;
    case 'd':
    case 'i':
    case 'f': return type != FieldType::Text;
    default: return false;
  }
}

std::string_view file_name(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string_view module_name(std::string_view path) {
  const std::string_view file = file_name(path);
  return file.substr(0, file.rfind('.'));
}

// Python's LogRecord.msecs: the milliseconds of the creation time.
long long milliseconds_of(const LogRecord& record) {
  using namespace std::chrono;
  return duration_cast<milliseconds>(record.time.time_since_epoch()).count() % 1000;
}

// Python's default Formatter.formatTime: "2026-11-22 08:17:16,229".
std::string asctime_of(const LogRecord& record) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(record.time);
  std::tm local{};
  localtime_r(&seconds, &local);
  char text[48];
  const size_t length = std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &local);
  std::snprintf(text + length, sizeof text - length, ",%03lld", milliseconds_of(record));
  return text;
}

std::string text_value(std::string_view field, const LogRecord& record) {
  if (field == "name") return std::string(record.logger_name);
  if (field == "levelname") return std::string(level_name(record.level));
  if (field == "pathname") return std::string(record.path);
  if (field == "filename") return std::string(file_name(record.path));
  if (field == "module") return std::string(module_name(record.path));
  if (field == "message") return std::string(record.message);
  return asctime_of(record);
}

double number_value(std::string_view field, const LogRecord& record) {
  if (field == "levelno") return static_cast<int>(record.level);
  if (field == "lineno") return record.line;
  if (field == "process") return static_cast<double>(record.process_id);
  return static_cast<double>(milliseconds_of(record));
}

template <typename Value>
std::string printf_one(const std::string& spec, Value value) {
  const int length = std::snprintf(nullptr, 0, spec.c_str(), value);
  std::string text(static_cast<size_t>(length) + 1, '\0');
  std::snprintf(text.data(), text.size(), spec.c_str(), value);
  text.resize(static_cast<size_t>(length));
  return text;
}

}  // namespace

PythonLogFormat PythonLogFormat::parse(std::string_view format) {
  if (format == "short" || format == "basic") format = kBasicFormat;
  const auto invalid = [&] {
    return LogSettingsError("Invalid format '" + std::string(format) + "' for '%' style");
  };

  PythonLogFormat parsed;
  Piece piece;
  size_t i = 0;
  const auto take = [&](auto accept) {
    const size_t start = i;
    while (i < format.size() && accept(format[i])) ++i;
    return std::string(format.substr(start, i - start));
  };
  const auto is_digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  const auto is_flag = [](char c) {
    return std::string_view("#0+ -").find(c) != std::string_view::npos;
  };
  while (i < format.size()) {
    if (format[i] != '%') {
      piece.literal += format[i++];
      continue;
    }
    if (format.substr(i, 2) == "%%") {
      piece.literal += '%';
      i += 2;
      continue;
    }
    if (format.substr(i, 2) != "%(") throw invalid();
    const size_t close = format.find(')', i);
    if (close == std::string_view::npos) throw invalid();
    piece.field = format.substr(i + 2, close - i - 2);
    i = close + 1;
    piece.flags = take(is_flag);
    piece.width = take(is_digit);
    if (i < format.size() && format[i] == '.') {
      ++i;
      piece.precision = '.';
      piece.precision += take(is_digit);
    }
    if (i == format.size()) throw invalid();
    piece.conversion = format[i++];
    const auto type = field_type(piece.field);
    if (!type)
      throw LogSettingsError("Formatting field not found in record: '" + piece.field + "'");
    if (!conversion_fits(piece.conversion, *type)) throw invalid();
    parsed.pieces_.push_back(std::move(piece));
    piece = Piece{};
  }
  if (parsed.pieces_.empty()) throw invalid();  // Python demands at least one field
  parsed.pieces_.push_back(std::move(piece));   // the trailing text
  return parsed;
}

std::string PythonLogFormat::format(const LogRecord& record) const {
  std::string text;
  for (const Piece& piece : pieces_) {
    text += piece.literal;
    if (piece.field.empty()) continue;
    const std::string spec = "%" + piece.flags + piece.width + piece.precision;
    const FieldType type = *field_type(piece.field);
    if (piece.conversion == 's' && type == FieldType::Text) {
      text += printf_one(spec + "s", text_value(piece.field, record).c_str());
    } else if (piece.conversion == 's') {
      // Python's str() of a number: msecs is a float ("229.0"), the others are ints.
      const double value = number_value(piece.field, record);
      std::string shown = type == FieldType::Real ? printf_one("%.1f", value)
                                                  : std::to_string(static_cast<long long>(value));
      text += printf_one(spec + "s", shown.c_str());
    } else if (piece.conversion == 'f') {
      text += printf_one(spec + "f", number_value(piece.field, record));
    } else {
      text += printf_one(spec + "lld", static_cast<long long>(number_value(piece.field, record)));
    }
  }
  return text;
}

}  // namespace kiln::log
