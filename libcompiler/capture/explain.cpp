#include "libcompiler/capture/explain.h"

#include <cstdio>

#include "libcompiler/capture/compile_times.h"
#include "libcompiler/ir/target.h"
#include "libcompiler/python/interp/object.h"
#include "libcompiler/python/torch/torch_module.h"

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
  const std::string name = target.substr(target.rfind('.') + 1);
  switch (ir::resolveTarget(ir::OpCode::CallFunction, target).ns) {
    case ir::TargetNamespace::PythonOperator:
    case ir::TargetNamespace::TorchC: return "<built-in function " + name + ">";
    case ir::TargetNamespace::NnFunctional: return "<function " + name + " at " + address_of(&target) + ">";
    case ir::TargetNamespace::Aten:
    case ir::TargetNamespace::HigherOrder:
    case ir::TargetNamespace::OtherOps:
    case ir::TargetNamespace::Torch: return "<built-in method " + name + " of type object at " + address_of(&torch_functions) + ">";
    case ir::TargetNamespace::Other: return target;
  }
  return target;
}

std::string weakref(const std::weak_ptr<python::Object>& object, const std::string& kind) {
  static const int weakref_address = 0;
  std::string head = "<weakref at " + address_of(&weakref_address) + "; ";
  if (kind.empty()) return "None";
  auto live = object.lock();
  if (!live) return head + "dead>";
  return head + "to '" + kind + "' at " + address_of(live.get()) + ">";
}

std::string class_weakref(const ExplainGuard& g) {
  static const int weakref_address = 0;
  if (g.class_kind.empty()) return "None";
  return "<weakref at " + address_of(&weakref_address) + "; to '" + g.class_kind + "' at " + address_of(&g) + " (" + g.class_name +
         ")>";
}

// str(guard) as ExplainOutput prints it after "    ".
std::string guard_text(const ExplainGuard& g) {
  return "Name: " + (g.name.empty() ? "''" : "\"" + g.name + "\"") + "\n    Source: " + g.source + "\n    Create Function: " +
         g.create_function + "\n    Guard Types: " + g.guard_types + "\n    Code List: " + g.code_list +
         "\n    Object Weakref: " + weakref(g.object, g.object_kind) + "\n    Guarded Class Weakref: " + class_weakref(g) + "\n";
}

// Python's repr of the object an ID_MATCH guard names, as its Code List shows it.
std::string object_repr(const python::Ref& value) {
  using python::ObjectKind;
  switch (value->kind) {
    case ObjectKind::Module: {
      const std::string& name = python::as<python::ModuleObject>(value).name;
      std::string path = name;
      for (char& c : path)
        if (c == '.') c = '/';
      return "<module '" + name + "' from '" + path + "/__init__.py'>";
    }
    case ObjectKind::NativeFunction: {
      const auto& f = python::as<python::NativeFunctionObject>(value);
      const std::string_view qualname = f.qualname;
      if (const size_t dot = qualname.rfind('.'); dot != std::string_view::npos && python::is_torch_module_name(qualname.substr(0, dot)))
        return target_repr(f.qualname);
      return "<built-in function " + f.name + ">";
    }
    case ObjectKind::Function:
      return "<function " + python::as<python::FunctionObject>(value).qualname + " at " + address_of(value.get()) + ">";
    default: return "<" + value->type->qualified_name() + " object at " + address_of(value.get()) + ">";
  }
}

}  // namespace

Explanation explain(const std::vector<CompileRecord>& records) {
  Explanation e;
  for (const CompileRecord& r : records) {
    if (!r.break_reasons.empty()) {
      ++e.graph_break_count;
      ExplainBreak& b = e.break_reasons.emplace_back(ExplainBreak{r.break_reasons.front(), {}});
      if (!r.break_stack.empty()) {
        UserFrame frame = r.break_stack.back();
        if (frame.compiled) frame.function = r.co_name;
        b.user_stack.push_back(std::move(frame));
      }
      continue;
    }
    if (!r.op_count || *r.op_count == 0) continue;
    ++e.graph_count;
    std::vector<std::string>& ops = e.ops_per_graph.emplace_back();
    std::vector<std::string>& reprs = e.op_reprs.emplace_back();
    // The ops explain counts and lists are the call_function nodes (method calls are not).
    for (const std::string& target : r.ops)
      if (target.find('.') != std::string::npos) {
        ++e.op_count;
        ops.push_back(target);
        reprs.push_back(target_repr(target));
      }
    for (const ExplainGuard& g : r.guards) e.out_guards.push_back(guard_text(g));
  }
  // ExplainOutput's str ends the table's last row itself.
  e.compile_times = compile_times().table();
  if (e.compile_times.ends_with('\n')) e.compile_times.pop_back();
  return e;
}

std::vector<ExplainGuard> explain_guards(python::Interpreter& interp, const GuardSet& set, const FrameInputs& inputs) {
  using python::ObjectKind;
  std::vector<ExplainGuard> out;
  for (const char* framework : {"SHAPE_ENV", "DETERMINISTIC_ALGORITHMS", "GRAD_MODE", "DEFAULT_DEVICE", "GLOBAL_STATE",
                                "TORCH_FUNCTION_STATE", "AUTOGRAD_SAVED_TENSORS_HOOKS"}) {
    std::string function = framework;
    ExplainGuard g{"", function == "SHAPE_ENV" ? "shape_env" : "global", function, "None", "None", {}, "", "", ""};
    if (function == "DEFAULT_DEVICE") {
      g.guard_types = "['DEFAULT_DEVICE']";
      g.code_list = "['utils_device.CURRENT_DEVICE == None']";
    } else if (function == "AUTOGRAD_SAVED_TENSORS_HOOKS") {
      g.guard_types = "['AUTOGRAD_SAVED_TENSORS_HOOKS']";
      g.code_list = "['torch._functorch.aot_autograd.utils.top_saved_tensors_hooks ids == None']";
    }
    out.push_back(std::move(g));
  }
  for (const Guard& guard : set.guards()) {
    if (guard.kind != GuardKind::TensorMatch && guard.kind != GuardKind::IdMatch) continue;
    python::Ref value = guard.source->fetch(interp, inputs);
    if (!value) continue;
    ExplainGuard g;
    g.name = guard.source->text();
    g.source = guard.source->kind() == Source::Kind::Local || (guard.source->base() && guard.source->text()[0] == 'L') ? "local" : "global";
    g.object = value;
    if (guard.kind == GuardKind::TensorMatch) {
      g.create_function = "TENSOR_MATCH";
      g.guard_types = "['TENSOR_MATCH']";
      g.code_list = "[\"hasattr(" + g.name + ", '_dynamo_dynamic_indices') == False\"]";
      g.object_kind = "Tensor";
      g.class_kind = "torch._C._TensorMeta";
      g.class_name = "Tensor";
    } else {
      g.create_function = value->kind == ObjectKind::Module           ? "MODULE_MATCH"
                          : value->kind == ObjectKind::NativeFunction ? "BUILTIN_MATCH"
                          : value->kind == ObjectKind::Function       ? "FUNCTION_MATCH"
                                                                      : "ID_MATCH";
      g.guard_types = "['ID_MATCH']";
      g.code_list = "[\"" + guard.code() + ", type=" + object_repr(value) + "\"]";
      g.object_kind = value->kind == ObjectKind::Module ? "module" : value->kind == ObjectKind::NativeFunction ? "builtin_function_or_method"
                                                                                                                 : value->type->name;
      g.class_kind = "type";
      g.class_name = g.object_kind;
    }
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace kiln::capture
