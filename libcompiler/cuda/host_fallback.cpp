#include "libcompiler/cuda/host_fallback.h"

#include <mutex>
#include <set>

#include "libcompiler/ops/autograd/user_warning.h"
#include "libcompiler/tensor/copy.h"

namespace kiln::cuda {

namespace {

using tensor::Tensor;

void warn_once(const ops::OpInfo& op) {
  static std::mutex mutex;
  static std::set<ops::OpId> warned;
  {
    std::lock_guard lock(mutex);
    if (!warned.insert(op.id).second) return;
  }
  ops::warn("The operator '" + op.schema.ns + "::" + op.qualified_name() +
            "' is not currently supported on the CUDA backend in kiln and will fall back to run on the CPU. This may have "
            "performance implications.");
}

// A device tensor's host copy, remembered with it so that writes and aliases map back.
struct HostCopies {
  std::vector<std::pair<Tensor, Tensor>> pairs;  // (device tensor, its host copy)
  tensor::Device device{tensor::DeviceType::CUDA, -1};

  Tensor host(const Tensor& t) {
    if (!t.defined() || t.device().type != tensor::DeviceType::CUDA) return t;
    device = t.device();
    Tensor copy = tensor::to_host(t);
    pairs.emplace_back(t, copy);
    return copy;
  }
  ops::IValue host(const ops::IValue& value) {
    if (value.is_tensor()) return host(value.to_tensor());
    if (value.is_tensor_list()) {
      std::vector<Tensor> list;
      for (const Tensor& t : value.to_tensor_list()) list.push_back(host(t));
      return list;
    }
    if (value.is_device() && value.to_device().type == tensor::DeviceType::CUDA) {
      device = value.to_device();
      return tensor::kCPU;
    }
    return value;
  }
  // The (device tensor, host copy) pair whose copy shares storage with a host tensor, if any.
  const std::pair<Tensor, Tensor>* pair_of(const Tensor& host_tensor) const {
    for (const auto& pair : pairs)
      if (pair.second.storage().is_alias_of(host_tensor.storage())) return &pair;
    return nullptr;
  }
};

bool same_geometry(const Tensor& a, const Tensor& b) {
  return a.sizes() == b.sizes() && a.strides() == b.strides() && a.storage_offset() == b.storage_offset();
}

void write_back(const Tensor& host_tensor, const HostCopies& copies) {
  if (const auto* pair = copies.pair_of(host_tensor)) tensor::copy_elements(pair->first, host_tensor);
}

}  // namespace

std::vector<Tensor> run_on_host(const ops::OpInfo& op, const ops::Arguments& args) {
  warn_once(op);
  HostCopies copies;
  std::vector<ops::IValue> host_values;
  for (const ops::IValue& value : args.values()) host_values.push_back(copies.host(value));
  const std::vector<Tensor> host_outputs = op.cpu_kernel(ops::Arguments(op.schema, host_values));
  // What the op wrote (its Tensor(a!) arguments) goes back into the device tensors.
  for (size_t i = 0; i < op.schema.arguments.size() && i < host_values.size(); ++i) {
    if (!op.schema.arguments[i].type.is_write) continue;
    if (host_values[i].is_tensor()) write_back(host_values[i].to_tensor(), copies);
    else if (host_values[i].is_tensor_list())
      for (const Tensor& t : host_values[i].to_tensor_list()) write_back(t, copies);
  }
  std::vector<Tensor> outputs;
  for (const Tensor& out : host_outputs) {
    if (!out.defined()) {
      outputs.push_back(out);
    } else if (const auto* pair = copies.pair_of(out); pair && same_geometry(out, pair->second)) {
      outputs.push_back(pair->first);  // an in-place op's self
    } else {
      // A new tensor, or new geometry over an argument's copy: its own device tensor.
      Tensor on_device = Tensor::empty(out.sizes(), out.dtype(), copies.device);
      tensor::copy_elements(on_device, out);
      outputs.push_back(on_device);
    }
  }
  return outputs;
}

}  // namespace kiln::cuda
