#include "libcompiler/aot/aot_metadata.h"

#include "libcompiler/aot/storage_alias.h"
#include "libdiag/log/logger.h"
#include "libdiag/trace/trace_writer.h"

namespace kiln::aot {

std::string python_bool(bool value) { return value ? "True" : "False"; }

namespace {

template <class Item>
std::string python_list(size_t n, const Item& item) {
  std::string out = "[";
  for (size_t i = 0; i < n; ++i) out += (i ? ", " : "") + item(i);
  return out + "]";
}

// FakeTensor's repr: FakeTensor(..., size=(4, 3)), with the device and dtype when not the defaults.
std::string fake_tensor_repr(const ir::TensorMeta& t) {
  std::string out = "FakeTensor(...";
  if (t.device.type != tensor::DeviceType::CPU) out += ", device='" + t.device.str() + "'";
  out += ", size=(";
  for (size_t i = 0; i < t.sizes.size(); ++i) out += (i ? ", " : "") + t.sizes[i].str();
  out += t.sizes.size() == 1 ? ",)" : ")";
  if (t.dtype != ir::Dtype::Float32) out += ", dtype=torch." + std::string(ir::dtypeTorchName(t.dtype));
  return out + ")";
}

std::string plain_tensor_meta(size_t i, const std::string& memory_format) {
  return "PlainTensorMeta(unwrapped_idx=" + std::to_string(i) + ", memory_format=" + memory_format + ")";
}

}  // namespace

std::string view_and_mutation_meta(const TracedGraph& traced, const GraphMetadata& facts) {
  const bool train = facts.backward_donated.has_value();
  std::vector<bool> mutated(traced.input_requires_grad.size(), false);
  std::vector<const ir::Node*> tangents;
  for (const ir::Node* p : traced.module->graph.placeholders())
    if (p->name().starts_with("tangents_")) tangents.push_back(p);
  // Mutated inputs: written back by a copy_ in the graph, or returned first.
  for (size_t i : traced.mutated_inputs) mutated[i] = true;
  const auto placeholders = traced.module->graph.placeholders();
  for (const ir::Node* node : traced.module->graph.nodes())
    if (ir::callsOp(*node, ops::OpId::copy_))
      for (size_t i = 0; i < mutated.size() && i < placeholders.size(); ++i)
        if (node->args().at(0).asNode() == placeholders[i]) mutated[i] = true;
  const std::string keep = python_bool(facts.keep_input_mutations);
  const size_t program_outputs = traced.forward_outputs - traced.mutated_inputs.size();

  // Size inputs are not tensors: neither leaves nor hidden from autograd.
  auto is_size = [&](size_t i) { return i < placeholders.size() && std::holds_alternative<ir::SymScalar>(placeholders[i]->meta.value); };
  std::string s = "ViewAndMutationMeta(input_info=" + python_list(mutated.size(), [&](size_t i) {
    const bool leaf = !is_size(i) && (i >= facts.input_is_leaf.size() || facts.input_is_leaf[i]);
    return "InputAliasInfo(is_leaf=" + python_bool(leaf) + ", mutates_data=" + python_bool(mutated[i]) +
           ", mutates_metadata=False, mutations_hidden_from_autograd=" + python_bool(!mutated[i] && !is_size(i)) +
           ", mutations_under_no_grad_or_inference_mode=" +
           python_bool(mutated[i] && !facts.grad_enabled) +
           ", mutation_inductor_storage_resize=False, mutates_storage_metadata=False, requires_grad=" +
           python_bool(i < facts.input_requires_grad.size() && facts.input_requires_grad[i]) +
           ", keep_input_mutations=" + keep + ")";
  });
  const auto& results = traced.module->graph.outputNode()->args().at(0).asSequence()->items;
  s += ", output_info=" + python_list(program_outputs, [&](size_t i) {
    const size_t index = traced.mutated_inputs.size() + i;
    const bool requires_grad = index < traced.output_requires_grad.size() && traced.output_requires_grad[index];
    // The dims whose size is symbolic.
    std::string dynamic_dims;
    if (const ir::Node* out = results.at(index).asNode())
      if (const auto* t = std::get_if<ir::TensorMeta>(&out->meta.value))
        for (size_t d = 0; d < t->sizes.size(); ++d)
          if (!t->sizes[d].constant()) dynamic_dims += (dynamic_dims.empty() ? "" : ", ") + std::to_string(d);
    return "OutputAliasInfo(output_type=<OutputType.non_alias: 1>, raw_type=<class "
           "'torch._subclasses.functional_tensor.FunctionalTensor'>, base_idx=None, dynamic_dims=" +
           (dynamic_dims.empty() ? "set()" : "{" + dynamic_dims + "}") + ", requires_grad=" + python_bool(requires_grad) +
           ", view_meta_sequence=None)";
  });
  s += ", num_intermediate_bases=0, keep_input_mutations=" + keep;
  s += ", traced_tangents=" + python_list(tangents.size(), [&](size_t i) {
    return fake_tensor_repr(std::get<ir::TensorMeta>(tangents[i]->meta.value));
  });
  s += ", traced_tangents_descs=" +
       python_list(tangents.size(), [&](size_t i) { return tangents[i]->meta.descriptor.value_or(""); });
  s += ", subclass_inp_meta=" + python_list(mutated.size(), [](size_t i) { return plain_tensor_meta(i, "None"); });
  s += ", subclass_fw_graph_out_meta=" +
       python_list(traced.forward_outputs, [](size_t i) { return plain_tensor_meta(i, "None"); });
  s += ", subclass_tangent_meta=" + python_list(tangents.size(), [](size_t i) {
    return plain_tensor_meta(i, "MemoryFormatMeta(size=None, stride=None, memory_format=torch.contiguous_format)");
  });
  const std::string train_count = train ? "0" : "None";
  s += ", is_train=" + python_bool(train) + ", traced_tangent_metas=None, num_symints_saved_for_bw=" +
       (train ? std::to_string(facts.saved_sizes) : "None") +
       ", num_tensors_saved_with_no_vc_check=" + train_count + ", num_opaque_objects_saved_for_bw=" + train_count +
       ", grad_enabled_mutation=None, deterministic=False";
  std::vector<size_t> statics;
  for (size_t i = 0; i < traced.input_is_parameter.size(); ++i)
    if (traced.input_is_parameter[i]) statics.push_back(i);
  s += ", static_input_indices=" + python_list(statics.size(), [&](size_t i) { return std::to_string(statics[i]); });
  s += ", tokens={}, indices_of_inputs_that_requires_grad_with_mutations_in_bw=[], bw_donated_idxs=";
  s += train ? python_list(facts.backward_donated->size(), [&](size_t i) { return std::to_string((*facts.backward_donated)[i]); })
             : "None";
  s += ", num_backward_tokens=0, num_graphsafe_rng_states=0, graphsafe_rng_state_index=None, mutated_inp_stream_indices=";
  s += train ? python_list(traced.mutated_inputs.size(), [](size_t) { return std::string("None"); }) : "None";
  return s + ")";
}

void report_metadata(const TracedGraph& traced, const GraphMetadata& facts, int aot_id,
                     const std::optional<trace::CompileId>& compile_id) {
  const bool train = facts.backward_donated.has_value();
  trace::TraceWriter& writer = trace::TraceWriter::from_environment();
  if (!log::is_enabled(log::Artifact::aot_graphs) && !writer.enabled()) return;
  const std::string meta = view_and_mutation_meta(traced, facts);
  if (writer.enabled())
    writer.artifact("aot_forward_graph_fw_metadata", trace::ArtifactEncoding::String, meta, {compile_id, {}},
                    train ? trace::CallSite{"torch/_functorch/_aot_autograd/graph_compile.py", 1690}
                          : trace::CallSite{"torch/_functorch/_aot_autograd/graph_capture.py", 337});
  if (!log::is_enabled(log::Artifact::aot_graphs)) return;
  // Training repeats the metadata as the inner (subclass-free) one; inference has no subclasses.
  const std::string text = "aot_config id: " + std::to_string(aot_id) + ", fw_metadata=" + meta +
                           (train ? ", inner_meta=" + meta : ",subclass_metadata=None");
  // The sites are PyTorch's: the inference path logs at debug level.
  const log::SourceSite site = train ? log::SourceSite{"torch/_functorch/_aot_autograd/graph_compile.py", 1648}
                                     : log::SourceSite{"torch/_functorch/_aot_autograd/graph_capture.py", 229};
  log::emit(log::Artifact::aot_graphs, train ? log::Level::Info : log::Level::Debug, site,
            compile_id ? compile_id->pytorch_text() : "", text);
}

std::vector<size_t> donated_saved_values(const PartitionedGraphs& parts, size_t forward_outputs) {
  const auto& results = parts.forward->graph.outputNode()->args().at(0).asSequence()->items;
  std::vector<const ir::Node*> outputs;
  for (size_t i = 0; i < forward_outputs && i < results.size(); ++i)
    if (const ir::Node* n = results[i].asNode()) outputs.push_back(storage_root(n));
  // Indexed as the backward takes the saved values: sizes first.
  std::vector<size_t> donated;
  const size_t saved_tensors = parts.saved - parts.saved_sizes;
  for (size_t i = 0; i < saved_tensors; ++i) {
    const ir::Node* saved = results.at(forward_outputs + i).asNode();
    const ir::Node* root = saved ? storage_root(saved) : nullptr;
    if (!root || root->op() == ir::OpCode::Placeholder) continue;
    if (std::find(outputs.begin(), outputs.end(), root) != outputs.end()) continue;
    donated.push_back(parts.saved_sizes + i);
  }
  return donated;
}

}  // namespace kiln::aot
