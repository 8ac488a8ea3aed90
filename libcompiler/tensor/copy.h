#pragma once
// Copies and casts between tensors of any strides and dtypes (Tensor.copy_, .to, .clone), and
// fill_. Element conversion follows scalar_cast.h. In-place writers bump the version counter.
#include <string>

#include "libcompiler/tensor/scalar.h"
#include "libcompiler/tensor/tensor.h"

namespace kiln::tensor {

// dst.copy_(src): src broadcasts to dst's shape; dtypes may differ. Returns dst.
const Tensor& copy_(const Tensor& dst, const Tensor& src);
// A new contiguous tensor with self's values (self.clone(memory_format=torch.contiguous_format)).
Tensor clone_contiguous(const Tensor& self);
// self.to(dtype): self itself when the dtype already matches, else a converted contiguous copy.
Tensor to_dtype(const Tensor& self, DType dtype);
// self.fill_(value). Returns self.
const Tensor& fill_(const Tensor& self, const Scalar& value);

// The kernels behind copy_ and fill_, without the version bump: for filling a tensor nobody has
// seen yet (factories, clones), whose _version PyTorch leaves at 0. A copy from or to another
// device than the CPU runs that device's registered copy: the one place data crosses devices.
void copy_elements(const Tensor& dst, const Tensor& src);

// How a device runtime copies between its memory and the host's (either side may be the CPU).
using DeviceCopyFunction = void (*)(const Tensor& dst, const Tensor& src);
// Installs (or, with nullptr, removes) the copy of a device type, at the runtime's start-up.
void register_device_copy(DeviceType type, DeviceCopyFunction copy);
// How a device runtime fills its memory (fill_elements on that device's tensors).
using DeviceFillFunction = void (*)(const Tensor& self, const Scalar& value);
void register_device_fill(DeviceType type, DeviceFillFunction fill);
// self on the CPU (self itself when it is there already): what every host-side reader of tensor
// data (printing, .item()/.tolist(), repro and accuracy writers) reads instead of self.
Tensor to_host(const Tensor& self);
void fill_elements(const Tensor& self, const Scalar& value);
// A storage's bytes, read on the host wherever the storage lives (content stores, checkpoints).
std::string host_bytes(const Storage& storage);
// A copy of a storage's bytes in a storage on `device` (the storage itself when it is there):
// views of the storage, rebuilt over the copy, keep their offsets and overlaps.
Storage storage_on(const Storage& storage, const Device& device);

}  // namespace kiln::tensor
