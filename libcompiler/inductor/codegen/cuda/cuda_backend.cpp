#include "libcompiler/inductor/codegen/cuda/cuda_backend.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string_view>

#include "libcompiler/cuda/kernel_source.h"
#include "libcompiler/cuda/loaded_kernels.h"
#include "libcompiler/cuda/nvrtc.h"
#include "libcompiler/cuda/runtime.h"
#include "libcompiler/inductor/codegen/cuda/cuda_kernel_shape.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::inductor {

namespace {

// What the kernels' statements call, as scalar_ops.def and the reductions spell them, for the
// types loops compute in. NVRTC compiles without the host's headers.
// Inductor's spellings of the scalar ops over the eager kernels' helpers (kernel_source.h), and
// its reductions' identities and combines.
constexpr const char* kInductorHelpers = R"(// kiln's Inductor CUDA kernels
typedef long long int64_t;
typedef int int32_t;
#define inf __int_as_float(0x7f800000)
#define nan __int_as_float(0x7fc00000)
// half and bfloat16 values live in floats: a conversion to them rounds as a store would.
__device__ __forceinline__ float kiln_to_half(float v) { kiln_half h; kiln_store(&h, v); return kiln_load(&h); }
__device__ __forceinline__ float kiln_to_bfloat16(float v) { kiln_bfloat16 b; kiln_store(&b, v); return kiln_load(&b); }
template <typename T> __device__ __forceinline__ T maximum(T a, T b) { return kiln_maximum(a, b); }
template <typename T> __device__ __forceinline__ T minimum(T a, T b) { return kiln_minimum(a, b); }
template <typename T> __device__ __forceinline__ T relu(T x) { return kiln_relu(x); }
template <typename T> __device__ __forceinline__ T sigmoid(T x) { return kiln_sigmoid(x); }
// float32 sigmoid as Triton's tl.sigmoid (Inductor's) computes it: exp as ex2.approx of x*log2(e)
// and a full-range approximate division (div.full.f32, within 2 ulp): a third of the correctly
// rounded form's instructions. bench.py's gelu(x)*sigmoid(x) is as much arithmetic as memory
// traffic on an H200.
__device__ __forceinline__ float kiln_div_full(float a, float b) { float q; asm("div.full.f32 %0, %1, %2;" : "=f"(q) : "f"(a), "f"(b)); return q; }
__device__ __forceinline__ float sigmoid(float x) { return kiln_div_full(1.0f, 1.0f + __expf(-x)); }
template <typename T> __device__ __forceinline__ T reciprocal(T x) { return kiln_reciprocal(x); }
struct sum_identity_t { template <typename T> __device__ operator T() const { return T(0); } };
struct prod_identity_t { template <typename T> __device__ operator T() const { return T(1); } };
struct max_identity_t { template <typename T> __device__ operator T() const { return kiln_limits<T>::lowest(); } };
struct min_identity_t { template <typename T> __device__ operator T() const { return kiln_limits<T>::highest(); } };
#define sum_identity sum_identity_t{}
#define prod_identity prod_identity_t{}
#define max_identity max_identity_t{}
#define min_identity min_identity_t{}
template <typename A, typename B> __device__ __forceinline__ A sum_combine(A a, B b) { return a + A(b); }
template <typename A, typename B> __device__ __forceinline__ A prod_combine(A a, B b) { return a * A(b); }
template <typename A, typename B> __device__ __forceinline__ A max_combine(A a, B b) { return maximum(a, A(b)); }
template <typename A, typename B> __device__ __forceinline__ A min_combine(A a, B b) { return minimum(a, A(b)); }
struct sum_combine_op { template <typename A> __device__ A operator()(A a, A b) const { return sum_combine(a, b); } };
struct prod_combine_op { template <typename A> __device__ A operator()(A a, A b) const { return prod_combine(a, b); } };
struct max_combine_op { template <typename A> __device__ A operator()(A a, A b) const { return max_combine(a, b); } };
struct min_combine_op { template <typename A> __device__ A operator()(A a, A b) const { return min_combine(a, b); } };
)";

std::string render_cuda_kernel(const LoopProgram& program, const FusedKernel& kernel) {
  return render_c_like_kernel(program, kernel, cuda_frame(cuda_kernel_shape(kernel)));
}

constexpr const char* kSourceName = "kiln_inductor_kernels.cu";
// What the compile_error knob calls instead of relu: defined nowhere.
constexpr const char* kUndefinedCall = "compile_error_TESTING_ONLY";

// triton.inject_relu_bug_TESTING_ONLY breaks relu as PyTorch's Triton code generator does: a call
// of an undefined function (compile_error), x + 1 in its place (accuracy), or a trap that fails
// the launch (runtime_error: PyTorch's device-side assert).
std::string with_relu_bug(std::string source, const CodegenOptions& options) {
  if (!options.inject_relu_bug) return source;
  const std::string& bug = *options.inject_relu_bug;
  const std::string replacement = bug == "compile_error"   ? std::string(kUndefinedCall) + "("
                                  : bug == "accuracy"      ? "1 + ("
                                  : bug == "runtime_error" ? "(__trap(), 0) + ("
                                                           : "relu(";
  for (size_t at = 0; (at = source.find(" relu(", at)) != std::string::npos; at += replacement.size() + 1)
    source.replace(at + 1, 5, replacement);
  return source;
}

// A module's object code: the number of kernels; for each, the image it is in and the kernel
// whose code it runs (itself, or an earlier kernel that computes alike); then each image preceded
// by its size (all numbers 8 bytes, little-endian).
struct PackedImages {
  std::vector<uint64_t> image_of_kernel;
  std::vector<uint64_t> code_of_kernel;
  std::vector<std::string> images;
};

void put_number(std::string& out, uint64_t value) {
  for (int byte = 0; byte < 8; ++byte, value >>= 8) out += static_cast<char>(value & 0xff);
}

std::string pack_images(const PackedImages& packed) {
  std::string out;
  put_number(out, packed.image_of_kernel.size());
  for (size_t k = 0; k < packed.image_of_kernel.size(); ++k) {
    put_number(out, packed.image_of_kernel[k]);
    put_number(out, packed.code_of_kernel[k]);
  }
  for (const std::string& image : packed.images) {
    put_number(out, image.size());
    out += image;
  }
  return out;
}

PackedImages unpack_images(const std::string& object_code) {
  size_t at = 0;
  const auto damaged = [] { tensor::throw_runtime_error("a damaged CUDA kernel image in the compile cache"); };
  const auto number = [&] {
    if (object_code.size() - at < 8) damaged();
    uint64_t value = 0;
    for (int byte = 7; byte >= 0; --byte) value = value << 8 | static_cast<unsigned char>(object_code[at + static_cast<size_t>(byte)]);
    at += 8;
    return value;
  };
  PackedImages packed;
  const uint64_t kernels = number();
  if (kernels > object_code.size() / 16) damaged();
  for (uint64_t k = 0; k < kernels; ++k) {
    packed.image_of_kernel.push_back(number());
    packed.code_of_kernel.push_back(number());
    if (packed.code_of_kernel.back() > k) damaged();
  }
  while (at < object_code.size()) {
    const uint64_t size = number();
    if (size > object_code.size() - at) damaged();
    packed.images.push_back(object_code.substr(at, size));
    at += size;
  }
  for (uint64_t image : packed.image_of_kernel)
    if (image >= packed.images.size()) damaged();
  return packed;
}

// A kernel's source with its own name taken out: kernels of the same text compute alike (a
// model's repeated layers give many), and only the first of them is compiled.
std::string without_name(const std::string& kernel, const std::string& name) {
  std::string text = kernel;
  if (const size_t at = text.find(" " + name + "("); at != std::string::npos) text.replace(at + 1, name.size(), "kernel");
  return text;
}

// The kernel whose lines hold the first error of NVRTC's log ("<source>(42): error: ..."): the
// kernels' lines are numbered as in the whole module.
std::string kernel_at_first_error(const std::string& log, const std::vector<size_t>& first_lines, const std::vector<std::string>& names) {
  const size_t at = log.find(std::string(kSourceName) + "(");
  if (at == std::string::npos) return "";
  const size_t line = std::strtoull(log.c_str() + at + std::string_view(kSourceName).size() + 1, nullptr, 10);
  std::string kernel;
  for (size_t i = 0; i < first_lines.size() && first_lines[i] <= line; ++i) kernel = names[i];
  return kernel;
}

class CudaBackend final : public KernelBackend {
 public:
  std::string_view name() const override { return "cuda"; }

  bool supports(ir::Dtype dtype) const override {
    switch (dtype) {
      case ir::Dtype::Float32:
      case ir::Dtype::Float64:
      case ir::Dtype::Float16:
      case ir::Dtype::BFloat16:
      case ir::Dtype::Int64:
      case ir::Dtype::Int32:
      case ir::Dtype::Bool: return true;
      default: return false;
    }
  }

  std::string_view kernel_prefix() const override { return "cuda_fused"; }
  std::string_view allocation_call() const override { return "empty_strided_cuda"; }
  std::string_view source_loader() const override { return "async_compile.cuda"; }
  std::string target() const override { return "cuda " + cuda::current_architecture(); }

  CacheEntry compile(const LoopProgram& program, const Schedule& schedule, const CodegenOptions& options) const override {
    return compile_cuda_kernels(cuda_kernel_module(program, schedule, options), cuda::current_architecture());
  }

  std::vector<KernelHandle> load(const CacheEntry& compiled) const override {
    if (compiled.kernel_names.empty()) return {};
    const PackedImages packed = unpack_images(compiled.object_code);
    if (packed.image_of_kernel.size() != compiled.kernel_names.size())
      tensor::throw_runtime_error("a damaged CUDA kernel image in the compile cache");
    std::vector<KernelHandle> kernels(compiled.kernel_names.size());
    for (size_t image = 0; image < packed.images.size(); ++image) {
      std::vector<size_t> compiled_here;
      std::vector<std::string> names;
      for (size_t k = 0; k < kernels.size(); ++k)
        if (packed.image_of_kernel[k] == image && packed.code_of_kernel[k] == k) {
          compiled_here.push_back(k);
          names.push_back(compiled.kernel_names[k]);
        }
      const std::vector<KernelHandle> loaded = cuda::load_module(packed.images[image], names);
      for (size_t i = 0; i < compiled_here.size(); ++i) kernels[compiled_here[i]] = loaded[i];
    }
    for (size_t k = 0; k < kernels.size(); ++k) kernels[k] = kernels[packed.code_of_kernel[k]];
    return kernels;
  }

  void launch(KernelHandle kernel, const FusedKernel& fused, const KernelLaunch& launch, std::vector<void*>& buffers) const override {
    std::vector<int64_t> sizes = launch.sizes;
    int64_t outer = launch.outer;
    std::vector<void*> arguments;
    for (void*& buffer : buffers) arguments.push_back(&buffer);
    for (int64_t& size : sizes) arguments.push_back(&size);
    arguments.push_back(&outer);
    const CudaLaunchGeometry geometry =
        cuda_launch_geometry(fused, cuda_kernel_shape(fused), outer, cuda::multi_processor_count(cuda::current_device()));
    cuda::launch_blocks(kernel, geometry.blocks, arguments, geometry.block_x, geometry.block_y, geometry.splits);
  }

  std::string render_kernel(const LoopProgram& program, const FusedKernel& kernel) const override {
    return render_cuda_kernel(program, kernel);
  }

  // Quads (float4) are read and written at the buffers' pointers with no check: one variant of
  // each loop, where a fallback for unaligned pointers was a sixth of NVRTC's time.
  size_t pointer_alignment() const override { return 16; }
};

}  // namespace

CudaKernelModule cuda_kernel_module(const LoopProgram& program, const Schedule& schedule, const CodegenOptions& options) {
  CudaKernelModule module;
  module.preamble = cuda::kernel_preamble() + kInductorHelpers + cuda_thread_combines() + cuda_point_quads();
  // Only modules with column kernels get the split's partials (the space is allocated per module).
  for (const ScheduledStep& step : schedule.steps)
    if (const auto* k = std::get_if<FusedKernel>(&step); k && cuda_kernel_shape(*k) == CudaKernelShape::Columns) {
      module.preamble += cuda_column_partials();
      break;
    }
  module.source = module.preamble;
  for (const ScheduledStep& step : schedule.steps)
    if (const auto* k = std::get_if<FusedKernel>(&step)) {
      module.source += "\n";
      module.first_lines.push_back(static_cast<size_t>(std::count(module.source.begin(), module.source.end(), '\n')) + 1);
      module.kernels.push_back(with_relu_bug(render_cuda_kernel(program, *k), options));
      module.source += module.kernels.back();
      module.kernel_names.push_back(k->name);
    }
  return module;
}

CacheEntry compile_cuda_kernels(const CudaKernelModule& module, const std::string& architecture) {
  CacheEntry entry;
  entry.kernel_names = module.kernel_names;
  if (module.kernels.empty()) return entry;
  PackedImages packed;
  std::vector<size_t> distinct;  // the kernels compiled: the first of each text
  std::map<std::string, size_t> first_of_text;
  for (size_t k = 0; k < module.kernels.size(); ++k) {
    const auto [at, added] = first_of_text.try_emplace(without_name(module.kernels[k], module.kernel_names[k]), k);
    packed.code_of_kernel.push_back(at->second);
    if (added) distinct.push_back(k);
  }
  // One NVRTC program with every distinct kernel: NVRTC compiles one program at a time in a
  // process however many threads call it (16 threads took longer than one on the H200 machine),
  // and a program's fixed cost is most of a small kernel's (six modules one by one: 57 ms; their
  // six kernels in one program: 15 ms).
  packed.images.resize(1);
  packed.image_of_kernel.assign(module.kernels.size(), 0);
  std::string source = module.preamble;
  // #line keeps NVRTC's messages in the whole module's numbering (output_code's).
  for (size_t k : distinct)
    source += "\n#line " + std::to_string(module.first_lines[k]) + " \"" + kSourceName + "\"\n" + module.kernels[k];
  try {
    packed.images[0] = cuda::compile_cuda(source, kSourceName, architecture).image;
  } catch (const cuda::CudaCompileError& error) {
    const std::string message = error.what();
    const std::string kernel = kernel_at_first_error(message, module.first_lines, module.kernel_names);
    throw KernelCompileError(message, kernel, message.find(kUndefinedCall) != std::string::npos ? "relu" : "");
  }
  entry.object_code = pack_images(packed);
  return entry;
}

const KernelBackend& cuda_backend() {
  static const CudaBackend backend;
  return backend;
}

}  // namespace kiln::inductor
