#include "libcompiler/inductor/compiled_eager_ops.h"

#include <bit>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "libcompiler/aot/aten_graph_builder.h"
#include "libcompiler/inductor/codegen/kernel_backend.h"
#include "libcompiler/inductor/compile_fx.h"
#include "libcompiler/inductor/graph_lowering.h"
#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernel_registry.h"

namespace kiln::inductor {

namespace {

using tensor::Tensor;

// The device type the compiled fallback serves (one: the CPU has a kernel for every op), and the
// fallback it had before, where an op goes that does not compile.
struct Installed {
  tensor::DeviceType type = tensor::DeviceType::CPU;
  ops::FallbackFunction replaced = nullptr;
};
Installed& installed() {
  static Installed value;
  return value;
}

// Whether the op is one a compiled graph computes as eager would: it writes none of its arguments,
// draws no random numbers, and takes no list of tensors (whose length would be part of the graph).
bool compilable(const ops::OpInfo& op) {
  for (const ops::SchemaArgument& argument : op.schema.arguments) {
    if (argument.type.is_write || argument.type.base == ops::SchemaType::Base::Generator) return false;
    if (argument.type.base == ops::SchemaType::Base::Tensor && argument.type.is_list) return false;
  }
  return !op.schema.returns.empty();
}

// What a compiled graph is specialized to: the op, and per argument its geometry or its value.
// nullopt when an argument is of a kind the key does not describe (the op then is not compiled).
std::optional<std::string> signature(const ops::OpInfo& op, const ops::Arguments& args, tensor::Device& device) {
  std::string key = std::to_string(static_cast<int>(op.id));
  const auto numbers = [&key](const auto& values) {
    for (const auto& v : values) key += std::to_string(v) + ",";
  };
  for (const ops::IValue& value : args.values()) {
    key += '|';
    if (value.is_tensor()) {
      const Tensor& t = value.to_tensor();
      if (!t.defined()) {
        key += "undefined";
        continue;
      }
      // A 0-dim CPU tensor, which eager reads as a number, would be a device buffer in the graph.
      if (t.device().type != device.type) return std::nullopt;
      device = t.device();
      key += "t" + std::string(tensor::scalar_type_name(t.dtype())) + t.device().str() + ":";
      numbers(t.sizes());
      key += ":";
      numbers(t.strides());
    } else if (value.is_none()) {
      key += "None";
    } else if (value.is_bool()) {
      key += value.to_bool() ? "True" : "False";
    } else if (value.is_int()) {
      key += "i" + std::to_string(value.to_int());
    } else if (value.is_double()) {
      key += "f" + std::to_string(std::bit_cast<uint64_t>(value.to_double()));
    } else if (value.is_string()) {
      key += "s" + value.to_string();
    } else if (value.is_int_list()) {
      key += "I";
      numbers(value.to_int_list());
    } else if (value.is_bool_list()) {
      key += "B";
      numbers(value.to_bool_list());
    } else if (value.is_double_list()) {
      key += "F";
      for (double d : value.to_double_list()) key += std::to_string(std::bit_cast<uint64_t>(d)) + ",";
    } else if (value.is_dtype()) {
      key += "d" + std::string(tensor::scalar_type_name(value.to_dtype()));
    } else if (value.is_device()) {
      key += "D" + value.to_device().str();
    } else {
      return std::nullopt;
    }
  }
  return key;
}

// The op's aten graph over fakes of its tensor arguments (placeholders in argument order).
std::unique_ptr<ir::GraphModule> traced_op(const ops::OpInfo& op, const ops::Arguments& args, const tensor::Device& device) {
  auto module = std::make_unique<ir::GraphModule>();
  aot::AtenGraphBuilder builder(module->graph, device);
  builder.set_decompose(true, "inductor");
  std::vector<ops::IValue> fakes;
  for (const ops::IValue& value : args.values()) {
    if (!value.is_tensor() || !value.to_tensor().defined()) {
      fakes.push_back(value);
      continue;
    }
    const Tensor& real = value.to_tensor();
    Tensor fake = Tensor::empty(real.sizes(), real.dtype(), tensor::Device{tensor::DeviceType::Meta});
    fake.impl()->strides = real.strides();
    builder.add_placeholder("arg" + std::to_string(fakes.size()) + "_1", fake, std::nullopt);
    fakes.push_back(fake);
  }
  ops::NoGradGuard no_grad;
  std::vector<Tensor> outputs;
  {
    aot::ScopedCallRecorder recording(&builder);
    outputs = ops::call(op, ops::Arguments(op.schema, fakes));
  }
  std::vector<ir::Node*> nodes;
  for (const Tensor& output : outputs) {
    ir::Node* node = builder.node_of(output);
    if (!node) return nullptr;  // an output the trace did not make (an undefined optional output)
    nodes.push_back(node);
  }
  builder.set_output(nodes, /*as_list=*/false, {});
  return module;
}

// The compiled graph of a signature; null when the op does not compile to kernels alone.
std::shared_ptr<const CompiledProgram> compiled_program(const ops::OpInfo& op, const ops::Arguments& args, const tensor::Device& device) {
  const std::unique_ptr<ir::GraphModule> module = traced_op(op, args, device);
  if (!module) return nullptr;
  try {
    CompiledArtifacts artifacts = compile_graph(*module, InductorConfig{}, "eager");
    // An extern runs its op's eager kernel: one without a kernel of the device's own would come
    // back to this fallback (the op itself, or a host copy in the middle of the graph).
    for (const LoopNode& node : artifacts.program->program().nodes)
      if (const auto* e = std::get_if<ExternNode>(&node); e && (!e->op || !ops::kernel_for(*e->op, device.type))) return nullptr;
    return artifacts.program;
  } catch (const LoweringUnsupported&) {
    return nullptr;
  } catch (const InductorError&) {
    return nullptr;  // a kernel the device's compiler refused: the op still runs, as before
  }
}

thread_local bool compiling = false;

std::vector<Tensor> run_compiled(const ops::OpInfo& op, const ops::Arguments& args) {
  const ops::FallbackFunction replaced = installed().replaced;
  tensor::Device device{installed().type, -1};
  const std::optional<std::string> key = compilable(op) && !compiling ? signature(op, args, device) : std::nullopt;
  if (!key || device.index < 0) return replaced(op, args);
  static std::mutex mutex;
  static std::unordered_map<std::string, std::shared_ptr<const CompiledProgram>> programs;
  std::shared_ptr<const CompiledProgram> program;
  {
    std::lock_guard lock(mutex);
    auto [entry, added] = programs.try_emplace(*key);
    if (added) {
      compiling = true;
      try {
        entry->second = compiled_program(op, args, device);
      } catch (...) {
        compiling = false;
        programs.erase(entry);
        throw;
      }
      compiling = false;
    }
    program = entry->second;
  }
  if (!program) return replaced(op, args);
  std::vector<ops::IValue> inputs;
  for (const ops::IValue& value : args.values())
    if (value.is_tensor() && value.to_tensor().defined()) inputs.push_back(value);
  std::vector<Tensor> outputs;
  for (const ops::IValue& output : program->run(inputs)) outputs.push_back(output.is_tensor() ? output.to_tensor() : Tensor());
  return outputs;
}

}  // namespace

void install_compiled_eager_ops(tensor::DeviceType device) {
  const ops::FallbackFunction current = ops::fallback_for(device);
  if (current == &run_compiled || !current || !backend_for_device(device)) return;
  installed() = {device, current};
  ops::register_fallback(device, &run_compiled);
}

}  // namespace kiln::inductor
