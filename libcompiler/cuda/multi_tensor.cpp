#include "libcompiler/cuda/multi_tensor.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <map>

#include "libcompiler/cuda/context.h"
#include "libcompiler/cuda/eager_kernels.h"
#include "libcompiler/cuda/kernel_source.h"
#include "libcompiler/cuda/loaded_kernels.h"
#include "libcompiler/cuda/pointwise.h"
#include "libcompiler/ops/kernel_registry.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::cuda {

namespace {

using ops::OpId;
using tensor::Tensor;

// A launch's table, the kernel's first parameter: per list an array of kMultiTensorTensors
// pointers, the tensors' element counts, then per block the tensor (its slot) and chunk it takes;
// table_declaration() declares the same layout in device code.
class LaunchTable {
 public:
  explicit LaunchTable(size_t lists)
      : lists_(lists), bytes_((lists + 1) * 8 * kMultiTensorTensors + 2 * 4 * kMultiTensorBlocks, 0) {}
  void set_tensor(int slot, const std::vector<void*>& pointers, int64_t numel) {
    for (size_t l = 0; l < lists_; ++l) std::memcpy(&bytes_[(l * kMultiTensorTensors + slot) * 8], &pointers[l], 8);
    std::memcpy(&bytes_[(lists_ * kMultiTensorTensors + slot) * 8], &numel, 8);
  }
  void set_block(int block, int slot, int32_t chunk) {
    const size_t blocks_at = (lists_ + 1) * 8 * kMultiTensorTensors;
    std::memcpy(&bytes_[blocks_at + block * 4], &slot, 4);
    std::memcpy(&bytes_[blocks_at + (kMultiTensorBlocks + block) * 4], &chunk, 4);
  }
  void* data() { return bytes_.data(); }

 private:
  size_t lists_;
  std::vector<char> bytes_;
};

// `pointers`: the table's pointer arrays, one declaration each ("kiln_t* out").
std::string table_declaration(const std::vector<std::string>& pointers) {
  std::string fields;
  for (const std::string& p : pointers) fields += p + "[kTensors]; ";
  return "struct KilnTable { " + fields + "long long numel[kTensors]; int tensor[kBlocks]; int chunk[kBlocks]; };\n";
}

// What every multi-tensor kernel starts with: the preamble, the element and compute types, the
// table's sizes.
std::string multi_tensor_prelude(tensor::DType dtype) {
  static_assert((1 + 4) * 8 * kMultiTensorTensors + 2 * 4 * kMultiTensorBlocks + 4 * 8 <= 4096,
                "a kernel's parameters (a table of four pointer lists, and four scalars) take at most 4 KB");
  return kernel_preamble() + "typedef " + std::string(storage_type(dtype)) + " kiln_t;\ntypedef " + std::string(compute_type(dtype)) +
         " C;\nconstexpr int kTensors = " + std::to_string(kMultiTensorTensors) + ", kBlocks = " + std::to_string(kMultiTensorBlocks) +
         ";\nconstexpr long long kChunk = " + std::to_string(kMultiTensorChunk) + ";\n";
}

// The lines that open a block's loop over its chunk's elements `i` of tensor slot `t`.
constexpr const char* kChunkLoop = R"(  const int t = table.tensor[blockIdx.x];
  const long long begin = (long long)table.chunk[blockIdx.x] * kChunk;
  const long long end = begin + kChunk < table.numel[t] ? begin + kChunk : table.numel[t];
  for (long long i = begin + threadIdx.x; i < end; i += blockDim.x) {
)";
constexpr unsigned kBlockThreads = 512;

// Fills table after table with the chunks of lists[0]'s tensors (the other lists' tensors at the
// same index have as many elements) and hands each full one, and the last, to
// `launch(table, blocks)`.
template <class Launch>
void for_each_launch(const std::vector<std::vector<Tensor>>& lists, const Launch& launch) {
  LaunchTable table(lists.size());
  int slot = 0, blocks = 0;
  for (size_t k = 0; k < lists[0].size(); ++k) {
    const int64_t numel = lists[0][k].numel();
    if (numel == 0) continue;
    std::vector<void*> pointers;
    for (const auto& list : lists) pointers.push_back(list[k].data_ptr());
    table.set_tensor(slot, pointers, numel);
    const int64_t chunks = (numel + kMultiTensorChunk - 1) / kMultiTensorChunk;
    for (int64_t c = 0; c < chunks; ++c) {
      table.set_block(blocks++, slot, static_cast<int32_t>(c));
      const bool last_chunk = c + 1 == chunks;
      if (blocks < kMultiTensorBlocks && !(last_chunk && slot + 1 == kMultiTensorTensors)) continue;
      launch(table, blocks);
      blocks = 0;
      // A tensor whose chunks go on in the next launch is that launch's first.
      table.set_tensor(0, pointers, numel);
      slot = last_chunk ? -1 : 0;
    }
    ++slot;
  }
  if (blocks > 0) launch(table, blocks);
}

// Whether a foreach call may take the multi-tensor kernel (dispatch asks it only outside autograd):
// CUDA tensors, each contiguous, all of self's floating dtype, each list's k-th tensor as long as
// self's.
bool multi_tensor_eligible(const std::vector<std::vector<Tensor>>& lists) {
  const std::vector<Tensor>& self = lists[0];
  if (self.empty() || !tensor::is_floating_point(self[0].dtype())) return false;
  for (const auto& list : lists) {
    if (list.size() != self.size()) return false;
    for (size_t k = 0; k < list.size(); ++k) {
      const Tensor& t = list[k];
      if (t.device().type != tensor::DeviceType::CUDA || t.device() != self[0].device() || !t.is_contiguous() ||
          t.dtype() != self[0].dtype() || t.numel() != self[k].numel())
        return false;
    }
  }
  return true;
}

template <OpId Foreach, OpId PerTensor>
std::vector<Tensor> foreach_kernel(const ops::Arguments& args) {
  const ops::OpInfo& foreach = ops::op_info(Foreach);
  const ops::FunctionSchema& single = ops::op_info(PerTensor).schema;
  std::vector<std::vector<Tensor>> inputs;
  std::vector<PointwiseScalar> scalars;
  for (size_t i = 0; i < single.arguments.size(); ++i) {
    const ops::SchemaArgument& argument = single.arguments[i];
    if (argument.type.base == ops::SchemaType::Base::Tensor) {
      inputs.push_back(args.tensor_list(i));
    } else {
      scalars.push_back({argument.name, i < foreach.schema.arguments.size() ? args.scalar(i) : argument.default_value->to_scalar()});
    }
  }
  if (!multi_tensor_eligible(inputs)) return foreach.cpu_kernel(args);
  const bool in_place = foreach.schema.returns.empty();
  std::vector<Tensor> outputs;
  for (const Tensor& t : inputs[0]) outputs.push_back(in_place ? t : Tensor::empty(t.sizes(), t.dtype(), t.device()));
  make_current(device_index(outputs[0].device()));
  const tensor::DType dtype = outputs[0].dtype();
  static const std::string key = "kiln_foreach|" + single.name + "." + single.overload + "|";
  const KernelFunction kernel = loaded_kernel(key + std::string(tensor::dtype_name(dtype)),
                                              [&] { return foreach_source(PerTensor, dtype); }, "kiln_foreach");
  std::vector<std::array<char, 8>> values;
  for (const PointwiseScalar& s : scalars) values.push_back(scalar_argument(s.value, dtype));
  std::vector<std::vector<Tensor>> lists = {outputs};
  lists.insert(lists.end(), inputs.begin(), inputs.end());
  for_each_launch(lists, [&](LaunchTable& table, int blocks) {
    std::vector<void*> arguments = {table.data()};
    for (auto& value : values) arguments.push_back(value.data());
    launch_blocks(kernel, blocks, arguments, kBlockThreads, 1);
  });
  if (!in_place) return outputs;
  for (const Tensor& t : outputs) t.bump_version();
  return {};
}

}  // namespace

std::string amp_unscale_source(tensor::DType grad_dtype) {
  return multi_tensor_prelude(grad_dtype) + table_declaration({"kiln_t* data"}) +
         "extern \"C\" __global__ void kiln_amp_unscale(KilnTable table, float* __restrict__ found_inf, const float* __restrict__ "
         "inv_scale) {\n  const C inv = *inv_scale;\n  bool non_finite = false;\n" +
         kChunkLoop + R"(    const C v = kiln_load(table.data[t] + i);
    non_finite = non_finite || !kiln_isfinite(v);
    kiln_store(table.data[t] + i, inv == 1 ? v : v * inv);
  }
  if (__syncthreads_or(non_finite) && threadIdx.x == 0) *found_inf = 1.0f;
}
)";
}

std::string foreach_source(OpId per_tensor, tensor::DType dtype) {
  std::vector<std::string> pointers = {"kiln_t* out"};
  std::string parameters = "KilnTable table", body = kChunkLoop;
  int inputs = 0;
  for (const ops::SchemaArgument& argument : ops::op_info(per_tensor).schema.arguments) {
    if (argument.type.base != ops::SchemaType::Base::Tensor) {
      parameters += ", C " + argument.name;
      continue;
    }
    const std::string list = "in" + std::to_string(inputs++);
    pointers.push_back("const kiln_t* " + list);
    body += "    const C " + argument.name + " = kiln_load(table." + list + "[t] + i);\n";
  }
  body += "    kiln_store(table.out[t] + i, " + std::string(pointwise_table_expression(per_tensor)) + ");\n  }\n}\n";
  return multi_tensor_prelude(dtype) + table_declaration(pointers) + "extern \"C\" __global__ void kiln_foreach(" + parameters + ") {\n" + body;
}

void amp_foreach_non_finite_check_and_unscale(const std::vector<Tensor>& grads, const Tensor& found_inf, const Tensor& inv_scale) {
  ops::check_amp_unscale_arguments(grads, found_inf, inv_scale);
  // ATen's CUDA kernel takes float, double and half gradients (its CPU kernel bfloat16 too).
  for (const Tensor& grad : grads)
    if (grad.dtype() == tensor::DType::BFloat16)
      throw tensor::TorchError(tensor::PyErrorKind::NotImplementedError,
                               "\"_amp_foreach_non_finite_check_and_unscale_cuda\" not implemented for 'BFloat16'");
  std::map<tensor::DType, std::vector<Tensor>> dense;
  std::vector<Tensor> others;
  for (const Tensor& grad : grads) (grad.is_contiguous() ? dense[grad.dtype()] : others).push_back(grad);
  if (!others.empty()) ops::amp_unscale_each(others, found_inf, inv_scale);
  if (dense.empty()) return;
  make_current(device_index(found_inf.device()));
  for (const auto& [dtype, tensors] : dense) {
    const KernelFunction kernel = loaded_kernel(
        std::string("kiln_amp_unscale|") + std::string(tensor::dtype_name(dtype)), [&] { return amp_unscale_source(dtype); }, "kiln_amp_unscale");
    void* found = found_inf.data_ptr();
    void* inv = inv_scale.data_ptr();
    for_each_launch({tensors}, [&](LaunchTable& table, int blocks) {
      std::vector<void*> arguments = {table.data(), &found, &inv};
      launch_blocks(kernel, blocks, arguments, kBlockThreads, 1);
    });
  }
}

void register_foreach_kernels() {
#define KILN_CUDA_FOREACH(Foreach, PerTensor) \
  ops::register_kernel_outside_autograd(OpId::Foreach, tensor::DeviceType::CUDA, &foreach_kernel<OpId::Foreach, OpId::PerTensor>);
#include "libcompiler/cuda/foreach_ops.def"
}

}  // namespace kiln::cuda
