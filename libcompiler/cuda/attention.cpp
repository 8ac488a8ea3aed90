#include "libcompiler/cuda/attention.h"

#include <cmath>

#include "attention_kernels_source.h"

#include "libcompiler/cuda/context.h"
#include "libcompiler/cuda/kernel_source.h"
#include "libcompiler/cuda/loaded_kernels.h"
#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::cuda {

namespace {

using tensor::DType;
using tensor::Tensor;

constexpr int64_t kTile = 64;       // rows of queries or keys a block holds
constexpr unsigned kThreads = 256;  // a 16 x 16 grid: THREADS of attention_kernels.cu

// The operands' geometry: each tensor is [batch, heads, rows, head] with a contiguous head; its
// strides of the other three dimensions, in elements, in the order the kernels name them.
enum AttentionOperand : int { Query, Key, Value, Out, GradOut, GradQuery, GradKey, GradValue, OperandCount };

// The parameter block the kernels take by value: AttentionGeometry of attention_kernels.cu.
struct AttentionGeometry {
  long long strides[OperandCount][3] = {};
  long long heads = 0, rows = 0, keys = 0, lse_rows = 0;
  float scale = 0;
  int causal = 0;
};

void put_strides(AttentionGeometry& g, AttentionOperand operand, const Tensor& t) {
  if (!t.defined()) return;
  for (int d = 0; d < 3; ++d) g.strides[operand][d] = t.strides()[d];
}

// Floats of shared memory for `tiles` tiles of the head's rows and `score_tiles` of scores (rows
// PAD and SPAD apart in attention_kernels.cu).
int64_t shared_floats(int64_t head_size, int64_t tiles, int64_t score_tiles) {
  return tiles * kTile * (head_size + 4) + score_tiles * kTile * (kTile + 4);
}

// A [batch, heads, rows, head] operand the kernels can read: the head contiguous.
Tensor with_contiguous_head(const Tensor& t) { return t.strides()[3] == 1 ? t : ops::contiguous(t); }

// The kernels' own limits, past the op's checks (four dimensions: its meta function's).
void check_operands(const ops::Arguments& args, size_t first, const char* op) {
  ops::size_generic::check_attention_operands(args, first, op);
  const Tensor &query = args.tensor(first), &key = args.tensor(first + 1), &value = args.tensor(first + 2);
  const std::string name(op);
  if (query.dtype() != key.dtype() || query.dtype() != value.dtype())
    tensor::throw_runtime_error(name + ": query, key and value must have the same dtype");
  const int64_t head = query.size(3);
  if (key.size(3) != head || value.size(3) != head || head % 16 != 0 || head > 128)
    tensor::throw_runtime_error(name + ": kiln's fused attention takes query, key and value heads of one size, a multiple of 16 up to 128; got " +
                                std::to_string(head) + ", " + std::to_string(key.size(3)) + " and " + std::to_string(value.size(3)));
  if (key.size(2) != value.size(2)) tensor::throw_runtime_error(name + ": key and value must have the same sequence length");
}

// Whether every row of these operands starts 16-byte aligned in float (the kernels then load rows
// as quads).
bool rows_are_quad_aligned(const std::vector<const Tensor*>& operands) {
  for (const Tensor* t : operands) {
    if (t->dtype() != DType::Float32 || reinterpret_cast<uintptr_t>(t->data_ptr()) % 16 != 0) return false;
    for (int d = 0; d < 3; ++d)
      if (t->strides()[d] % 4 != 0) return false;
  }
  return true;
}

std::string source_key(int64_t head_size, DType dtype, bool quads) {
  return "attention|" + std::to_string(head_size) + "|" + std::string(tensor::dtype_name(dtype)) + (quads ? "|quads" : "");
}

// The source's three kernels, in this order (compiled together).
enum AttentionEntry { Forward, Delta, Backward };
std::vector<KernelFunction> attention_kernels(int64_t head_size, DType dtype, bool quads) {
  static const std::vector<std::string> entries{"kiln_attention_forward", "kiln_attention_delta", "kiln_attention_backward"};
  return loaded_kernels(source_key(head_size, dtype, quads), [&] { return fused_attention_source(head_size, dtype, quads); }, entries);
}

AttentionGeometry geometry(const Tensor& query, const Tensor& key, double scale, bool causal, int64_t lse_rows) {
  AttentionGeometry g;
  g.heads = query.size(1);
  g.rows = query.size(2);
  g.keys = key.size(2);
  g.lse_rows = lse_rows;
  g.scale = static_cast<float>(scale);
  g.causal = causal;
  return g;
}

double softmax_scale(const std::optional<tensor::Scalar>& scale, int64_t head_size) {
  return scale ? scale->to<double>() : 1.0 / std::sqrt(static_cast<double>(head_size));
}

unsigned tiles(int64_t rows) { return static_cast<unsigned>((rows + kTile - 1) / kTile); }

}  // namespace

std::string fused_attention_source(int64_t head_size, DType dtype, bool quad_rows) {
  return kernel_preamble() + "typedef " + std::string(storage_type(dtype)) + " T;\n#define HEAD " + std::to_string(head_size) +
         "\n#define QUAD_ROWS " + (quad_rows ? "1" : "0") + "\n" + kAttentionKernelsSource;
}

// (query, key, value, attn_bias, compute_log_sumexp, dropout_p, is_causal, scale) -> (output,
// log_sumexp, philox_seed, philox_offset).
std::vector<Tensor> efficient_attention_kernel(const ops::Arguments& args) {
  check_operands(args, 0, "_scaled_dot_product_efficient_attention");
  const Tensor query = with_contiguous_head(args.tensor(0)), key = with_contiguous_head(args.tensor(1)),
               value = with_contiguous_head(args.tensor(2));
  if (args.optional_tensor(3).defined() || args.float_value(5) != 0.0)
    tensor::throw_runtime_error("kiln's fused CUDA attention takes no attn_bias and no dropout");
  std::vector<Tensor> outputs = ops::allocate_outputs(ops::meta_scaled_dot_product_efficient_attention(args));
  const int64_t head = query.size(3);
  AttentionGeometry g = geometry(query, key, softmax_scale(args.optional_scalar(7), head), args.bool_value(6), outputs[1].size(2));
  put_strides(g, Query, query);
  put_strides(g, Key, key);
  put_strides(g, Value, value);
  put_strides(g, Out, outputs[0]);
  make_current(device_index(query.device()));
  if (query.numel() == 0) return outputs;
  void* q = query.data_ptr();
  void* k = key.data_ptr();
  void* v = value.data_ptr();
  void* out = outputs[0].data_ptr();
  void* lse = outputs[1].numel() > 0 ? outputs[1].data_ptr() : nullptr;
  std::vector<void*> arguments{&q, &k, &v, &out, &lse, &g};
  const bool quads = rows_are_quad_aligned({&query, &key, &value});
  launch_tiles(attention_kernels(head, query.dtype(), quads)[Forward], tiles(g.rows), query.size(0) * g.heads, kThreads,
               shared_floats(head, 3, 1) * sizeof(float), arguments);
  return outputs;
}

// (grad_out, query, key, value, attn_bias, out, logsumexp, philox_seed, philox_offset, dropout_p,
// grad_input_mask, is_causal, scale) -> (grad_query, grad_key, grad_value, grad_bias).
std::vector<Tensor> efficient_attention_backward_kernel(const ops::Arguments& args) {
  check_operands(args, 1, "_scaled_dot_product_efficient_attention_backward");
  if (args.tensor(0).dim() != 4 || args.tensor(5).dim() != 4)
    tensor::throw_runtime_error("_scaled_dot_product_efficient_attention_backward: grad_out and out must be 4-dimensional");
  const Tensor grad_out = with_contiguous_head(args.tensor(0)), query = with_contiguous_head(args.tensor(1)),
               key = with_contiguous_head(args.tensor(2)), value = with_contiguous_head(args.tensor(3)),
               out = with_contiguous_head(args.tensor(5)), lse = ops::contiguous(args.tensor(6));
  if (args.optional_tensor(4).defined() || args.float_value(9) != 0.0)
    tensor::throw_runtime_error("kiln's fused CUDA attention takes no attn_bias and no dropout");
  std::vector<Tensor> outputs = ops::allocate_outputs(ops::meta_scaled_dot_product_efficient_attention_backward(args));
  const int64_t head = query.size(3), heads = query.size(0) * query.size(1);
  if (lse.size(2) < query.size(2))
    tensor::throw_runtime_error("_scaled_dot_product_efficient_attention_backward: the log-sum-exp has " + std::to_string(lse.size(2)) +
                                " rows for " + std::to_string(query.size(2)) + " queries (the forward did not compute it)");
  AttentionGeometry g = geometry(query, key, softmax_scale(args.optional_scalar(12), head), args.bool_value(11), lse.size(2));
  put_strides(g, Query, query);
  put_strides(g, Key, key);
  put_strides(g, Value, value);
  put_strides(g, Out, out);
  put_strides(g, GradOut, grad_out);
  // grad_query is summed over key tiles in float: in the output itself when that is float.
  const Tensor grad_q = outputs[0].dtype() == DType::Float32
                            ? outputs[0]
                            : Tensor::empty_with_strides(outputs[0].sizes(), outputs[0].strides(), DType::Float32, query.device());
  put_strides(g, GradQuery, grad_q);
  put_strides(g, GradKey, outputs[1]);
  put_strides(g, GradValue, outputs[2]);
  make_current(device_index(query.device()));
  if (query.numel() == 0 || key.numel() == 0) {
    for (int i = 0; i < 3; ++i) ops::zero_(outputs[i]);
    return outputs;
  }
  ops::zero_(grad_q);
  const Tensor delta = Tensor::empty({query.size(0), query.size(1), query.size(2)}, DType::Float32, query.device());
  void* q = query.data_ptr();
  void* k = key.data_ptr();
  void* v = value.data_ptr();
  void* go = grad_out.data_ptr();
  void* o = out.data_ptr();
  void* lse_data = lse.data_ptr();
  void* delta_data = delta.data_ptr();
  void* gq = grad_q.data_ptr();
  void* gk = outputs[1].data_ptr();
  void* gv = outputs[2].data_ptr();
  const std::vector<KernelFunction> kernels = attention_kernels(head, query.dtype(), rows_are_quad_aligned({&query, &key, &value, &grad_out}));
  constexpr int64_t kRowsPerDeltaBlock = kThreads / 32;
  std::vector<void*> delta_arguments{&go, &o, &delta_data, &g};
  launch_tiles(kernels[Delta], static_cast<unsigned>((g.rows + kRowsPerDeltaBlock - 1) / kRowsPerDeltaBlock), heads, kThreads, 0,
               delta_arguments);
  std::vector<void*> arguments{&q, &k, &v, &go, &lse_data, &delta_data, &gq, &gk, &gv, &g};
  launch_tiles(kernels[Backward], tiles(g.keys), heads, kThreads, (shared_floats(head, 4, 2) + 2 * kTile) * sizeof(float), arguments);
  if (!grad_q.is_same(outputs[0])) ops::copy_(outputs[0], grad_q);
  return outputs;
}

}  // namespace kiln::cuda
