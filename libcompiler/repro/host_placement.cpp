#include "libcompiler/repro/host_placement.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <stdexcept>

#include "libcompiler/cuda/runtime.h"
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

namespace {

// Set for the restarted process: which device type's storages stand on the host from the start.
constexpr const char* kStandInVariable = "KILN_MINIFY_CUDA_ON_HOST";

}  // namespace

bool must_start_again_on_host() { return cuda::initialized_in_this_process() && !std::getenv(kStandInVariable); }

void start_again_on_host(const std::vector<std::string>& file_argv) {
  setenv(kStandInVariable, "1", 1);
  std::vector<std::string> arguments = {"/proc/self/exe"};
  arguments.insert(arguments.end(), file_argv.begin(), file_argv.end());
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);
  std::cout.flush();
  std::cerr.flush();
  execv("/proc/self/exe", argv.data());
  throw std::runtime_error(std::string("minify: cannot start again with the GPU's tensors on the host: ") + std::strerror(errno));
}

void stand_in_from_start_if_asked() {
  if (std::getenv(kStandInVariable)) tensor::begin_host_stand_in(tensor::DeviceType::CUDA);
}

}  // namespace kiln::repro
