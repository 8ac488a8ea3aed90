#include "libcompiler/capture/explain.h"

#include <cstdio>

#include "libcompiler/capture/compile_times.h"

namespace kiln::capture {

namespace {

std::string address_of(const void* p) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(p)));
  return text;
}

// How Python prints the callable a call_function target names.
std::string target_repr(const std::string& target) {
  static const int torch_functions = 0;
  std::string name = target.substr(target.rfind('.') + 1);
  if (target.rfind("operator.", 0) == 0 || target.rfind("torch._C.", 0) == 0) return "<built-in function " + name + ">";
  if (target.rfind("torch.nn.functional.", 0) == 0) return "<function " + name + " at " + address_of(&target) + ">";
  if (target.rfind("torch.", 0) == 0) return "<built-in method " + name + " of type object at " + address_of(&torch_functions) + ">";
  return target;
}

void append_guard(std::string& out, size_t index, const std::string& name, const std::string& source, const std::string& function,
                  const std::string& types, const std::string& code) {
  out += "  Guard " + std::to_string(index) + ":\n    Name: " + name + "\n    Source: " + source + "\n    Create Function: " + function +
         "\n    Guard Types: " + types + "\n    Code List: " + code + "\n    Object Weakref: None\n    Guarded Class Weakref: None\n";
}

}  // namespace

Explanation explain(const std::vector<CompileRecord>& records) {
  Explanation e;
  std::string breaks, ops, guards;
  size_t guard_index = 0;
  for (const CompileRecord& r : records) {
    if (!r.break_reasons.empty()) {
      ++e.graph_break_count;
      breaks += "  Break Reason " + std::to_string(e.graph_break_count) + ":\n    Reason: " + r.break_reasons.front() + "\n    User Stack:\n";
      if (!r.break_stack.empty()) {
        const UserFrame& f = r.break_stack.back();
        breaks += "      <FrameSummary file " + f.filename + ", line " + std::to_string(f.line) + " in " +
                  (f.compiled ? r.co_name : f.function) + ">\n";
      }
      continue;
    }
    if (!r.op_count || *r.op_count == 0) continue;
    ++e.graph_count;
    ops += "  Ops " + std::to_string(e.graph_count) + ":\n";
    // The ops explain counts and lists are the call_function nodes (method calls are not).
    for (const std::string& target : r.ops)
      if (target.find('.') != std::string::npos) {
        ++e.op_count;
        ops += "    " + target_repr(target) + "\n";
      }
    for (const char* global : {"SHAPE_ENV", "DETERMINISTIC_ALGORITHMS", "GRAD_MODE", "DEFAULT_DEVICE", "GLOBAL_STATE",
                               "TORCH_FUNCTION_STATE", "AUTOGRAD_SAVED_TENSORS_HOOKS"}) {
      std::string function = global;
      bool has_code = function == "DEFAULT_DEVICE" || function == "AUTOGRAD_SAVED_TENSORS_HOOKS";
      std::string code = function == "DEFAULT_DEVICE" ? "['utils_device.CURRENT_DEVICE == None']"
                                                      : "['torch._functorch.aot_autograd.utils.top_saved_tensors_hooks ids == None']";
      append_guard(guards, ++guard_index, "''", function == "SHAPE_ENV" ? "shape_env" : "global", function,
                   has_code ? "['" + function + "']" : "None", has_code ? code : "None");
    }
    for (const std::string& tensor : r.tensor_guards)
      append_guard(guards, ++guard_index, "\"" + tensor + "\"", tensor.rfind("G[", 0) == 0 ? "global" : "local", "TENSOR_MATCH",
                   "['TENSOR_MATCH']", "[\"hasattr(" + tensor + ", '_dynamo_dynamic_indices') == False\"]");
  }
  e.text = "Graph Count: " + std::to_string(e.graph_count) + "\nGraph Break Count: " + std::to_string(e.graph_break_count) +
           "\nOp Count: " + std::to_string(e.op_count) + "\nBreak Reasons:\n" + breaks + "Ops per Graph:\n" + ops + "Out Guards:\n" +
           guards + "Compile Times: " + compile_times().table();
  return e;
}

}  // namespace kiln::capture
