#include "libcompiler/cuda/indexed_move.h"

#include <array>

#include "libcompiler/cuda/context.h"
#include "libcompiler/cuda/kernel_source.h"
#include "libcompiler/cuda/loaded_kernels.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::cuda {

namespace {

constexpr const char* kEntry = "kiln_indexed_move";

// The parameter block's layout, in int64s: numel, ndim, sizes, the three operands' strides
// (dst, src, index), then the scalars below.
constexpr size_t kStridesAt = 2 + kMaxKernelDims;
constexpr size_t kScalarsAt = kStridesAt + 3 * kMaxKernelDims;
enum Scalar : size_t { DstIndexStride, SrcIndexStride, Bound, Skip, HasSkip, ScalarCount };

void put_strides(std::vector<int64_t>& block, size_t operand, const std::vector<int64_t>& strides, size_t ndim) {
  for (size_t d = 0; d < ndim; ++d) block[kStridesAt + operand * kMaxKernelDims + d] = d < strides.size() ? strides[d] : 0;
}

}  // namespace

std::string indexed_move_source(const IndexedMove& move) {
  const tensor::DType dtype = move.dst.dtype();
  const std::string c(compute_type(dtype)), t(storage_type(dtype));
  std::string source = kernel_preamble();
  source += "struct IndexedGeometry { long long numel; long long ndim; long long sizes[KILN_MAX_DIMS]; long long strides[3][KILN_MAX_DIMS]; "
            "long long dst_index_stride; long long src_index_stride; long long bound; long long skip; long long has_skip; };\n";
  source += "extern \"C\" __global__ void " + std::string(kEntry) + "(" + t + "* dst, const " + t + "* __restrict__ src, const " +
            std::string(storage_type(move.index.dtype())) + "* __restrict__ index, " + c + " value, " + c + " scale, IndexedGeometry g) {\n";
  source += "  typedef " + c + " C;\n";
  source += "  typedef long long I;\n";
  source += "  for (I i = (I)blockIdx.x * blockDim.x + threadIdx.x; i < g.numel; i += (I)gridDim.x * blockDim.x) {\n";
  source += offsets_from_position(3);
  source += "    const long long v = (long long)index[offset[2]];\n";
  source += "    if (g.has_skip && v == g.skip) continue;\n";
  source += "    if (v < 0 || v >= g.bound) __trap();\n";
  source += "    " + t + "* target = dst + offset[0] + v * g.dst_index_stride;\n";
  const std::string element = move.src.defined() ? "(C)kiln_load(src + offset[1] + v * g.src_index_stride)" : "value";
  if (!move.accumulate) {
    source += "    kiln_store(target, " + element + ");\n";
  } else if (dtype == tensor::DType::Int64) {
    source += "    atomicAdd((unsigned long long*)target, (unsigned long long)(scale * " + element + "));\n";
  } else {
    source += "    atomicAdd(target, (" + t + ")(scale * " + element + "));\n";
  }
  source += "  }\n}\n";
  return source;
}

bool can_accumulate(tensor::DType dtype) {
  return dtype == tensor::DType::Float32 || dtype == tensor::DType::Float64 || dtype == tensor::DType::Int32 || dtype == tensor::DType::Int64;
}

void run_indexed_move(const IndexedMove& move) {
  if (move.accumulate && !can_accumulate(move.dst.dtype()))
    tensor::throw_runtime_error("kiln's CUDA kernels do not accumulate into " + std::string(tensor::scalar_type_name(move.dst.dtype())));
  if (move.sizes.size() > static_cast<size_t>(kMaxKernelDims))
    tensor::throw_runtime_error("kiln's CUDA kernels index at most " + std::to_string(kMaxKernelDims) + " dimensions");
  int64_t numel = 1;
  for (int64_t size : move.sizes) numel *= size;
  make_current(device_index(move.dst.device()));
  if (numel == 0) return;
  const std::string key = std::string(tensor::dtype_name(move.dst.dtype())) + "|" + std::string(tensor::dtype_name(move.index.dtype())) +
                          (move.src.defined() ? "|tensor" : "|number") + (move.accumulate ? "|add" : "|set");
  KernelFunction kernel = loaded_kernel(key, [&] { return indexed_move_source(move); }, kEntry);

  std::vector<int64_t> block(kScalarsAt + ScalarCount, 0);
  block[0] = numel;
  block[1] = static_cast<int64_t>(move.sizes.size());
  for (size_t d = 0; d < move.sizes.size(); ++d) block[2 + d] = move.sizes[d];
  put_strides(block, 0, move.dst_strides, move.sizes.size());
  put_strides(block, 1, move.src_strides, move.sizes.size());
  put_strides(block, 2, move.index_strides, move.sizes.size());
  block[kScalarsAt + DstIndexStride] = move.dst_index_stride;
  block[kScalarsAt + SrcIndexStride] = move.src_index_stride;
  block[kScalarsAt + Bound] = move.bound;
  block[kScalarsAt + Skip] = move.skip.value_or(0);
  block[kScalarsAt + HasSkip] = move.skip.has_value();

  const tensor::DType compute = move.dst.dtype();
  void* dst = move.dst.data_ptr();
  void* src = move.src.defined() ? move.src.data_ptr() : nullptr;
  void* index = move.index.data_ptr();
  std::array<char, 8> value = scalar_argument(move.value, compute), scale = scalar_argument(move.scale, compute);
  std::vector<void*> arguments = {&dst, &src, &index, value.data(), scale.data(), block.data()};
  launch_over(kernel, numel, arguments);
}

}  // namespace kiln::cuda
