#include "libcompiler/cuda/pointwise.h"

#include <algorithm>
#include <array>
#include <cstdint>

#include "libcompiler/cuda/context.h"
#include "libcompiler/cuda/kernel_source.h"
#include "libcompiler/cuda/loaded_kernels.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::cuda {

namespace {

constexpr const char* kPointwiseEntry = "kiln_pointwise";

// Sizes of out's shape and each operand's strides in elements (out first, then the inputs, a
// broadcast dimension's stride 0), with size-1 dimensions dropped and dimensions merged where
// every operand walks them as one.
struct Geometry {
  std::vector<int64_t> sizes;
  std::vector<std::vector<int64_t>> strides;  // [operand][dim]
};

Geometry geometry_of(const tensor::Tensor& out, const std::vector<PointwiseInput>& inputs) {
  const int64_t ndim = out.dim();
  std::vector<const tensor::Tensor*> operands = {&out};
  for (const PointwiseInput& input : inputs) operands.push_back(&input.tensor);
  Geometry g;
  g.strides.resize(operands.size());
  for (int64_t d = 0; d < ndim; ++d) {
    if (out.size(d) == 1) continue;
    g.sizes.push_back(out.size(d));
    for (size_t k = 0; k < operands.size(); ++k) {
      const tensor::Tensor& t = *operands[k];
      const int64_t td = d - (ndim - t.dim());  // broadcasting aligns trailing dimensions
      g.strides[k].push_back(td < 0 || t.size(td) == 1 ? 0 : t.stride(td));
    }
  }
  // Merge dimension d into d + 1 (inner) where every operand steps over d as d + 1 continued.
  for (size_t d = g.sizes.size(); d-- > 1;) {
    bool mergeable = true;
    for (const auto& strides : g.strides) mergeable = mergeable && strides[d - 1] == strides[d] * g.sizes[d];
    if (!mergeable) continue;
    g.sizes[d - 1] *= g.sizes[d];
    g.sizes.erase(g.sizes.begin() + static_cast<ptrdiff_t>(d));
    for (auto& strides : g.strides) {
      strides[d - 1] = strides[d];
      strides.erase(strides.begin() + static_cast<ptrdiff_t>(d));
    }
  }
  if (g.sizes.size() > static_cast<size_t>(kMaxKernelDims))
    tensor::throw_runtime_error("kiln's CUDA kernels index at most " + std::to_string(kMaxKernelDims) + " dimensions that do not merge");
  return g;
}

// Whether a Flat32 kernel may take four elements a thread: float32 operands, each at a 16-byte boundary.
bool four_a_thread(const tensor::Tensor& out, const std::vector<PointwiseInput>& inputs) {
  const auto fits = [](const tensor::Tensor& t) {
    return t.dtype() == tensor::DType::Float32 && reinterpret_cast<uintptr_t>(t.data_ptr()) % 16 == 0;
  };
  return fits(out) && std::all_of(inputs.begin(), inputs.end(), [&](const PointwiseInput& input) { return fits(input.tensor); });
}

// Flat32 when every operand walks out's elements in order, contiguously; 32-bit positions when
// the elements and every operand's farthest offset fit in 31 bits.
PointwiseIndexing indexing_of(const Geometry& g, int64_t numel) {
  constexpr int64_t kLimit = int64_t{1} << 31;
  bool flat = g.sizes.size() <= 1;
  for (const auto& strides : g.strides) {
    int64_t farthest = 0;
    for (size_t d = 0; d < g.sizes.size(); ++d) {
      farthest += (g.sizes[d] - 1) * (strides[d] < 0 ? -strides[d] : strides[d]);
      flat = flat && strides[d] == 1;
    }
    if (farthest >= kLimit) return PointwiseIndexing::Strided64;
  }
  if (numel >= kLimit) return PointwiseIndexing::Strided64;
  return flat ? PointwiseIndexing::Flat32 : PointwiseIndexing::Strided32;
}

void check_operand(const tensor::Tensor& out, const tensor::Tensor& t) {
  if (t.device() != out.device())
    tensor::throw_runtime_error("Expected all tensors to be on the same device, but found at least two devices, " + out.device().str() +
                                " and " + t.device().str() + "!");
}

}  // namespace

std::string pointwise_source(const tensor::Tensor& out, const std::string& expression, tensor::DType compute,
                             const std::vector<PointwiseInput>& inputs, const std::vector<PointwiseScalar>& scalars,
                             PointwiseIndexing indexing) {
  const std::string c(compute_type(compute));
  const std::string operands = std::to_string(inputs.size() + 1);
  // 32-bit positions where they fit: a 64-bit division costs tens of instructions.
  const std::string index_type = indexing == PointwiseIndexing::Strided64 ? "long long" : "unsigned int";
  std::string source = kernel_preamble();
  source += "struct Geometry { long long numel; long long ndim; long long sizes[KILN_MAX_DIMS]; long long strides[" + operands + "][KILN_MAX_DIMS]; };\n";
  source += "extern \"C\" __global__ void " + std::string(kPointwiseEntry) + "(" + std::string(storage_type(out.dtype())) + "* __restrict__ out";
  for (size_t k = 0; k < inputs.size(); ++k)
    source += ", const " + std::string(storage_type(inputs[k].tensor.dtype())) + "* __restrict__ in" + std::to_string(k);
  for (const PointwiseScalar& scalar : scalars) source += ", " + c + " " + scalar.name;
  source += ", Geometry g) {\n";
  source += "  typedef " + c + " C;\n";
  source += "  typedef " + index_type + " I;\n";
  source += "  const I numel = (I)g.numel;\n";
  if (indexing == PointwiseIndexing::Flat32Vector4) {
    source += "  const I vectors = numel / 4;\n";
    source += "  for (I v = (I)blockIdx.x * blockDim.x + threadIdx.x; v < vectors; v += (I)gridDim.x * blockDim.x) {\n";
    for (size_t k = 0; k < inputs.size(); ++k)
      source += "    const float4 in" + std::to_string(k) + "_4 = reinterpret_cast<const float4*>(in" + std::to_string(k) + ")[v];\n";
    source += "    float4 out_4;\n";
    constexpr std::array<const char*, 4> kLanes = {"x", "y", "z", "w"};
    for (size_t l = 0; l < kLanes.size(); ++l) {
      const std::string lane = kLanes[l];
      source += "    {\n      const I i = 4 * v + " + std::to_string(l) + ";\n";
      for (size_t k = 0; k < inputs.size(); ++k)
        source += "      const C " + inputs[k].name + " = (C)in" + std::to_string(k) + "_4." + lane + ";\n";
      source += "      out_4." + lane + " = (float)(" + expression + ");\n    }\n";
    }
    source += "    reinterpret_cast<float4*>(out)[v] = out_4;\n  }\n";
    source += "  // the last numel % 4 elements\n";
  }
  source += "  for (I i = " + std::string(indexing == PointwiseIndexing::Flat32Vector4 ? "numel / 4 * 4 + " : "") +
            "(I)blockIdx.x * blockDim.x + threadIdx.x; i < numel; i += (I)gridDim.x * blockDim.x) {\n";
  if (indexing == PointwiseIndexing::Flat32 || indexing == PointwiseIndexing::Flat32Vector4) {
    source += "    const I offset[" + operands + "] = {";
    for (size_t k = 0; k <= inputs.size(); ++k) source += std::string(k ? ", " : "") + "i";
    source += "};\n";
  } else {
    source += offsets_from_position(inputs.size() + 1);
  }
  for (size_t k = 0; k < inputs.size(); ++k)
    source += "    const C " + inputs[k].name + " = (C)kiln_load(in" + std::to_string(k) + " + offset[" + std::to_string(k + 1) + "]);\n";
  source += "    kiln_store(out + offset[0], " + expression + ");\n";
  source += "  }\n}\n";
  return source;
}

void run_pointwise(const tensor::Tensor& out, const std::string& expression, tensor::DType compute,
                   const std::vector<PointwiseInput>& inputs, const std::vector<PointwiseScalar>& scalars) {
  for (const PointwiseInput& input : inputs) check_operand(out, input.tensor);
  make_current(device_index(out.device()));
  if (out.numel() == 0) return;
  const Geometry g = geometry_of(out, inputs);
  PointwiseIndexing indexing = indexing_of(g, out.numel());
  if (indexing == PointwiseIndexing::Flat32 && four_a_thread(out, inputs)) indexing = PointwiseIndexing::Flat32Vector4;
  // What the source depends on: the expression, the dtypes, the operands' names, the indexing.
  std::string key = expression + "|" + std::string(tensor::dtype_name(compute)) + "|" + std::string(tensor::dtype_name(out.dtype()));
  for (const PointwiseInput& input : inputs) key += "|" + input.name + ":" + std::string(tensor::dtype_name(input.tensor.dtype()));
  for (const PointwiseScalar& scalar : scalars) key += "|" + scalar.name;
  key += "|" + std::to_string(static_cast<int>(indexing));
  KernelFunction kernel =
      loaded_kernel(key, [&] { return pointwise_source(out, expression, compute, inputs, scalars, indexing); }, kPointwiseEntry);

  std::vector<int64_t> geometry(2 + kMaxKernelDims * (inputs.size() + 2), 0);
  geometry[0] = out.numel();
  geometry[1] = static_cast<int64_t>(g.sizes.size());
  for (size_t d = 0; d < g.sizes.size(); ++d) geometry[2 + d] = g.sizes[d];
  for (size_t k = 0; k < g.strides.size(); ++k)
    for (size_t d = 0; d < g.sizes.size(); ++d) geometry[2 + kMaxKernelDims * (k + 1) + d] = g.strides[k][d];

  std::vector<void*> pointers = {out.data_ptr()};
  for (const PointwiseInput& input : inputs) pointers.push_back(input.tensor.data_ptr());
  std::vector<std::array<char, 8>> values;
  for (const PointwiseScalar& scalar : scalars) values.push_back(scalar_argument(scalar.value, compute));
  std::vector<void*> arguments;
  for (void*& pointer : pointers) arguments.push_back(&pointer);
  for (auto& value : values) arguments.push_back(value.data());
  arguments.push_back(geometry.data());
  launch_over(kernel, indexing == PointwiseIndexing::Flat32Vector4 ? (out.numel() + 3) / 4 : out.numel(), arguments);
}

}  // namespace kiln::cuda
