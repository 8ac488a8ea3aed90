#include "libcompiler/repro/candidate_test.h"

#include "libcompiler/aot/aten_function.h"
#include "libcompiler/backends/backends.h"
#include "libcompiler/ir/runnable_printer.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/tensor_object.h"
#include "libcompiler/repro/graph_accuracy.h"
#include "libcompiler/repro/repro_config.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::repro {

using namespace python;

namespace {

Failure internal_failure(const std::exception& error) {
  if (const auto* torch_error = dynamic_cast<const tensor::TorchError*>(&error)) return {Failure::Kind::Exception, "RuntimeError", torch_error->what()};
  return {Failure::Kind::Exception, "InternalError", error.what()};
}

GraphAccuracyOptions accuracy_options(const ReproTarget& target) {
  GraphAccuracyOptions options;
  options.tolerance = target.tolerance;
  options.require_fp64 = target.accuracy == AccuracyMode::Accuracy;
  options.ignore_non_fp = target.accuracy == AccuracyMode::Accuracy;
  return options;
}

Failure accuracy_verdict(bool matches) {
  return matches ? Failure{} : Failure{Failure::Kind::Accuracy, "AccuracyError", "Bad accuracy detected"};
}

Failure run_after_aot(Interpreter& interp, const ReproState& state, const ReproTarget& target) {
  std::vector<ops::IValue> eager;
  if (target.accuracy == AccuracyMode::None) {
    try {
      eager = run_eagerly(*state.module, state.inputs);
    } catch (const PyException& error) {
      Failure invalid = failure_of(interp, error);
      invalid.kind = Failure::Kind::Invalid;
      return invalid;
    } catch (const std::exception& error) {
      Failure invalid = internal_failure(error);
      invalid.kind = Failure::Kind::Invalid;
      return invalid;
    }
  }
  std::vector<ops::IValue> compiled;
  try {
    compiled = run_compiled(interp, state, target);
  } catch (const PyException& error) {
    return target.accuracy == AccuracyMode::None ? failure_of(interp, error) : Failure{};
  } catch (const std::exception& error) {
    return target.accuracy == AccuracyMode::None ? internal_failure(error) : Failure{};
  }
  if (target.accuracy == AccuracyMode::None) return {};
  return accuracy_verdict(compiled_matches_eager(*state.module, state.inputs, compiled, accuracy_options(target)));
}

std::vector<ops::IValue> ivalues(Interpreter& interp, const std::vector<Ref>& values) {
  std::vector<ops::IValue> out;
  for (const Ref& v : values) out.push_back(to_ivalue(interp, v));
  return out;
}

std::vector<Ref> compiled_through_torch_compile(Interpreter& interp, const Ref& mod, const std::vector<Ref>& inputs,
                                               const ReproTarget& target) {
  Ref compile = getattr(interp, interp.import_module("torch"), "compile");
  CallArgs args;
  args.args = {mod};
  args.kwargs.emplace_back("backend", target.backend_spec);
  Ref optimized = call(interp, compile, std::move(args));
  return to_vector(interp, call(interp, optimized, inputs));
}

Failure run_after_dynamo(Interpreter& interp, const ReproState& state, const ReproTarget& target) {
  const std::vector<Ref> inputs = python_inputs(state.inputs);
  Ref mod = repro_module(interp, *state.module);
  std::vector<Ref> eager;
  try {
    eager = to_vector(interp, call(interp, mod, inputs));
  } catch (const PyException& error) {
    Failure invalid = failure_of(interp, error);
    invalid.kind = Failure::Kind::Invalid;
    return invalid;
  }
  std::vector<ops::IValue> compiled;
  try {
    compiled = ivalues(interp, compiled_through_torch_compile(interp, mod, inputs, target));
  } catch (const PyException& error) {
    return target.accuracy == AccuracyMode::None ? failure_of(interp, error) : Failure{};
  }
  if (target.accuracy == AccuracyMode::None) return {};
  return accuracy_verdict(
      compiled_matches_eager(*state.module, state.inputs, compiled, accuracy_options(target), ivalues(interp, eager)));
}

}  // namespace

Ref repro_module(Interpreter& interp, const ir::GraphModule& module) {
  const std::string source = "import torch\nfrom torch import tensor, device\nfrom math import inf\nfrom torch.nn import *\n" +
                             ir::printRunnable(module) + "\nmod = Repro()\n";
  auto namespace_module = std::make_shared<ModuleObject>("__kiln_repro__");
  namespace_module->globals = py_dict();
  namespace_module->globals->set("__name__", py_str("__kiln_repro__"));
  interp.exec_code(interp.load(source, "<repro>"), *namespace_module);
  return namespace_module->globals->get("mod");
}

std::vector<Ref> python_inputs(const std::vector<ops::IValue>& inputs) {
  std::vector<Ref> values;
  for (const ops::IValue& v : inputs) {
    if (v.is_tensor()) values.push_back(wrap_tensor(v.to_tensor()));
    else if (v.is_int()) values.push_back(py_int(v.to_int()));
    else if (v.is_double()) values.push_back(py_float(v.to_double()));
    else if (v.is_bool()) values.push_back(py_bool(v.to_bool()));
    else values.push_back(none());
  }
  return values;
}

std::vector<ops::IValue> run_compiled(Interpreter& interp, const ReproState& state, const ReproTarget& target) {
  SuspendReproWrappers suspended;
  if (target.after == ReproAfter::Dynamo)
    return ivalues(interp, compiled_through_torch_compile(interp, repro_module(interp, *state.module), python_inputs(state.inputs), target));
  aot::AtenGraphCompiler compiler = backends::aten_compiler(interp, target.backend);
  if (!compiler) raise_error(ExcType::ValueError, "backend '" + target.backend + "' compiles no aten graphs (it is not an AOT backend)");
  return compiler(state.module, {aot::AotGraphKind::Inference, 0, std::nullopt})(state.inputs);
}

Failure run_state(Interpreter& interp, const ReproState& state, const ReproTarget& target) {
  SuspendReproWrappers suspended;
  return target.after == ReproAfter::Aot ? run_after_aot(interp, state, target) : run_after_dynamo(interp, state, target);
}

}  // namespace kiln::repro
