#include "libdiag/report/metadata_fields.h"

namespace kiln::report {

std::optional<simdjson::dom::element> element_field(simdjson::dom::element metadata, std::string_view name) {
  simdjson::dom::object object;
  simdjson::dom::element value;
  if (metadata.get_object().get(object) || object[name].get(value) || value.is_null()) return std::nullopt;
  return value;
}

bool has_field(simdjson::dom::element metadata, std::string_view name) {
  simdjson::dom::object object;
  simdjson::dom::element value;
  return !metadata.get_object().get(object) && !object[name].get(value);
}

std::optional<std::string_view> string_field(simdjson::dom::element metadata, std::string_view name) {
  auto value = element_field(metadata, name);
  std::string_view text;
  if (!value || value->get_string().get(text)) return std::nullopt;
  return text;
}

std::optional<uint64_t> uint_field(simdjson::dom::element metadata, std::string_view name) {
  auto value = element_field(metadata, name);
  uint64_t number = 0;
  if (!value || value->get_uint64().get(number)) return std::nullopt;
  return number;
}

std::optional<int64_t> int_field(simdjson::dom::element metadata, std::string_view name) {
  auto value = element_field(metadata, name);
  int64_t number = 0;
  if (!value || value->get_int64().get(number)) return std::nullopt;
  return number;
}

std::optional<double> double_field(simdjson::dom::element metadata, std::string_view name) {
  auto value = element_field(metadata, name);
  double number = 0;
  if (!value || value->get_double().get(number)) return std::nullopt;
  return number;
}

std::optional<std::vector<std::string>> string_list_field(simdjson::dom::element metadata, std::string_view name) {
  auto value = element_field(metadata, name);
  simdjson::dom::array array;
  if (!value || value->get_array().get(array)) return std::nullopt;
  std::vector<std::string> list;
  for (simdjson::dom::element item : array) {
    std::string_view text;
    if (!item.get_string().get(text)) list.emplace_back(text);
  }
  return list;
}

}  // namespace kiln::report
