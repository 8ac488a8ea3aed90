#include "libcompiler/repro/load_args_writer.h"

#include <functional>
#include <map>
#include <stdexcept>

#include "libcompiler/ir/tensor_types.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/python/python_repr.h"
#include "libcompiler/repro/content_store.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/python_number_format.h"

namespace kiln::repro {

namespace {

using tensor::DType;

// What reader.tensor needs of an input: its geometry, and its data when there is any.
struct TensorInput {
  tensor::Shape sizes, strides;
  int64_t storage_offset = 0;
  ir::Dtype dtype = ir::Dtype::Float32;
  ir::Device device;
  bool requires_grad = false;
  std::optional<ops::Tensor> data;
};

int64_t constant(const ir::SymExpr& e, const std::string& name) {
  auto value = e.constant();
  if (!value) throw std::invalid_argument("repro writer: input " + name + " has a symbolic size (" + e.str() + ")");
  return *value;
}

TensorInput from_meta(const ir::TensorMeta& meta, const std::string& name) {
  TensorInput input;
  for (const auto& s : meta.sizes) input.sizes.push_back(constant(s, name));
  for (const auto& s : meta.strides) input.strides.push_back(constant(s, name));
  input.dtype = meta.dtype;
  input.device = meta.device;
  input.requires_grad = meta.requiresGrad;
  return input;
}

TensorInput from_tensor(const ops::Tensor& t) {
  TensorInput input{t.sizes(), t.strides(), t.storage_offset(), ir::irDtype(t.dtype()), t.device(), t.requires_grad(), t};
  return input;
}

size_t itemsize(ir::Dtype dtype) { return tensor::itemsize(*tensor::dtype_from_name(ir::dtypeTorchName(dtype))); }

int64_t storage_elements(const TensorInput& input) {
  int64_t extent = 1;
  for (size_t d = 0; d < input.sizes.size(); ++d) {
    if (input.sizes[d] == 0) return input.storage_offset;
    extent += (input.sizes[d] - 1) * input.strides[d];
  }
  return input.storage_offset + extent;
}

std::string tuple(const tensor::Shape& values) {
  std::string text = "(";
  for (size_t i = 0; i < values.size(); ++i) text += (i ? ", " : "") + std::to_string(values[i]);
  return text + (values.size() == 1 ? ",)" : ")");
}

// The tensor's values as a nested Python list (a number for a 0-d tensor).
std::string values_text(const ops::Tensor& t) {
  const bool floating = tensor::is_floating_point(t.dtype());
  const ops::Tensor flat = ops::contiguous(ops::to_copy(tensor::to_host(ops::detach(t)), floating ? DType::Float64 : DType::Int64));
  int64_t next = 0;
  auto element = [&]() -> std::string {
    if (floating) return python::repr_float(flat.data_ptr<double>()[next++]);
    const int64_t v = flat.data_ptr<int64_t>()[next++];
    return t.dtype() == DType::Bool ? (v ? "True" : "False") : std::to_string(v);
  };
  std::function<std::string(size_t)> nested = [&](size_t dim) -> std::string {
    if (dim == t.sizes().size()) return element();
    std::string text = "[";
    for (int64_t i = 0; i < t.sizes()[dim]; ++i) text += (i ? ", " : "") + nested(dim + 1);
    return text + "]";
  };
  return nested(0);
}

std::string storage_bytes(const ops::Tensor& t) { return tensor::host_bytes(t.storage()); }

}  // namespace

std::vector<std::string> load_args_lines(const ReproState& state, const LoadArgsOptions& options) {
  std::vector<std::string> body;
  bool embeds = false;
  std::map<const void*, std::string> buffers;  // storage -> its bufN, so aliasing inputs share one
  const std::vector<ir::Node*> placeholders = state.module->graph.placeholders();
  for (size_t i = 0; i < placeholders.size(); ++i) {
    const ir::Node& placeholder = *placeholders[i];
    const ops::IValue& value = state.inputs.at(i);
    if (value.is_int() || value.is_double() || value.is_bool()) {
      const std::string number = value.is_int() ? std::to_string(value.to_int())
                                 : value.is_bool() ? (value.to_bool() ? "True" : "False")
                                                   : python::repr_float(value.to_double());
      body.push_back("    reader.symint(" + number + ")  # " + placeholder.target());
      continue;
    }
    TensorInput input;
    if (value.is_tensor()) input = from_tensor(value.to_tensor());
    else if (const auto* meta = std::get_if<ir::TensorMeta>(&placeholder.meta.value)) input = from_meta(*meta, placeholder.name());
    else throw std::invalid_argument("repro writer: input " + placeholder.name() + " is neither a tensor nor a number");
    if (options.kept_on_host_for && value.is_tensor() && input.device.type == tensor::DeviceType::CPU) input.device = *options.kept_on_host_for;

    const bool embed = input.data && tensor::numel_of(input.sizes) <= options.embed_limit;
    embeds |= embed;
    const void* identity = input.data ? input.data->storage().data() : nullptr;
    std::string buffer = identity && buffers.count(identity) ? buffers[identity] : "";
    if (buffer.empty()) {
      buffer = "buf" + std::to_string(buffers.size());
      if (identity) buffers[identity] = buffer;
      else buffers[&placeholder] = buffer;
      std::string hash = "None";
      int64_t nbytes = storage_elements(input) * int64_t(itemsize(input.dtype));
      if (input.data && !embed && options.store) {
        const std::string bytes = storage_bytes(*input.data);
        nbytes = int64_t(bytes.size());
        hash = python::repr_str(write_storage(*options.store, bytes, input.device));
      }
      std::string line = "    " + buffer + " = reader.storage(" + hash + ", " + std::to_string(nbytes);
      if (input.device.type != tensor::DeviceType::CPU) line += ", device=" + input.device.repr();
      if (input.dtype != ir::Dtype::Float32) line += ", dtype_hint=torch." + std::string(ir::dtypeTorchName(input.dtype));
      body.push_back(line + ")");
    }
    std::string call = "reader.tensor(" + buffer + ", " + tuple(input.sizes);
    if (input.strides != tensor::contiguous_strides(input.sizes)) call += ", " + tuple(input.strides);
    if (input.storage_offset) call += ", storage_offset=" + std::to_string(input.storage_offset);
    if (input.dtype != ir::Dtype::Float32) call += ", dtype=torch." + std::string(ir::dtypeTorchName(input.dtype));
    if (input.requires_grad) call += ", requires_grad=True";
    call += ", is_leaf=True)";
    if (embed) call = "embedded(" + call + ", " + values_text(*input.data) + ")";
    body.push_back("    " + call + "  # " + placeholder.target());
  }
  std::vector<std::string> lines;
  if (embeds) {
    lines.push_back("def embedded(tensor, values):");
    lines.push_back("    # A small input kept in the file (Kiln): its values replace the reader's random data.");
    lines.push_back("    if tensor is not None:");
    lines.push_back("        with torch.no_grad():");
    lines.push_back("            tensor.copy_(torch.tensor(values, dtype=tensor.dtype))");
    lines.push_back("");
  }
  lines.push_back("def load_args(reader):");
  lines.insert(lines.end(), body.begin(), body.end());
  lines.push_back("load_args._version = 0");
  return lines;
}

}  // namespace kiln::repro
