#include "libcompiler/tensor/copy.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/elementwise_loop.h"
#include "libcompiler/tensor/parallel.h"
#include "libcompiler/tensor/scalar_cast.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::tensor {

namespace {

void check_cpu(const Tensor& t, const char* what) {
  if (t.device().type != DeviceType::CPU)
    throw_runtime_error(std::string(what) + ": only cpu tensors have a kernel here, got " + t.device().str());
}

DeviceCopyFunction& device_copy(DeviceType type) {
  static DeviceCopyFunction copies[kNumDeviceTypes] = {};
  return copies[static_cast<int>(type)];
}

DeviceFillFunction& device_fill(DeviceType type) {
  static DeviceFillFunction fills[kNumDeviceTypes] = {};
  return fills[static_cast<int>(type)];
}

// dst (rows x cols, contiguous) = the transpose of a contiguous cols x rows matrix at src:
// a.t().contiguous(), or the re-layout that puts a reduced outer dim innermost. Element by element
// one side is read or written a whole row apart each time; tiles go through a small buffer, so
// both sides are read and written a cache line at a time (the lines of one tile, a power of two
// apart, would otherwise evict each other). A tile spans kTileRows rows of dst (a run of each
// source row) by 16 columns: 16 x 16 for most dtypes, 64 rows for 8-byte elements, whose 16 x 16
// tiles ran 25% slower than 64 x 16 ones here (a 2048 x 1024 float64 matrix; 16 x 16 stays
// fastest for float32). Bands of tile rows go to the threads.
template <typename T>
void transpose_into(T* dst, const T* src, int64_t rows, int64_t cols) {
  constexpr int64_t kTileRows = sizeof(T) == 8 ? 64 : 16;
  constexpr int64_t kTileCols = 16;
  const int64_t bands = (rows + kTileRows - 1) / kTileRows;
  parallel_for(0, bands, std::max<int64_t>(1, kGrainSize / (kTileRows * cols)), [&](int64_t band_begin, int64_t band_end) {
    T tile[kTileCols][kTileRows];
    for (int64_t i0 = band_begin * kTileRows; i0 < std::min(band_end * kTileRows, rows); i0 += kTileRows)
      for (int64_t j0 = 0; j0 < cols; j0 += kTileCols) {
        const int64_t di = std::min(kTileRows, rows - i0), dj = std::min(kTileCols, cols - j0);
        for (int64_t j = 0; j < dj; ++j)
          for (int64_t i = 0; i < di; ++i) tile[j][i] = src[(j0 + j) * rows + i0 + i];
        for (int64_t i = 0; i < di; ++i)
          for (int64_t j = 0; j < dj; ++j) dst[(i0 + i) * cols + j0 + j] = tile[j][i];
      }
  });
}

// Whether src is the transpose of a contiguous matrix that dst, contiguous, takes in the same dtype.
bool is_transposed_copy(const Tensor& dst, const Tensor& src) {
  return dst.dtype() == src.dtype() && dst.dim() == 2 && dst.is_contiguous() && src.sizes() == dst.sizes() && src.size(0) > 1 &&
         src.size(1) > 1 && src.stride(0) == 1 && src.stride(1) == src.size(0);
}

// One run of a copy: when both sides are contiguous in it, bytes copied if the dtypes match and a
// plain array loop the compiler vectorises if they differ; element by element otherwise.
template <typename To, typename From>
void copy_run(char* const* data, const int64_t* strides, int64_t n) {
  char* out = data[0];
  const char* in = data[1];
  // The typed loop needs aligned elements (storages are; a byte view at an odd offset is not).
  const bool aligned = reinterpret_cast<uintptr_t>(out) % alignof(To) == 0 && reinterpret_cast<uintptr_t>(in) % alignof(From) == 0;
  if (strides[0] == sizeof(To) && strides[1] == sizeof(From) && (aligned || std::is_same_v<To, From>)) {
    if constexpr (std::is_same_v<To, From>) {
      std::memcpy(out, in, static_cast<size_t>(n) * sizeof(To));
    } else {
      To* o = reinterpret_cast<To*>(out);
      const From* x = reinterpret_cast<const From*>(in);
      for (int64_t i = 0; i < n; ++i) o[i] = cast_scalar<To>(x[i]);
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i, out += strides[0], in += strides[1]) {
    From value;
    std::memcpy(&value, in, sizeof(From));
    const To converted = cast_scalar<To>(value);
    std::memcpy(out, &converted, sizeof(To));
  }
}

}  // namespace

void register_device_copy(DeviceType type, DeviceCopyFunction copy) { device_copy(type) = copy; }

void register_device_fill(DeviceType type, DeviceFillFunction fill) { device_fill(type) = fill; }

namespace {

// A storage's bytes as a uint8 tensor.
Tensor bytes_of(const Storage& storage) {
  return Tensor(std::make_shared<TensorImpl>(TensorImpl{storage, {static_cast<int64_t>(storage.nbytes())}, {1}, 0, DType::UInt8}));
}

}  // namespace

std::string host_bytes(const Storage& storage) {
  if (storage.device().type == DeviceType::CPU) return std::string(static_cast<const char*>(storage.data()), storage.nbytes());
  const Tensor host = to_host(bytes_of(storage));
  return std::string(static_cast<const char*>(host.data_ptr()), storage.nbytes());
}

Storage storage_on(const Storage& storage, const Device& device) {
  if (storage.device().type == device.type && (device.index < 0 || storage.device() == device)) return storage;
  const Tensor placed = Tensor::empty({static_cast<int64_t>(storage.nbytes())}, DType::UInt8, device);
  copy_elements(placed, bytes_of(storage));
  return placed.storage();
}

Tensor to_host(const Tensor& self) {
  if (self.device().type == DeviceType::CPU) return self;
  Tensor host = Tensor::empty(self.sizes(), self.dtype(), kCPU);
  copy_elements(host, self);
  return host;
}

void copy_elements(const Tensor& dst, const Tensor& src) {
  const Tensor& other_side = dst.device().type != DeviceType::CPU ? dst : src;
  if (DeviceCopyFunction copy = device_copy(other_side.device().type)) return copy(dst, src);
  check_cpu(dst, "copy_");
  check_cpu(src, "copy_");
  if (is_transposed_copy(dst, src)) {
    visit_dtype(dst.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      transpose_into(dst.data_ptr<T>(), src.data_ptr<T>(), dst.size(0), dst.size(1));
    });
    return;
  }
  ElementwiseLoop loop({dst}, {src});
  visit_dtype(dst.dtype(), [&](auto dst_tag) {
    using To = typename decltype(dst_tag)::type;
    if (dst.dtype() == src.dtype()) {
      for_each_run(loop, copy_run<To, To>);
      return;
    }
    visit_dtype(src.dtype(), [&](auto src_tag) { for_each_run(loop, copy_run<To, typename decltype(src_tag)::type>); });
  });
}

const Tensor& copy_(const Tensor& dst, const Tensor& src) {
  copy_elements(dst, src);
  dst.bump_version();
  return dst;
}

Tensor clone_contiguous(const Tensor& self) {
  Tensor out = Tensor::empty(self.sizes(), self.dtype(), self.device());
  copy_elements(out, self);
  return out;
}

Tensor to_dtype(const Tensor& self, DType dtype) {
  if (self.dtype() == dtype) return self;
  Tensor out = Tensor::empty(self.sizes(), dtype, self.device());
  copy_elements(out, self);
  return out;
}

void fill_elements(const Tensor& self, const Scalar& value) {
  if (DeviceFillFunction fill = device_fill(self.device().type)) return fill(self, value);
  check_cpu(self, "fill_");
  ElementwiseLoop loop({self}, {});
  visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T converted = value.to<T>();
    loop.for_each([&](char* const* data, const int64_t* strides, int64_t n) {
      char* out = data[0];
      for (int64_t i = 0; i < n; ++i, out += strides[0]) std::memcpy(out, &converted, sizeof(T));
    });
  });
}

const Tensor& fill_(const Tensor& self, const Scalar& value) {
  fill_elements(self, value);
  self.bump_version();
  return self;
}

}  // namespace kiln::tensor
