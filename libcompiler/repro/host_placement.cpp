#include "libcompiler/repro/host_placement.h"

#include <map>

#include "libcompiler/ir/graph_copy.h"
#include "libcompiler/repro/subgraph.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/host_stand_in.h"

namespace kiln::repro {

ReproState annotated_on(const ReproState& state, const tensor::Device& device) {
  std::shared_ptr<ir::GraphModule> module = ir::copyGraphModule(*state.module);
  for (ir::Node* node : module->graph.placeholders())
    if (auto* meta = std::get_if<ir::TensorMeta>(&node->meta.value); meta && meta->device.type == tensor::DeviceType::CPU)
      meta->device = device;
  return {module, state.inputs};
}

ReproState moved_to(const ReproState& state, const tensor::Device& device) {
  tensor::end_host_stand_in(device.type);
  std::map<const void*, tensor::Storage> moved;  // host storage -> its copy on the device
  std::vector<ops::IValue> inputs;
  for (const ops::IValue& value : state.inputs) {
    if (!value.is_tensor() || value.to_tensor().device().type != tensor::DeviceType::CPU) {
      inputs.push_back(value);
      continue;
    }
    const ops::Tensor& host = value.to_tensor();
    auto [entry, added] = moved.try_emplace(host.storage().data());
    if (added) entry->second = tensor::storage_on(host.storage(), device);
    tensor::Tensor placed(std::make_shared<tensor::TensorImpl>(
        tensor::TensorImpl{entry->second, host.sizes(), host.strides(), host.storage_offset(), host.dtype()}));
    placed.set_requires_grad(host.requires_grad());
    inputs.push_back(placed);
  }
  return with_inputs(state, std::move(inputs));
}

}  // namespace kiln::repro
