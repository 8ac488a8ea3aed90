#pragma once
// The readable companion of inductor_provenance_tracking_kernel_stack_traces*.json (§6.2): one
// heading per kernel and one <pre> per stack trace.
#include <optional>
#include <string>
#include <string_view>

namespace kiln::report {

// True for the produced file names that get a companion.
bool is_kernel_stack_traces_json(std::string_view file_name);
// "x_14.json" -> "x_14_readable.html".
std::string readable_companion_name(std::string_view json_file_name);
// The companion page of the JSON `{kernel: [trace, ...]}` (no kernels listed if the JSON has another
// shape); nullopt when the text is not JSON at all, and then tlparse writes no companion.
std::optional<std::string> render_kernel_stack_traces_readable(std::string_view json);

}  // namespace kiln::report
