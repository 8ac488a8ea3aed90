#include "libcompiler/ops/kernels/onednn.h"

#include <pthread.h>

#include <string>
#include <vector>

namespace kiln::ops::onednn {

namespace {

// oneDNN runs on libgomp, whose thread pool does not survive fork: a forked child (a minifier's
// candidate) whose primitive asks the parent's threads to help would wait for them forever.
// Children of a process that has run one run theirs on one thread.
extern "C" void omp_set_num_threads(int threads);  // OpenMP's C API (libgomp; omp.h is the compiler's)
void one_thread_after_fork() { omp_set_num_threads(1); }

}  // namespace

dnnl::engine& cpu_engine() {
  static dnnl::engine engine = [] {
    pthread_atfork(nullptr, nullptr, one_thread_after_fork);
    return dnnl::engine(dnnl::engine::kind::cpu, 0);
  }();
  return engine;
}

dnnl::primitive_attr attributes() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

dnnl::memory::data_type data_type(tensor::DType dtype) {
  switch (dtype) {
    case tensor::DType::Float32: return dnnl::memory::data_type::f32;
    case tensor::DType::BFloat16: return dnnl::memory::data_type::bf16;
    case tensor::DType::Float16: return dnnl::memory::data_type::f16;
    default: tensor::throw_runtime_error("oneDNN: no kernels for " + std::string(tensor::dtype_name(dtype)));
  }
}

dnnl::memory memory_of(const dnnl::memory::desc& desc, const tensor::Tensor& t) {
  return dnnl::memory(desc, cpu_engine(), const_cast<void*>(t.data_ptr()));
}

void execute(const dnnl::primitive& primitive, const dnnl::primitive_desc& pd,
             const std::unordered_map<int, dnnl::memory>& inputs, const std::unordered_map<int, dnnl::memory>& outputs) {
  dnnl::stream stream(cpu_engine());
  // Layout buffers and the scratchpad come from kiln's caching allocator: oneDNN's own (a fresh
  // malloc of several MiB per call) page-faulted on every call, 15% of a float32 conv2d's time.
  std::vector<tensor::Tensor> buffers;
  const auto in_wanted_layout = [&](int arg, const dnnl::memory& given) {
    const dnnl::memory::desc wanted = pd.query_md(dnnl::query::exec_arg_md, arg);
    if (given.get_desc() == wanted) return given;
    buffers.push_back(tensor::Tensor::empty({static_cast<int64_t>(wanted.get_size())}, tensor::DType::UInt8));
    return memory_of(wanted, buffers.back());
  };
  std::unordered_map<int, dnnl::memory> args;
  for (auto [arg, given] : inputs) {
    dnnl::memory used = in_wanted_layout(arg, given);
    if (used != given) dnnl::reorder(given, used).execute(stream, given, used);
    args.emplace(arg, used);
  }
  for (const auto& [arg, given] : outputs) args.emplace(arg, in_wanted_layout(arg, given));
  if (const dnnl::memory::desc scratchpad = pd.scratchpad_desc(); scratchpad.get_size() > 0) {
    buffers.push_back(tensor::Tensor::empty({static_cast<int64_t>(scratchpad.get_size())}, tensor::DType::UInt8));
    args.emplace(DNNL_ARG_SCRATCHPAD, memory_of(scratchpad, buffers.back()));
  }
  primitive.execute(stream, args);
  for (auto [arg, given] : outputs)
    if (dnnl::memory used = args.at(arg); used != given) dnnl::reorder(used, given).execute(stream, used, given);
  stream.wait();
}

void sgemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
           int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  cpu_engine();  // registers the fork handler above before any OpenMP thread exists
  const dnnl_status_t status =
      dnnl_sgemm(transpose_a ? 'T' : 'N', transpose_b ? 'T' : 'N', m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  if (status != dnnl_success) tensor::throw_runtime_error("oneDNN sgemm failed with status " + std::to_string(status));
}

}  // namespace kiln::ops::onednn
