#include "libcompiler/cuda/multi_tensor.h"

#include <cstdint>
#include <map>

#include "libcompiler/cuda/context.h"
#include "libcompiler/cuda/kernel_source.h"
#include "libcompiler/cuda/loaded_kernels.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::cuda {

namespace {

constexpr const char* kUnscaleEntry = "kiln_amp_unscale";

// The kernel's parameter: the launch's tensors, and per block the tensor and chunk it takes. Its
// layout in device code is amp_unscale_source's KilnChunks.
struct Chunks {
  void* data[kMultiTensorTensors];
  int64_t numel[kMultiTensorTensors];
  int32_t tensor[kMultiTensorBlocks];
  int32_t chunk[kMultiTensorBlocks];
};
static_assert(sizeof(Chunks) <= 4096, "a kernel's parameters take at most 4 KB");

// Fills table after table with the tensors' chunks and hands each full one (and the last) to
// `launch(table, blocks)`.
template <class Launch>
void for_each_launch(const std::vector<tensor::Tensor>& tensors, const Launch& launch) {
  Chunks table{};
  int tensors_in = 0, blocks = 0;
  for (const tensor::Tensor& t : tensors) {
    const int64_t numel = t.numel();
    if (numel == 0) continue;
    table.data[tensors_in] = t.data_ptr();
    table.numel[tensors_in] = numel;
    ++tensors_in;
    const int64_t chunks = (numel + kMultiTensorChunk - 1) / kMultiTensorChunk;
    for (int64_t c = 0; c < chunks; ++c) {
      table.tensor[blocks] = tensors_in - 1;
      table.chunk[blocks] = static_cast<int32_t>(c);
      ++blocks;
      const bool last_chunk = c + 1 == chunks;
      if (blocks < kMultiTensorBlocks && !(last_chunk && tensors_in == kMultiTensorTensors)) continue;
      launch(table, blocks);
      blocks = 0;
      // A tensor whose chunks go on in the next launch is that launch's first.
      table.data[0] = table.data[tensors_in - 1];
      table.numel[0] = table.numel[tensors_in - 1];
      tensors_in = last_chunk ? 0 : 1;
    }
  }
  if (blocks > 0) launch(table, blocks);
}

}  // namespace

std::string amp_unscale_source(tensor::DType grad_dtype) {
  // The table's sizes and the dtypes first, then a body that only names them.
  return kernel_preamble() + "typedef " + std::string(storage_type(grad_dtype)) + " kiln_grad;\n" + "typedef " +
         std::string(compute_type(grad_dtype)) + " kiln_opmath;\n" + "constexpr int kTensors = " + std::to_string(kMultiTensorTensors) +
         ", kBlocks = " + std::to_string(kMultiTensorBlocks) + ";\n" + "constexpr long long kChunk = " + std::to_string(kMultiTensorChunk) +
         ";\n" + R"(struct KilnChunks { kiln_grad* data[kTensors]; long long numel[kTensors]; int tensor[kBlocks]; int chunk[kBlocks]; };
extern "C" __global__ void kiln_amp_unscale(KilnChunks c, float* __restrict__ found_inf, const float* __restrict__ inv_scale) {
  const int t = c.tensor[blockIdx.x];
  const long long begin = (long long)c.chunk[blockIdx.x] * kChunk;
  const long long end = begin + kChunk < c.numel[t] ? begin + kChunk : c.numel[t];
  kiln_grad* data = c.data[t];
  const kiln_opmath inv = *inv_scale;
  bool non_finite = false;
  for (long long i = begin + threadIdx.x; i < end; i += blockDim.x) {
    const kiln_opmath v = kiln_load(data + i);
    non_finite = non_finite || !kiln_isfinite(v);
    kiln_store(data + i, inv == 1 ? v : v * inv);
  }
  if (__syncthreads_or(non_finite) && threadIdx.x == 0) *found_inf = 1.0f;
}
)";
}

void amp_foreach_non_finite_check_and_unscale(const std::vector<tensor::Tensor>& grads, const tensor::Tensor& found_inf,
                                              const tensor::Tensor& inv_scale) {
  ops::check_amp_unscale_arguments(grads, found_inf, inv_scale);
  // ATen's CUDA kernel takes float, double and half gradients (its CPU kernel bfloat16 too).
  for (const tensor::Tensor& grad : grads)
    if (grad.dtype() == tensor::DType::BFloat16)
      throw tensor::TorchError(tensor::PyErrorKind::NotImplementedError,
                               "\"_amp_foreach_non_finite_check_and_unscale_cuda\" not implemented for 'BFloat16'");
  std::map<tensor::DType, std::vector<tensor::Tensor>> dense;
  std::vector<tensor::Tensor> others;
  for (const tensor::Tensor& grad : grads) (grad.is_contiguous() ? dense[grad.dtype()] : others).push_back(grad);
  if (!others.empty()) ops::amp_unscale_each(others, found_inf, inv_scale);
  if (dense.empty()) return;
  make_current(device_index(found_inf.device()));
  for (const auto& [dtype, tensors] : dense) {
    const KernelFunction kernel = loaded_kernel(
        std::string(kUnscaleEntry) + "|" + std::string(tensor::dtype_name(dtype)), [&] { return amp_unscale_source(dtype); }, kUnscaleEntry);
    void* found = found_inf.data_ptr();
    void* inv = inv_scale.data_ptr();
    for_each_launch(tensors, [&](Chunks& table, int blocks) {
      std::vector<void*> arguments = {&table, &found, &inv};
      launch_blocks(kernel, blocks, arguments, 512, 1);
    });
  }
}

}  // namespace kiln::cuda
