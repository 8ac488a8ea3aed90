#pragma once
// A repro whose tensors live on a GPU, minified without the GPU in the minifier's own process:
// CUDA does not survive fork, and the minifier forks a child per candidate. Its parent reads the
// inputs and cuts nodes on the host (tensor/host_stand_in.h); what it writes (checkpoints, PyTorch
// oracle candidates, repro.py) still says the device; each child that runs a candidate moves it
// there first.
#include "libcompiler/repro/repro_state.h"
#include "libcompiler/tensor/device.h"

namespace kiln::repro {

// The state with its host tensors' placeholder annotations on `device` (what a written file says).
ReproState annotated_on(const ReproState& state, const tensor::Device& device);

// In a test child: ends the host stand-in of the device's type and copies the state's host
// tensors to the device (inputs that shared a storage still share one, leaves stay leaves).
ReproState moved_to(const ReproState& state, const tensor::Device& device);

}  // namespace kiln::repro
