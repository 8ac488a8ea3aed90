#include "libcompiler/aot/autograd_cache.h"

#include <nlohmann/json.hpp>

#include "kiln_config.h"
#include "libcompiler/aot/aot_metadata.h"
#include "libcompiler/aot/build_identity.h"
#include "libcompiler/ir/readable_parser.h"
#include "libcompiler/ir/readable_printer.h"
#include "libcompiler/ir/structural_hash.h"
#include "libcompiler/ir/symbolic_shape_propagation.h"
#include "libdiag/trace/trace_writer.h"

#include "libdiag/trace/timed_phase.h"

namespace kiln::aot {

namespace {

std::string python_bools(const std::vector<bool>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + python_bool(values[i]);
  return out + "]";
}

// A graph read back from its printed form. FX prints no annotation for a node with several
// outputs (native_layer_norm): shape propagation gives it its value again, without which the
// graph could compile only at its first call.
std::unique_ptr<ir::GraphModule> read_graph(const std::string& text) {
  std::unique_ptr<ir::GraphModule> module = ir::parseReadable(text);
  for (auto& [node, value] : ir::propagateSymbolicShapes(module->graph).values)
    if (std::holds_alternative<std::monostate>(node->meta.value)) const_cast<ir::Node*>(node)->meta.value = value;
  return module;
}

// The printed graph, or nothing when it does not read back as itself, metadata included.
std::optional<std::string> printed_round_trip(const ir::GraphModule& module) {
  std::string text = ir::printReadable(module);
  try {
    std::unique_ptr<ir::GraphModule> read = read_graph(text);
    if (ir::printReadable(*read) == text && ir::fullyAnnotated(*read)) return text;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

void report(const char* name, trace::TraceJson verdict, const std::optional<trace::CompileId>& compile_id) {
  trace::TraceWriter& writer = trace::TraceWriter::from_environment();
  if (!writer.enabled()) return;
  writer.artifact(name, trace::ArtifactEncoding::Json, trace::json_payload(verdict), {compile_id, {}},
                  {"torch/_functorch/_aot_autograd/autograd_cache.py", 892});
}

trace::TraceJson verdict(const AotCacheKey& key, const char* state) {
  trace::TraceJson out = trace::TraceJson::object();
  out["key"] = key.key;
  out["cache_state"] = state;
  out["components"] = key.components;
  return out;
}

}  // namespace

AotCacheKey aot_cache_key(const AotCacheInputs& inputs) {
  AotCacheKey key;
  std::string sources;
  for (const std::string& source : inputs.input_sources) sources += (sources.empty() ? "" : ", ") + source;
  key.components = {"gm: " + ir::structuralHash(*inputs.dynamo_graph), "input_sources: [" + sources + "]",
                    "aot_options: " + inputs.options,
                    "grad_enabled: " + python_bool(inputs.grad_enabled),
                    "autocast_cpu: " + python_bool(inputs.autocast.cpu.enabled) + " " +
                        tensor::torch_name(inputs.autocast.cpu.dtype),
                    "autocast_cuda: " + python_bool(inputs.autocast.cuda.enabled) + " " +
                        tensor::torch_name(inputs.autocast.cuda.dtype),
                    "input_requires_grad: " + python_bools(inputs.input_requires_grad),
                    "input_is_leaf: " + python_bools(inputs.input_is_leaf), std::string("kiln_version: ") + KILN_VERSION,
                    "kiln_build: " + build_identity()};
  std::string text;
  for (const std::string& component : key.components) text += component + "\n";
  key.key = "a" + ir::sha256Hex(text).substr(0, 51);
  return key;
}

std::optional<AotResult> aot_cache_load(const AotCacheStorage& storage, const AotCacheKey& key) {
  std::optional<std::string> stored = storage.load(key.key);
  if (!stored) return std::nullopt;
  try {
    const nlohmann::json entry = nlohmann::json::parse(*stored);
    AotResult result;
    result.forward = read_graph(entry.at("forward").get<std::string>());
    if (entry.contains("backward")) result.backward = read_graph(entry.at("backward").get<std::string>());
    result.forward_outputs = entry.at("forward_outputs").get<size_t>();
    result.saved_sizes = entry.at("saved_sizes").get<size_t>();
    result.mutated_inputs = entry.at("mutated_inputs").get<std::vector<size_t>>();
    result.input_requires_grad = entry.at("input_requires_grad").get<std::vector<bool>>();
    result.output_requires_grad = entry.at("output_requires_grad").get<std::vector<bool>>();
    result.output_aliased_input = entry.at("output_aliased_input").get<std::vector<int64_t>>();
    return result;
  } catch (const std::exception&) {
    return std::nullopt;  // written by another Kiln, or damaged
  }
}

void aot_cache_store(const AotCacheStorage& storage, const AotCacheKey& key, const AotResult& result) {
  nlohmann::json entry;
  std::optional<std::string> forward = printed_round_trip(*result.forward);
  if (!forward) return;
  entry["forward"] = *forward;
  if (result.backward) {
    std::optional<std::string> backward = printed_round_trip(*result.backward);
    if (!backward) return;
    entry["backward"] = *backward;
  }
  entry["forward_outputs"] = result.forward_outputs;
  entry["saved_sizes"] = result.saved_sizes;
  entry["mutated_inputs"] = result.mutated_inputs;
  entry["input_requires_grad"] = result.input_requires_grad;
  entry["output_requires_grad"] = result.output_requires_grad;
  entry["output_aliased_input"] = result.output_aliased_input;
  storage.store(key.key, entry.dump());
}

std::optional<std::string> uncacheable_graph_reason(const ir::GraphModule& dynamo_graph) {
  for (const ir::Node* node : dynamo_graph.graph.nodes()) {
    if (node->targetNamespace() != ir::TargetNamespace::HigherOrder) continue;
    const std::string name(node->targetName());
    return "Unsupported call_function target " + name + ". \n Function module: torch.ops.higher_order, \nFunction name: " + name;
  }
  return std::nullopt;
}

void report_aot_cache_hit(const AotCacheKey& key, const std::optional<trace::CompileId>& compile_id) {
  report("aotautograd_cache_hit", verdict(key, "hit"), compile_id);
  trace::instant_event("autograd_cache_hit", compile_id, verdict(key, "hit"));
}

void report_aot_cache_miss(const AotCacheKey& key, const std::optional<trace::CompileId>& compile_id) {
  trace::TraceJson out = verdict(key, "miss");
  out["cache_status_detailed"] = "full_miss";
  report("aotautograd_cache_miss", out, compile_id);
  trace::instant_event("autograd_cache_miss", compile_id, out);
}

void report_aot_cache_bypass(const std::string& reason, const std::optional<trace::CompileId>& compile_id) {
  trace::TraceJson out = trace::TraceJson::object();
  out["cache_bypass_reason"] = reason;
  out["cache_state"] = "bypass";
  report("aotautograd_cache_bypass", out, compile_id);
  trace::instant_event("autograd_cache_bypass", compile_id, out);
}

}  // namespace kiln::aot
