#pragma once
// A repro whose tensors live on a GPU, minified without the GPU in the minifier's own process:
// CUDA does not survive fork, and the minifier forks a child per candidate. Its parent reads the
// inputs and cuts nodes on the host (tensor/host_stand_in.h); what it writes (checkpoints, PyTorch
// oracle candidates, repro.py) still says the device; each child that runs a candidate moves it
// there first.
#include <string>
#include <vector>

#include "libcompiler/repro/repro_state.h"
#include "libcompiler/tensor/device.h"

namespace kiln::repro {

// The state with its host tensors' placeholder annotations on `device` (what a written file says).
ReproState annotated_on(const ReproState& state, const tensor::Device& device);

// In a test child: ends the host stand-in of the device's type and copies the state's host
// tensors to the device (inputs that shared a storage still share one, leaves stay leaves).
ReproState moved_to(const ReproState& state, const tensor::Device& device);

// The minify command in a process that has initialised CUDA already (an after-Dynamo launcher
// builds its module with .cuda() parameters before run_repro runs) must start again: true when
// CUDA was initialised here and this is not the restarted process.
bool must_start_again_on_host();
// Starts the process again, the same binary and the file's own command line, with the stand-in on
// from its first line (see stand_in_from_start_if_asked). Returns only by throwing.
[[noreturn]] void start_again_on_host(const std::vector<std::string>& file_argv);
// At start-up (install_repro): the stand-in from the first line, when a restart asked for it.
void stand_in_from_start_if_asked();

}  // namespace kiln::repro
