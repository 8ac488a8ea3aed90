#include "libcompiler/cuda/reduction.h"

#include <algorithm>

#include "libcompiler/cuda/context.h"
#include "libcompiler/cuda/kernel_source.h"
#include "libcompiler/cuda/loaded_kernels.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::cuda {

namespace {

constexpr const char* kReduceEntry = "kiln_reduce";
constexpr unsigned kBlock = 256;

}  // namespace

std::string reduction_source(const tensor::Tensor& out, const tensor::Tensor& in, tensor::DType accumulate,
                             const ReductionSpelling& spelling) {
  std::string source = kernel_preamble();
  source += "struct Geometry { long long rows; long long n; long long kept_ndim; long long kept_sizes[KILN_MAX_DIMS];"
            " long long kept_strides[KILN_MAX_DIMS]; long long reduced_ndim; long long reduced_sizes[KILN_MAX_DIMS];"
            " long long reduced_strides[KILN_MAX_DIMS]; };\n";
  source += "typedef " + std::string(compute_type(accumulate)) + " ACC;\n";
  source += "__device__ __forceinline__ ACC kiln_combine(ACC a, ACC b) { return " + std::string(spelling.combine) + "; }\n";
  source += "extern \"C\" __global__ void " + std::string(kReduceEntry) + "(" + std::string(storage_type(out.dtype())) +
            "* __restrict__ out, const " + std::string(storage_type(in.dtype())) + "* __restrict__ in, Geometry g) {\n";
  source += R"(  __shared__ ACC partial[256];
  const long long n = g.n;
  for (long long row = blockIdx.x; row < g.rows; row += gridDim.x) {
    long long base = 0, rest = row;
    for (int d = (int)g.kept_ndim - 1; d >= 0; --d) {
      base += (rest % g.kept_sizes[d]) * g.kept_strides[d];
      rest /= g.kept_sizes[d];
    }
    ACC acc = )" + std::string(spelling.init) + R"(;
    for (long long j = threadIdx.x; j < n; j += blockDim.x) {
      long long offset = base, r = j;
      for (int d = (int)g.reduced_ndim - 1; d >= 0; --d) {
        offset += (r % g.reduced_sizes[d]) * g.reduced_strides[d];
        r /= g.reduced_sizes[d];
      }
      acc = kiln_combine(acc, (ACC)kiln_load(in + offset));
    }
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s) partial[threadIdx.x] = kiln_combine(partial[threadIdx.x], partial[threadIdx.x + s]);
      __syncthreads();
    }
    if (threadIdx.x == 0) {
      acc = partial[0];
      kiln_store(out + row, )" + std::string(spelling.finish) + R"();
    }
    __syncthreads();
  }
}
)";
  return source;
}

void run_reduction(const tensor::Tensor& out, const tensor::Tensor& in, std::vector<int64_t> dims, tensor::DType accumulate,
                   const ReductionSpelling& spelling) {
  make_current(device_index(in.device()));
  const int64_t ndim = in.dim();
  if (dims.empty())
    for (int64_t d = 0; d < ndim; ++d) dims.push_back(d);
  for (int64_t& d : dims) d = d < 0 ? d + ndim : d;
  std::vector<int64_t> geometry(3 + 2 * kMaxKernelDims + 1 + 2 * kMaxKernelDims, 0);
  int64_t rows = 1, n = 1, kept = 0, reduced = 0;
  for (int64_t d = 0; d < ndim; ++d) {
    const bool is_reduced = std::find(dims.begin(), dims.end(), d) != dims.end();
    if (in.size(d) == 1) continue;
    if ((is_reduced ? reduced : kept) >= kMaxKernelDims)
      tensor::throw_runtime_error("kiln's CUDA reductions take at most " + std::to_string(kMaxKernelDims) + " dimensions of each kind");
    if (is_reduced) {
      geometry[3 + 2 * kMaxKernelDims + 1 + reduced] = in.size(d);
      geometry[3 + 3 * kMaxKernelDims + 1 + reduced] = in.stride(d);
      n *= in.size(d);
      ++reduced;
    } else {
      geometry[3 + kept] = in.size(d);
      geometry[3 + kMaxKernelDims + kept] = in.stride(d);
      rows *= in.size(d);
      ++kept;
    }
  }
  geometry[0] = rows;
  geometry[1] = in.numel() == 0 ? 0 : n;
  geometry[2] = kept;
  geometry[3 + 2 * kMaxKernelDims] = reduced;
  const std::string key = std::string(spelling.init) + "|" + spelling.combine + "|" + spelling.finish + "|" + std::string(tensor::dtype_name(out.dtype())) +
                          "|" + std::string(tensor::dtype_name(in.dtype())) + "|" + std::string(tensor::dtype_name(accumulate));
  KernelFunction kernel = loaded_kernel(key, [&] { return reduction_source(out, in, accumulate, spelling); }, kReduceEntry);
  void* out_pointer = out.data_ptr();
  void* in_pointer = in.data_ptr();
  std::vector<void*> arguments = {&out_pointer, &in_pointer, geometry.data()};
  launch_rows(kernel, std::min<int64_t>(rows, 65535), arguments, kBlock);
}

}  // namespace kiln::cuda
