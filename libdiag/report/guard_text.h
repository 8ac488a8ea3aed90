#pragma once
// The guards of a compile as comparable lines, from what the trace carries: the tree PyTorch
// 2.x prints (dynamo_cpp_guards_str: "| | +- TENSOR_MATCH: check_tensor(L['x'], ...)  # x + 1")
// or the list older versions logged (dynamo_guards: [{"code": "..."}]). Object ids and
// addresses, which differ from run to run, are masked so the same guard compares equal.
#include <string>
#include <string_view>
#include <vector>

namespace kiln::report {

std::vector<std::string> guards_of_tree(std::string_view cpp_guards_str);
std::vector<std::string> guards_of_json_list(std::string_view dynamo_guards_payload);

}  // namespace kiln::report
