#include "libcompiler/distributed/ddp_optimizer.h"

#include <deque>
#include <map>
#include <set>

#include "libcompiler/aot/trace_graph_module.h"
#include "libcompiler/capture/tabulate.h"
#include "libcompiler/capture/tensor_describer.h"
#include "libcompiler/ir/graph_copy.h"
#include "libcompiler/ir/graph_listing.h"
#include "libcompiler/ir/readable_printer.h"
#include "libcompiler/ir/split_module.h"
#include "libcompiler/ir/tensor_types.h"
#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/tensor_object.h"
#include "libdiag/log/logger.h"
#include "libdiag/trace/trace_writer.h"

namespace kiln::distributed {

using namespace python;

namespace {

constexpr const char* kSourcePath = "torch/_dynamo/backends/distributed.py";

bool is_trainable_parameter(const Ref& value) {
  return value && is_tensor(value) && value->type->is_subtype_of(torch_types().parameter) &&
         to_tensor(value, "parameter").requires_grad();
}

// Whether a node of the bucket has a user outside it (the bucket's nodes come users first).
bool has_external_output(const DdpBucket& bucket) {
  std::set<const ir::Node*> inside;
  for (const ir::Node* node : bucket.nodes) {
    inside.insert(node);
    for (const ir::Node* user : node->users())
      if (!inside.count(user)) return true;
  }
  return false;
}

// PyTorch prints the bucket table with tabulate's simple_grid; Kiln's tabulate has the simple
// format, the same rows.
void log_buckets(const std::vector<DdpBucket>& buckets, int64_t bucket_bytes_cap, const std::string& compile_id) {
  std::vector<std::vector<std::string>> rows, extended;
  for (size_t i = 0; i < buckets.size(); ++i) {
    const DdpBucket& bucket = buckets[buckets.size() - 1 - i];
    const std::string index = std::to_string(i);
    for (size_t p = 0; p < bucket.params.size(); ++p)
      rows.push_back({p ? "" : index, p ? "" : std::to_string(bucket.size), bucket.params[p]});
    if (bucket.opcount_increased_to_capture_external_output > 0)
      extended.push_back({index, std::to_string(bucket.opcount_increased_to_capture_external_output),
                          std::to_string(bucket.size - bucket.paramsize_before_opcount_increase)});
  }
  if (rows.empty()) {
    log::emit(log::Component::ddp, log::Level::Debug, {kSourcePath, 141}, compile_id,
              "DDPOptimizer captured no parameters and did not split this graph.");
    return;
  }
  log::emit(log::Component::ddp, log::Level::Info, {kSourcePath, 104}, compile_id,
            "\nDDPOptimizer used bucket cap " + std::to_string(bucket_bytes_cap) + " and created " +
                std::to_string(buckets.size()) + " buckets. Enable debug logs for detailed bucket info.");
  if (!extended.empty())
    log::emit(log::Component::ddp, log::Level::Warning, {kSourcePath, 111}, compile_id,
              "Some buckets were extended beyond their requested parameter capacities in order to ensure each subgraph "
              "has an output node, required for fx graph partitioning. This can be the case when a subgraph would have "
              "only contained nodes performing inplace mutation, and returning no logical outputs. This should not be a "
              "problem, unless it results in too few graph partitions for optimal DDP performance.");
  if (log::is_enabled(log::Component::ddp, log::Level::Debug))
    log::emit(log::Component::ddp, log::Level::Debug, {kSourcePath, 122}, compile_id,
              "\nDDPOptimizer produced the following bucket assignments:\n" +
                  capture::tabulate({{"Index", true}, {"Size (b)", true}, {"Param Names", false}}, rows));
  if (!extended.empty())
    log::emit(log::Component::ddp, log::Level::Warning, {kSourcePath, 130}, compile_id,
              "DDPOptimizer extended these buckets to ensure per-subgraph output nodes:\n" +
                  capture::tabulate({{"Index", true}, {"Extra Ops", true}, {"Extra Param Size (b)", true}}, extended));
}

// The values of the graph that require grad: placeholders given such tensors, and, with grad mode
// on, floating-point values computed from them (a value's grad_fn is what chains one part's
// backward to the part before it).
std::set<std::string> values_requiring_grad(const ir::Graph& graph, const std::vector<Ref>& example) {
  std::set<std::string> names;
  const std::vector<ir::Node*> inputs = graph.placeholders();
  for (size_t i = 0; i < inputs.size() && i < example.size(); ++i)
    if (is_tensor(example[i]) && to_tensor(example[i], "input").requires_grad()) names.insert(inputs[i]->name());
  if (!ops::GradMode::is_enabled()) return names;
  for (const ir::Node* node : graph.nodes()) {
    const auto* meta = std::get_if<ir::TensorMeta>(&node->meta.value);
    if (node->op() == ir::OpCode::Placeholder || !meta || !ir::isFloatingPoint(meta->dtype)) continue;
    for (const ir::Node* input : node->inputNodes())
      if (names.count(input->name())) names.insert(node->name());
  }
  return names;
}

// The example a part gets for a value another part computes: a fake of the value's metadata
// (PyTorch runs the parts on fake tensors), its size symbols at this compile's values; null when
// the value is not a tensor whose sizes those give.
Ref fake_example(const ir::Node& value, const std::map<std::string, int64_t>& symbol_values, const tensor::Device& device,
                 bool requires_grad) {
  const auto* meta = std::get_if<ir::TensorMeta>(&value.meta.value);
  if (!meta) return nullptr;
  const std::optional<tensor::DType> dtype = ir::tensorDtype(meta->dtype);
  if (!dtype) return nullptr;
  tensor::Shape sizes, strides;
  for (const auto& [exprs, out] : {std::pair{&meta->sizes, &sizes}, std::pair{&meta->strides, &strides}})
    for (const ir::SymExpr& e : *exprs) {
      const std::optional<int64_t> n = e.evaluate(symbol_values);
      if (!n) return nullptr;
      out->push_back(*n);
    }
  return aot::fake_tensor(sizes, strides, *dtype, device, requires_grad);
}

// What the backend compiles for one part: the part returning a tuple, as AOT backends expect.
struct PartGraph {
  std::shared_ptr<fx::BackendGraph> graph;
  std::vector<Ref> example;
};

std::optional<PartGraph> part_graph(const fx::BackendGraph& whole, const ir::GraphModule& part,
                                    const std::vector<Ref>& whole_example, const std::set<std::string>& requiring_grad) {
  const std::vector<ir::Node*> whole_inputs = whole.module->graph.placeholders();
  tensor::Device device;
  for (const Ref& input : whole_example)
    if (is_tensor(input)) device = aot::device_seen(input);
  // The size symbols' values: the examples of their placeholders (s77: "Sym(s77)").
  std::map<std::string, int64_t> symbol_values;
  for (size_t i = 0; i < whole_inputs.size() && i < whole_example.size(); ++i)
    if (const auto* size = std::get_if<ir::SymScalar>(&whole_inputs[i]->meta.value);
        size && whole_example[i]->kind == ObjectKind::Int && size->expr.freeSymbols().size() == 1)
      symbol_values[size->expr.freeSymbols()[0]] = static_cast<const IntObject&>(*whole_example[i]).value;
  PartGraph result;
  std::vector<std::string> sources;
  for (const ir::Node* input : part.graph.placeholders()) {
    size_t i = 0;
    while (i < whole_inputs.size() && whole_inputs[i]->name() != input->name()) ++i;
    if (i < whole_inputs.size()) {
      result.example.push_back(whole_example.at(i));
      sources.push_back(whole.input_sources.at(i));
      continue;
    }
    Ref fake = fake_example(*whole.module->graph.findNode(input->name()), symbol_values, device,
                            requiring_grad.count(input->name()) > 0);
    if (!fake) return std::nullopt;
    result.example.push_back(fake);
    sources.push_back("None");
  }
  auto module = ir::copyGraphModule(part);
  module->className = "GraphModule";
  ir::Node* output = module->graph.outputNode();
  if (const auto* returned = output->args().at(0).asSequence(); !returned || !returned->isTuple)
    output->setArgs({ir::Argument::tuple({output->args().at(0)})});
  result.graph = std::make_shared<fx::BackendGraph>(fx::BackendGraph{std::move(module), std::move(sources), whole.compile_id,
                                                                     whole.mode, whole.options, whole.sizes_pinned,
                                                                     /*fakify_first_call=*/true});
  return result;
}

// FX's placeholder types as str(graph) prints them.
void annotate_placeholder_types(ir::GraphModule& module, const std::vector<Ref>& example) {
  const std::vector<ir::Node*> inputs = module.graph.placeholders();
  for (size_t i = 0; i < inputs.size() && i < example.size(); ++i)
    if (is_tensor(example[i]))
      inputs[i]->meta.typeAnnotation =
          example[i]->type->is_subtype_of(torch_types().parameter) ? "torch.nn.parameter.Parameter" : "torch.Tensor";
}

// The split graph run with each part's compiled function in place of its submodule.
fx::CompiledGraph run_split(std::shared_ptr<const ir::GraphModule> split, std::map<const ir::Node*, fx::CompiledGraph> parts) {
  return [split, parts](Interpreter& interp, const std::vector<Ref>& inputs) {
    std::map<const ir::Node*, Ref> values;
    std::map<const ir::Node*, std::vector<Ref>> several;  // parts returning more than one value
    auto value_of = [&](const ir::Argument& arg) { return values.at(arg.asNode()); };
    size_t next_input = 0;
    std::vector<Ref> outputs;
    for (const ir::Node* node : split->graph.nodes()) {
      switch (node->op()) {
        case ir::OpCode::Placeholder: values[node] = inputs.at(next_input++); break;
        case ir::OpCode::CallModule: {
          std::vector<Ref> args;
          for (const ir::Argument& arg : node->args()) args.push_back(value_of(arg));
          std::vector<Ref> results = parts.at(node)(interp, args);
          const auto* returned = split->submodule(node->target())->graph.outputNode()->args().at(0).asSequence();
          if (returned && returned->isTuple) several[node] = std::move(results);
          else values[node] = results.at(0);
          break;
        }
        case ir::OpCode::CallFunction:  // the getitem of a part's several values
          values[node] = several.at(node->args().at(0).asNode()).at(std::get<int64_t>(node->args().at(1).value));
          break;
        case ir::OpCode::Output: {
          const ir::Argument& returned = node->args().at(0);
          if (const auto* items = returned.asSequence())
            for (const ir::Argument& item : items->items) outputs.push_back(value_of(item));
          else
            outputs.push_back(value_of(returned));
          break;
        }
        case ir::OpCode::GetAttr:
        case ir::OpCode::CallMethod: throw std::logic_error("DDPOptimizer's split graph has no " + node->name());
      }
    }
    return outputs;
  };
}

void log_graphs(const std::string& compile_id, int line, const std::string& text) {
  log::emit(log::Artifact::ddp_graphs, log::Level::Debug, {kSourcePath, line}, compile_id, text);
}

}  // namespace

std::vector<DdpBucket> ddp_buckets(const ir::GraphModule& module, const std::vector<Ref>& example_inputs,
                                   int64_t bucket_bytes_cap, int64_t first_bucket_cap) {
  std::map<const ir::Node*, Ref> placeholder_values;
  const std::vector<ir::Node*> inputs = module.graph.placeholders();
  for (size_t i = 0; i < inputs.size() && i < example_inputs.size(); ++i) placeholder_values[inputs[i]] = example_inputs[i];
  std::deque<DdpBucket> buckets(1);
  const std::vector<ir::Node*> nodes = module.graph.nodes();
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
    const ir::Node* node = *it;
    if (node->op() == ir::OpCode::Output || node->op() == ir::OpCode::Placeholder) continue;
    DdpBucket& current = buckets.front();
    if (current.size >= bucket_bytes_cap || (buckets.size() == 1 && current.size >= first_bucket_cap)) {
      if (has_external_output(current)) {
        buckets.emplace_front();
      } else {
        if (current.opcount_increased_to_capture_external_output == 0)
          current.paramsize_before_opcount_increase = current.size;
        ++current.opcount_increased_to_capture_external_output;
      }
    }
    // Dynamo's graphs take parameters as placeholders (they have no call_module or parameter
    // get_attr nodes); a parameter used twice counts twice, as in PyTorch.
    DdpBucket& bucket = buckets.front();
    if (node->op() == ir::OpCode::CallFunction || node->op() == ir::OpCode::CallMethod)
      for (const ir::Argument& arg : node->args()) {
        const ir::Node* input = arg.asNode();
        if (!input || input->op() != ir::OpCode::Placeholder) continue;
        auto value = placeholder_values.find(input);
        if (value == placeholder_values.end() || !is_trainable_parameter(value->second)) continue;
        bucket.size += static_cast<int64_t>(to_tensor(value->second, "parameter").storage().nbytes());
        bucket.params.push_back(input->target());
      }
    bucket.nodes.push_back(node);
  }
  // A preamble without parameters joins the bucket after it.
  if (buckets.size() > 1 && buckets.front().size == 0) {
    buckets[1].nodes.insert(buckets[1].nodes.end(), buckets.front().nodes.begin(), buckets.front().nodes.end());
    buckets.pop_front();
  }
  return {buckets.begin(), buckets.end()};
}

fx::Backend ddp_optimizer(fx::Backend inner, int64_t bucket_bytes_cap, int64_t first_bucket_cap) {
  return [inner, bucket_bytes_cap, first_bucket_cap](Interpreter& interp, std::shared_ptr<const fx::BackendGraph> graph,
                                                      const std::vector<Ref>& example) -> fx::CompiledGraph {
    const std::string compile_id = graph->compile_id.pytorch_text();
    const std::vector<DdpBucket> buckets = ddp_buckets(*graph->module, example, bucket_bytes_cap, first_bucket_cap);
    log_buckets(buckets, bucket_bytes_cap, compile_id);
    if (buckets.size() == 1) return inner(interp, graph, example);

    // The split is of a copy (whose placeholders get their types for the ddp_graphs log).
    std::map<std::string, int> bucket_by_name;
    for (size_t i = 0; i < buckets.size(); ++i)
      for (const ir::Node* node : buckets[i].nodes) bucket_by_name[node->name()] = static_cast<int>(i);
    auto original = ir::copyGraphModule(*graph->module);
    annotate_placeholder_types(*original, example);
    std::shared_ptr<ir::GraphModule> split =
        ir::splitModule(*original, [&](const ir::Node& node) { return bucket_by_name.at(node.name()); });

    const std::set<std::string> requiring_grad = values_requiring_grad(graph->module->graph, example);
    std::vector<std::pair<const ir::Node*, PartGraph>> parts;
    for (const ir::Node* node : split->graph.nodes()) {
      if (node->op() != ir::OpCode::CallModule) continue;
      std::optional<PartGraph> part = part_graph(*graph, *split->submodule(node->target()), example, requiring_grad);
      if (!part) return inner(interp, graph, example);  // a value between parts Kiln cannot fake: no split
      parts.emplace_back(node, std::move(*part));
    }

    if (log::is_enabled(log::Artifact::ddp_graphs)) {
      std::string text = "\n---orig graph---\n" + ir::graphListing(original->graph) + "\n" + "\n---split graph---\n" +
                         ir::graphListing(split->graph) + "\n";
      for (const auto& [name, submodule] : split->submodules())
        text += "\n---" + name + " graph---\n" + ir::graphListing(submodule->graph) + "\n";
      log_graphs(compile_id, 596, text + "\n---------------\n");
    }
    // Printed as print_readable()'s defaults print: sizes without strides or devices.
    trace::TraceWriter& writer = trace::TraceWriter::from_environment();
    if (writer.enabled()) {
      writer.record("optimize_ddp_split_graph", trace::TraceJson::object(), {graph->compile_id, {}}, ir::printReadable(*split, false),
                    {kSourcePath, 598});
      for (const auto& [name, submodule] : split->submodules()) {
        auto child = ir::copyGraphModule(*submodule);
        child->className = "GraphModule";
        trace::TraceJson metadata = trace::TraceJson::object();
        metadata["name"] = name;
        writer.record("optimize_ddp_split_child", metadata, {graph->compile_id, {}},
                      ir::printReadable(*child, false), {kSourcePath, 604});
      }
    }

    std::map<const ir::Node*, fx::CompiledGraph> compiled;
    // The parts' real inputs are fakified once more, by one describer for all parts, each part's
    // just before it compiles (PyTorch's fakify_first_call): their describe_* records again.
    const capture::CompileIds ids{static_cast<int>(graph->compile_id.frame_id.value_or(0)),
                                  static_cast<int>(graph->compile_id.frame_compile_id.value_or(0)),
                                  static_cast<int>(graph->compile_id.attempt.value_or(0))};
    capture::TensorDescriber describer(ids);
    for (auto& [node, part] : parts) {
      if (log::is_enabled(log::Artifact::ddp_graphs))
        log_graphs(compile_id, 290,
                   "\n---" + node->target() + " graph---\n" + ir::graphListing(split->submodule(node->target())->graph));
      for (size_t i = 0; i < part.example.size(); ++i)
        if (part.graph->input_sources[i] != "None" && is_tensor(part.example[i]))
          describer.describe_input(to_tensor(part.example[i], "input"),
                                   part.example[i]->type->is_subtype_of(torch_types().parameter), part.graph->input_sources[i]);
      compiled[node] = inner(interp, part.graph, part.example);
    }
    if (log::is_enabled(log::Artifact::ddp_graphs)) {
      // The parts' submodules are replaced by their compiled forms, "compiled_<name>".
      std::string listing = ir::graphListing(split->graph);
      const std::string call = "call_module[target=";
      for (size_t at = listing.find(call); at != std::string::npos; at = listing.find(call, at + call.size()))
        listing.insert(at + call.size(), "compiled_");
      log_graphs(compile_id, 619, "\n---final graph---\n" + listing + "\n---------------\n");
    }
    return run_split(split, std::move(compiled));
  };
}

void install_ddp_optimizer() {
  fx::set_backend_splitter([](Interpreter& interp, fx::Backend inner) -> fx::Backend {
    Ref mode = try_getattr(interp, interp.import_module("torch._dynamo.config"), "optimize_ddp");
    const bool splits = mode && (mode->kind == ObjectKind::Str ? as<StrObject>(mode).value == "ddp_optimizer"
                                                               : mode->kind == ObjectKind::Bool && truthy(interp, mode));
    // DDP's module is loaded by a script that wraps a module in it; until then nothing splits.
    Ref ddp_module = interp.modules()->get("torch.nn.parallel.distributed");
    if (!splits || !ddp_module) return inner;
    Ref active = call(interp, getattr(interp, getattr(interp, ddp_module, "DistributedDataParallel"), "_get_active_ddp_module"),
                      std::vector<Ref>{});
    if (is_none(active)) return inner;
    const int64_t bucket_bytes_cap = to_index(interp, getattr(interp, active, "bucket_bytes_cap"));
    const int64_t first_bucket_cap =
        to_index(interp, getattr(interp, interp.import_module("torch.distributed"), "_DEFAULT_FIRST_BUCKET_BYTES"));
    if (first_bucket_cap > bucket_bytes_cap)
      raise_error(ExcType::AssertionError, "First bucket should be smaller/equal to other buckets to get comms warmed up ASAP");
    return ddp_optimizer(std::move(inner), bucket_bytes_cap, first_bucket_cap);
  });
}

}  // namespace kiln::distributed
