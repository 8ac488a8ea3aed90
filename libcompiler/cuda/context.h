#pragma once
// The driver's state behind runtime.h, for the CUDA runtime's own files: each device's primary
// context, made current on the calling thread before any driver call that needs one.
#include "libcompiler/tensor/device.h"

namespace kiln::cuda {

// The index of a cuda device (cuda without an index: the current device), checked against the
// device count.
int device_index(const tensor::Device& device);
// Makes the device's primary context current on this thread (lazily initialising the driver).
void make_current(int device);

}  // namespace kiln::cuda
