#include "libcompiler/repro/candidate_test.h"

#include "libcompiler/aot/aten_function.h"
#include "libcompiler/backends/backends.h"
#include "libcompiler/ir/runnable_printer.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/tensor_object.h"
#include "libcompiler/repro/graph_accuracy.h"
#include "libcompiler/repro/host_placement.h"
#include "libcompiler/repro/python_oracle.h"
#include "libcompiler/repro/repro_config.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::repro {

using namespace python;

namespace {

// An error of Kiln's own that reached no Python code (a backward's, run from here): a tensor
// library error stands for the Python exception PyTorch raises; anything else is internal.
Failure internal_failure(const std::exception& error) {
  if (const auto* torch_error = dynamic_cast<const tensor::TorchError*>(&error))
    return {Failure::Kind::Exception, tensor::python_type_name(torch_error->kind()), error.what()};
  return {Failure::Kind::Exception, "InternalError", error.what()};
}

Failure invalid(Failure failure) {
  failure.kind = Failure::Kind::Invalid;
  return failure;
}

Failure run_after_aot(Interpreter& interp, const ReproState& state, const ReproTarget& target) {
  if (target.accuracy == AccuracyMode::None) {
    try {
      run_eagerly(*state.module, state.inputs);
    } catch (const PyException& error) {
      return invalid(failure_of(interp, error));
    } catch (const std::exception& error) {
      return invalid(internal_failure(error));
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
  return accuracy_verdict(accuracy_site(*state.module, state.inputs, already_computed(std::move(compiled)), accuracy_options(target)));
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

// The eager run of an after-Dynamo candidate failed: the candidate itself is broken.
struct EagerRunFailed {
  Failure failure;
};

Failure run_after_dynamo(Interpreter& interp, const ReproState& state, const ReproTarget& target) {
  const GraphForward run_eager = eager_forward(interp, state, target);
  const GraphForward eager = [&](const std::vector<ops::IValue>& inputs) {
    try {
      return run_eager(inputs);
    } catch (const PyException& error) {
      throw EagerRunFailed{invalid(failure_of(interp, error))};
    }
  };
  const GraphForward compiled = compiled_forward(interp, state, target);
  try {
    if (target.accuracy == AccuracyMode::None) {
      // Forward and backward, the eager graph's first, as PyTorch's backend_fails runs them; outputs
      // no loss can be made of are checked by their forward only.
      try {
        run_fwd_maybe_bwd(eager, state.inputs, target.only_fwd);
      } catch (const std::invalid_argument&) {
      } catch (const std::exception& error) {
        return invalid(internal_failure(error));
      }
      try {
        run_fwd_maybe_bwd(compiled, state.inputs, target.only_fwd);
      } catch (const PyException& error) {
        return failure_of(interp, error);
      } catch (const std::invalid_argument&) {
      } catch (const std::exception& error) {
        return internal_failure(error);
      }
      return {};
    }
    try {
      return accuracy_verdict(accuracy_site(*state.module, state.inputs, compiled, accuracy_options(target), eager));
    } catch (const std::exception&) {
      // As PyTorch's backend_accuracy_fails: whatever raised (the compiled run, the backward, no
      // float64 reference) is "likely an unrelated issue", not an accuracy failure.
      return {};
    }
  } catch (const EagerRunFailed& failed) {
    return failed.failure;
  }
}

}  // namespace

Failure accuracy_verdict(AccuracySite site) {
  switch (site) {
    case AccuracySite::None: return {};
    case AccuracySite::Outputs: return {Failure::Kind::Accuracy, "AccuracyError", "Bad accuracy detected in the outputs"};
    case AccuracySite::Gradients: return {Failure::Kind::Accuracy, "AccuracyError", "Bad accuracy detected in the gradients"};
  }
  return {};
}

GraphAccuracyOptions accuracy_options(const ReproTarget& target) {
  GraphAccuracyOptions options;
  options.tolerance = target.tolerance;
  options.require_fp64 = target.accuracy == AccuracyMode::Accuracy;
  options.ignore_non_fp = target.accuracy == AccuracyMode::Accuracy;
  options.only_fwd = target.only_fwd;
  return options;
}

GraphForward eager_forward(Interpreter& interp, const ReproState& state, const ReproTarget& target) {
  if (target.after == ReproAfter::Aot) return interpreted(*state.module);
  Ref mod = repro_module(interp, *state.module);
  return [&interp, mod](const std::vector<ops::IValue>& inputs) { return ivalues(interp, to_vector(interp, call(interp, mod, python_inputs(inputs)))); };
}

GraphForward compiled_forward(Interpreter& interp, const ReproState& state, const ReproTarget& target) {
  SuspendReproWrappers suspended;
  if (target.after == ReproAfter::Dynamo) {
    Ref mod = repro_module(interp, *state.module);
    return [&interp, mod, target](const std::vector<ops::IValue>& inputs) {
      SuspendReproWrappers suspended;
      return ivalues(interp, compiled_through_torch_compile(interp, mod, python_inputs(inputs), target));
    };
  }
  aot::AtenGraphCompiler compiler = backends::aten_compiler(interp, target.backend);
  if (!compiler) raise_error(ExcType::ValueError, "backend '" + target.backend + "' compiles no aten graphs (it is not an AOT backend)");
  auto compiled = compiler(state.module, {aot::AotGraphKind::Inference, 0, std::nullopt});
  return [compiled](const std::vector<ops::IValue>& inputs) {
    SuspendReproWrappers suspended;
    return compiled(inputs);
  };
}

Ref repro_module(Interpreter& interp, const ir::GraphModule& module) {
  const std::string source = "import torch\nfrom torch import tensor, device\nfrom math import inf\nfrom torch.nn import *\n" +
                             ir::printRunnable(module) + "\nmod = Repro()\n";
  auto namespace_module = interp.new_namespace("__kiln_repro__");
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
  return compiled_forward(interp, state, target)(state.inputs);
}

Failure run_state(Interpreter& interp, const ReproState& state, const ReproTarget& target) {
  if (target.oracle) return target.oracle->run(interp, state);
  if (target.kept_on_host_for) {
    ReproTarget on_device = target;
    on_device.kept_on_host_for.reset();
    return run_state(interp, moved_to(state, *target.kept_on_host_for), on_device);
  }
  SuspendReproWrappers suspended;
  return target.after == ReproAfter::Aot ? run_after_aot(interp, state, target) : run_after_dynamo(interp, state, target);
}

}  // namespace kiln::repro
