// Convolutions over 1 to 3 spatial dims: convolution and convolution_backward, and the conv1d,
// conv2d and conv3d composites (unbatched inputs, padding="same"/"valid") that reach them.
// float32 runs on oneDNN, as PyTorch's CPU convolutions do (mkldnn), and so does the bfloat16
// forward, and the float16 forward on float32 copies; the float64 forward unfolds each sample's input into
// columns and multiplies them with BLAS (PyTorch's slow_conv2d path, im2col + gemm); the rest
// runs the direct loops below with opmath accumulation.
#include <cblas.h>

#include <array>

#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernels/elementwise.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/kernels/onednn.h"
#include "libcompiler/tensor/parallel.h"
#include "libcompiler/ops/meta_functions.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/views.h"

namespace kiln::ops {

namespace {

using tensor::DType;

// One convolution's geometry, its spatial dims padded to three (a size-1 dim with stride 1 and
// no padding in front of the real ones), so that one loop nest serves 1d, 2d and 3d.
struct Geometry {
  int64_t batch = 0, in_channels = 0, out_channels = 0, groups = 1;
  int64_t spatial = 0;  // the real number of spatial dims
  std::array<int64_t, 3> in{1, 1, 1}, out{1, 1, 1}, kernel{1, 1, 1};
  std::array<int64_t, 3> stride{1, 1, 1}, padding{0, 0, 0}, dilation{1, 1, 1};

  int64_t in_per_group() const { return in_channels / groups; }
  int64_t out_per_group() const { return out_channels / groups; }
  int64_t in_size() const { return in[0] * in[1] * in[2]; }
  int64_t out_size() const { return out[0] * out[1] * out[2]; }
  int64_t kernel_size() const { return kernel[0] * kernel[1] * kernel[2]; }
};

Geometry geometry_of(const std::vector<int64_t>& input_sizes, const std::vector<int64_t>& weight_sizes,
                     const std::vector<int64_t>& output_sizes, const Arguments& args, size_t stride_at, size_t groups_at) {
  Geometry g;
  g.spatial = static_cast<int64_t>(weight_sizes.size()) - 2;
  g.batch = input_sizes[0];
  g.in_channels = input_sizes[1];
  g.out_channels = weight_sizes[0];
  g.groups = args.int_value(groups_at);
  const auto per_dim = [&](size_t at, int64_t i) {
    const std::vector<int64_t>& values = args.int_list(at);
    return values.size() == 1 ? values[0] : values[i];
  };
  const int64_t offset = 3 - g.spatial;
  for (int64_t i = 0; i < g.spatial; ++i) {
    g.in[offset + i] = input_sizes[2 + i];
    g.out[offset + i] = output_sizes[2 + i];
    g.kernel[offset + i] = weight_sizes[2 + i];
    g.stride[offset + i] = per_dim(stride_at, i);
    g.padding[offset + i] = per_dim(stride_at + 1, i);
    g.dilation[offset + i] = per_dim(stride_at + 2, i);
  }
  return g;
}

// Calls body(output position, kernel position, input position) for every pair that reads inside
// the input, over one output channel's positions.
template <typename Body>
void for_each_tap(const Geometry& g, Body&& body) {
  for (int64_t od = 0; od < g.out[0]; ++od)
    for (int64_t oh = 0; oh < g.out[1]; ++oh)
      for (int64_t ow = 0; ow < g.out[2]; ++ow) {
        const int64_t o = (od * g.out[1] + oh) * g.out[2] + ow;
        for (int64_t kd = 0; kd < g.kernel[0]; ++kd) {
          const int64_t id = od * g.stride[0] - g.padding[0] + kd * g.dilation[0];
          if (id < 0 || id >= g.in[0]) continue;
          for (int64_t kh = 0; kh < g.kernel[1]; ++kh) {
            const int64_t ih = oh * g.stride[1] - g.padding[1] + kh * g.dilation[1];
            if (ih < 0 || ih >= g.in[1]) continue;
            for (int64_t kw = 0; kw < g.kernel[2]; ++kw) {
              const int64_t iw = ow * g.stride[2] - g.padding[2] + kw * g.dilation[2];
              if (iw < 0 || iw >= g.in[2]) continue;
              body(o, (kd * g.kernel[1] + kh) * g.kernel[2] + kw, (id * g.in[1] + ih) * g.in[2] + iw);
            }
          }
        }
      }
}

// ---- oneDNN (float32, bfloat16)

struct DnnlDescs {
  dnnl::memory::desc src, weights, bias, dst;
  dnnl::memory::dims strides, dilates, padding_l, padding_r;
};

dnnl::memory::dims dims_of(const std::vector<int64_t>& sizes) { return dnnl::memory::dims(sizes.begin(), sizes.end()); }

// Descriptors of the (contiguous) tensors with the layout `format` (the tensors' own row-major
// one, or `any`: the kernel's choice), the weights grouped when groups > 1.
DnnlDescs dnnl_descs(const Geometry& g, const std::vector<int64_t>& input_sizes, const std::vector<int64_t>& weight_sizes,
                     const std::vector<int64_t>& output_sizes, DType dtype, bool any_format) {
  using tag = dnnl::memory::format_tag;
  const auto type = onednn::data_type(dtype);
  static const tag activations[] = {tag::ncw, tag::nchw, tag::ncdhw};
  static const tag plain_weights[] = {tag::oiw, tag::oihw, tag::oidhw};
  static const tag grouped_weights[] = {tag::goiw, tag::goihw, tag::goidhw};
  const int64_t k = g.spatial - 1;
  const auto format = [&](tag plain) { return any_format ? tag::any : plain; };
  DnnlDescs d;
  d.src = dnnl::memory::desc(dims_of(input_sizes), type, format(activations[k]));
  d.dst = dnnl::memory::desc(dims_of(output_sizes), type, format(activations[k]));
  if (g.groups == 1) {
    d.weights = dnnl::memory::desc(dims_of(weight_sizes), type, format(plain_weights[k]));
  } else {
    std::vector<int64_t> grouped{g.groups, g.out_per_group()};
    grouped.insert(grouped.end(), weight_sizes.begin() + 1, weight_sizes.end());
    d.weights = dnnl::memory::desc(dims_of(grouped), type, format(grouped_weights[k]));
  }
  d.bias = dnnl::memory::desc({g.out_channels}, type, tag::x);
  for (int64_t i = 3 - g.spatial; i < 3; ++i) {
    d.strides.push_back(g.stride[i]);
    d.dilates.push_back(g.dilation[i] - 1);  // oneDNN counts the gaps between taps
    d.padding_l.push_back(g.padding[i]);
    // The right padding that ends the last window where PyTorch's floor division ends it.
    const int64_t extent = (g.kernel[i] - 1) * g.dilation[i] + 1;
    d.padding_r.push_back((g.out[i] - 1) * g.stride[i] + extent - g.in[i] - g.padding[i]);
  }
  return d;
}

// The problem's descriptors twice: the tensors as they are, and with the layouts left to oneDNN,
// which then picks its blocked direct kernels (as PyTorch's ideep lets it) where row-major
// tensors would get the slower im2col + gemm one; onednn::execute reorders between the two.
struct DnnlProblem {
  DnnlDescs plain, any;
  DnnlProblem(const Geometry& g, const std::vector<int64_t>& input_sizes, const std::vector<int64_t>& weight_sizes,
              const std::vector<int64_t>& output_sizes, DType dtype)
      : plain(dnnl_descs(g, input_sizes, weight_sizes, output_sizes, dtype, false)),
        any(dnnl_descs(g, input_sizes, weight_sizes, output_sizes, dtype, true)) {}
};

dnnl::convolution_forward::primitive_desc forward_descriptor(const DnnlDescs& d, bool with_bias) {
  const auto kind = dnnl::prop_kind::forward_training;
  const auto algorithm = dnnl::algorithm::convolution_direct;
  auto desc = with_bias ? dnnl::convolution_forward::desc(kind, algorithm, d.src, d.weights, d.bias, d.dst, d.strides,
                                                          d.dilates, d.padding_l, d.padding_r)
                        : dnnl::convolution_forward::desc(kind, algorithm, d.src, d.weights, d.dst, d.strides, d.dilates,
                                                          d.padding_l, d.padding_r);
  return dnnl::convolution_forward::primitive_desc(desc, onednn::attributes(), onednn::cpu_engine());
}

void dnnl_forward(const Geometry& g, const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& out) {
  const DnnlProblem p(g, input.sizes(), weight.sizes(), out.sizes(), input.dtype());
  const auto pd = forward_descriptor(p.any, bias.defined());
  std::unordered_map<int, dnnl::memory> inputs{{DNNL_ARG_SRC, onednn::memory_of(p.plain.src, input)},
                                               {DNNL_ARG_WEIGHTS, onednn::memory_of(p.plain.weights, weight)}};
  if (bias.defined()) inputs.emplace(DNNL_ARG_BIAS, onednn::memory_of(p.plain.bias, bias));
  onednn::execute(dnnl::convolution_forward(pd), pd, inputs, {{DNNL_ARG_DST, onednn::memory_of(p.plain.dst, out)}});
}

void dnnl_backward_data(const Geometry& g, const Tensor& grad_out, const Tensor& weight, const Tensor& grad_input) {
  const DnnlProblem p(g, grad_input.sizes(), weight.sizes(), grad_out.sizes(), grad_out.dtype());
  const auto hint = forward_descriptor(p.any, false);
  const DnnlDescs& d = p.any;
  dnnl::convolution_backward_data::desc desc(dnnl::algorithm::convolution_direct, d.src, d.weights, d.dst, d.strides,
                                             d.dilates, d.padding_l, d.padding_r);
  dnnl::convolution_backward_data::primitive_desc pd(desc, onednn::attributes(), onednn::cpu_engine(), hint);
  onednn::execute(dnnl::convolution_backward_data(pd), pd,
                  {{DNNL_ARG_DIFF_DST, onednn::memory_of(p.plain.dst, grad_out)},
                   {DNNL_ARG_WEIGHTS, onednn::memory_of(p.plain.weights, weight)}},
                  {{DNNL_ARG_DIFF_SRC, onednn::memory_of(p.plain.src, grad_input)}});
}

void dnnl_backward_weights(const Geometry& g, const Tensor& grad_out, const Tensor& input, const Tensor& grad_weight,
                           const Tensor& grad_bias) {
  const DnnlProblem p(g, input.sizes(), grad_weight.sizes(), grad_out.sizes(), input.dtype());
  const bool with_bias = grad_bias.defined();
  const auto hint = forward_descriptor(p.any, with_bias);
  const DnnlDescs& d = p.any;
  const auto algorithm = dnnl::algorithm::convolution_direct;
  auto desc = with_bias ? dnnl::convolution_backward_weights::desc(algorithm, d.src, d.weights, d.bias, d.dst, d.strides,
                                                                   d.dilates, d.padding_l, d.padding_r)
                        : dnnl::convolution_backward_weights::desc(algorithm, d.src, d.weights, d.dst, d.strides,
                                                                   d.dilates, d.padding_l, d.padding_r);
  dnnl::convolution_backward_weights::primitive_desc pd(desc, onednn::attributes(), onednn::cpu_engine(), hint);
  std::unordered_map<int, dnnl::memory> outputs{{DNNL_ARG_DIFF_WEIGHTS, onednn::memory_of(p.plain.weights, grad_weight)}};
  if (with_bias) outputs.emplace(DNNL_ARG_DIFF_BIAS, onednn::memory_of(p.plain.bias, grad_bias));
  onednn::execute(dnnl::convolution_backward_weights(pd), pd,
                  {{DNNL_ARG_SRC, onednn::memory_of(p.plain.src, input)},
                   {DNNL_ARG_DIFF_DST, onednn::memory_of(p.plain.dst, grad_out)}},
                  outputs);
}

// ---- direct loops (other floating dtypes)

template <typename T>
void direct_forward(const Geometry& g, const T* x, const T* w, const T* b, T* y) {
  using C = opmath_t<T>;
  const int64_t ipg = g.in_per_group(), opg = g.out_per_group();
  tensor::parallel_for(0, g.batch * g.out_channels, 1, [&](int64_t begin, int64_t end) {
    std::vector<C> acc(g.out_size());
    for (int64_t job = begin; job < end; ++job) {
      const int64_t n = job / g.out_channels, oc = job % g.out_channels, group = oc / opg;
      std::fill(acc.begin(), acc.end(), b ? static_cast<C>(b[oc]) : C(0));
      for (int64_t ic = 0; ic < ipg; ++ic) {
        const T* plane = x + (n * g.in_channels + group * ipg + ic) * g.in_size();
        const T* taps = w + (oc * ipg + ic) * g.kernel_size();
        for_each_tap(g, [&](int64_t o, int64_t k, int64_t i) { acc[o] += static_cast<C>(plane[i]) * static_cast<C>(taps[k]); });
      }
      T* out = y + job * g.out_size();
      for (int64_t o = 0; o < g.out_size(); ++o) out[o] = static_cast<T>(acc[o]);
    }
  });
}

// ---- unfolded input times the weights (float64 forward)

// The float64 forward as one matrix product per sample and group: the input's patches unfolded
// into columns (row ic * K + k, column o: the input under tap k of output position o, 0 in the
// padding), then weights [out_per_group][in_per_group * K] times columns, added to the bias.
void unfolded_forward(const Geometry& g, const double* x, const double* w, const double* b, double* y) {
  const int64_t ipg = g.in_per_group(), opg = g.out_per_group(), taps = g.kernel_size(), outs = g.out_size();
  std::vector<double> columns(static_cast<size_t>(ipg * taps * outs));
  for (int64_t n = 0; n < g.batch; ++n)
    for (int64_t group = 0; group < g.groups; ++group) {
      tensor::parallel_for(0, ipg, std::max<int64_t>(1, tensor::kGrainSize / std::max<int64_t>(taps * outs, 1)), [&](int64_t begin, int64_t end) {
        for (int64_t ic = begin; ic < end; ++ic) {
          double* rows = columns.data() + ic * taps * outs;
          std::fill(rows, rows + taps * outs, 0.0);
          const double* plane = x + (n * g.in_channels + group * ipg + ic) * g.in_size();
          for_each_tap(g, [&](int64_t o, int64_t k, int64_t i) { rows[k * outs + o] = plane[i]; });
        }
      });
      double* out = y + (n * g.out_channels + group * opg) * outs;
      if (b)
        for (int64_t oc = 0; oc < opg; ++oc) std::fill(out + oc * outs, out + (oc + 1) * outs, b[group * opg + oc]);
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(opg), static_cast<int>(outs), static_cast<int>(ipg * taps),
                  1.0, w + group * opg * ipg * taps, static_cast<int>(ipg * taps), columns.data(), static_cast<int>(outs), b ? 1.0 : 0.0,
                  out, static_cast<int>(outs));
    }
}

template <typename T>
void direct_backward_data(const Geometry& g, const T* gy, const T* w, T* gx) {
  using C = opmath_t<T>;
  const int64_t ipg = g.in_per_group(), opg = g.out_per_group();
  tensor::parallel_for(0, g.batch * g.in_channels, 1, [&](int64_t begin, int64_t end) {
    std::vector<C> acc(g.in_size());
    for (int64_t job = begin; job < end; ++job) {
      const int64_t n = job / g.in_channels, c = job % g.in_channels, group = c / ipg, ic = c % ipg;
      std::fill(acc.begin(), acc.end(), C(0));
      for (int64_t oc = group * opg; oc < (group + 1) * opg; ++oc) {
        const T* grad = gy + (n * g.out_channels + oc) * g.out_size();
        const T* taps = w + (oc * ipg + ic) * g.kernel_size();
        for_each_tap(g, [&](int64_t o, int64_t k, int64_t i) { acc[i] += static_cast<C>(grad[o]) * static_cast<C>(taps[k]); });
      }
      T* out = gx + job * g.in_size();
      for (int64_t i = 0; i < g.in_size(); ++i) out[i] = static_cast<T>(acc[i]);
    }
  });
}

template <typename T>
void direct_backward_weights(const Geometry& g, const T* gy, const T* x, T* gw, T* gb) {
  using C = opmath_t<T>;
  const int64_t ipg = g.in_per_group(), opg = g.out_per_group();
  tensor::parallel_for(0, g.out_channels, 1, [&](int64_t begin, int64_t end) {
    std::vector<C> acc(ipg * g.kernel_size());
    for (int64_t oc = begin; oc < end; ++oc) {
      const int64_t group = oc / opg;
      std::fill(acc.begin(), acc.end(), C(0));
      C bias_sum = 0;
      for (int64_t n = 0; n < g.batch; ++n) {
        const T* grad = gy + (n * g.out_channels + oc) * g.out_size();
        for (int64_t o = 0; o < g.out_size(); ++o) bias_sum += static_cast<C>(grad[o]);
        for (int64_t ic = 0; gw && ic < ipg; ++ic) {
          const T* plane = x + (n * g.in_channels + group * ipg + ic) * g.in_size();
          C* taps = acc.data() + ic * g.kernel_size();
          for_each_tap(g, [&](int64_t o, int64_t k, int64_t i) { taps[k] += static_cast<C>(grad[o]) * static_cast<C>(plane[i]); });
        }
      }
      if (gw)
        for (int64_t k = 0; k < ipg * g.kernel_size(); ++k) gw[oc * ipg * g.kernel_size() + k] = static_cast<T>(acc[k]);
      if (gb) gb[oc] = static_cast<T>(bias_sum);
    }
  });
}

// The three computations of a convolution's geometry g, each on oneDNN for float32 and by direct
// loops otherwise (the float64 forward: unfolded, by BLAS): the forward (input -> output), its backward-data (output -> input) and its
// backward-weights. A transposed convolution is the same pair run the other way round.
void run_forward(const Geometry& g, const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& out) {
  // bfloat16 as PyTorch's mkldnn convolution on a CPU with AVX-512: oneDNN's bfloat16 kernel.
  if (input.dtype() == DType::Float32 || input.dtype() == DType::BFloat16) return dnnl_forward(g, input, weight, bias, out);
  if (input.dtype() == DType::Float16) {
    // Products summed in float32, rounded once at the end, as PyTorch's convolution for these
    // (oneDNN has no float16 kernel for this CPU): oneDNN's float32 forward on float32 copies
    // (exact widenings).
    const Tensor wide = Tensor::empty(out.sizes(), DType::Float32);
    dnnl_forward(g, tensor::to_dtype(input, DType::Float32), tensor::to_dtype(weight, DType::Float32),
                 bias.defined() ? tensor::to_dtype(bias, DType::Float32) : Tensor(), wide);
    return tensor::copy_elements(out, wide);
  }
  if (input.dtype() == DType::Float64)
    return unfolded_forward(g, input.data_ptr<double>(), weight.data_ptr<double>(), bias.defined() ? bias.data_ptr<double>() : nullptr,
                            out.data_ptr<double>());
  visit_floating_dtype(input.dtype(), "slow_conv2d_cpu", [&](auto tag) {
    using T = typename decltype(tag)::type;
    direct_forward<T>(g, input.data_ptr<T>(), weight.data_ptr<T>(), bias.defined() ? bias.data_ptr<T>() : nullptr,
                      out.data_ptr<T>());
  });
}

void run_backward_data(const Geometry& g, const Tensor& grad_out, const Tensor& weight, const Tensor& grad_input) {
  if (grad_out.dtype() == DType::Float32) return dnnl_backward_data(g, grad_out, weight, grad_input);
  visit_floating_dtype(grad_out.dtype(), "slow_conv2d_backward_cpu", [&](auto tag) {
    using T = typename decltype(tag)::type;
    direct_backward_data<T>(g, grad_out.data_ptr<T>(), weight.data_ptr<T>(), grad_input.data_ptr<T>());
  });
}

// grad_weight and grad_bias may each be undefined (not wanted).
void run_backward_weights(const Geometry& g, const Tensor& grad_out, const Tensor& input, const Tensor& grad_weight,
                          const Tensor& grad_bias) {
  if (input.dtype() == DType::Float32 && grad_weight.defined())
    return dnnl_backward_weights(g, grad_out, input, grad_weight, grad_bias);
  visit_floating_dtype(input.dtype(), "slow_conv2d_backward_cpu", [&](auto tag) {
    using T = typename decltype(tag)::type;
    direct_backward_weights<T>(g, grad_out.data_ptr<T>(), input.data_ptr<T>(),
                               grad_weight.defined() ? grad_weight.data_ptr<T>() : nullptr,
                               grad_bias.defined() ? grad_bias.data_ptr<T>() : nullptr);
  });
}

// Adds bias[c] to every element of channel c of a contiguous (N, C, ...) tensor.
void add_channel_bias(const Tensor& out, const Tensor& bias) {
  const int64_t channels = out.sizes()[1], plane = out.numel() / (out.sizes()[0] * channels);
  visit_floating_dtype(out.dtype(), "slow_conv_transpose2d_cpu", [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* y = out.data_ptr<T>();
    const T* b = bias.data_ptr<T>();
    tensor::parallel_for(0, out.sizes()[0] * channels, 1, [&](int64_t begin, int64_t end) {
      for (int64_t job = begin; job < end; ++job)
        for (int64_t i = 0; i < plane; ++i) y[job * plane + i] = static_cast<T>(y[job * plane + i] + b[job % channels]);
    });
  });
}

// sums[c] = the sum of channel c of a contiguous (N, C, ...) tensor, accumulated in opmath.
void sum_per_channel(const Tensor& t, const Tensor& sums) {
  const int64_t batch = t.sizes()[0], channels = t.sizes()[1], plane = t.numel() / (batch * channels);
  visit_floating_dtype(t.dtype(), "slow_conv_transpose2d_backward_cpu", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    const T* x = t.data_ptr<T>();
    T* out = sums.data_ptr<T>();
    tensor::parallel_for(0, channels, 1, [&](int64_t begin, int64_t end) {
      for (int64_t c = begin; c < end; ++c) {
        C total = 0;
        for (int64_t n = 0; n < batch; ++n)
          for (int64_t i = 0; i < plane; ++i) total += static_cast<C>(x[(n * channels + c) * plane + i]);
        out[c] = static_cast<T>(total);
      }
    });
  });
}

}  // namespace

std::vector<Tensor> kernel_convolution(const Arguments& args) {
  std::vector<Tensor> outputs = allocate_outputs(meta_convolution(args));
  const Tensor input = tensor::contiguous(args.tensor(0));
  const Tensor weight = tensor::contiguous(args.tensor(1));
  const Tensor bias = args.optional_tensor(2).defined() ? tensor::contiguous(args.optional_tensor(2)) : Tensor();
  Tensor& out = outputs[0];
  if (out.numel() == 0) return outputs;
  if (!args.bool_value(6)) {
    run_forward(geometry_of(input.sizes(), weight.sizes(), out.sizes(), args, 3, 8), input, weight, bias, out);
    return outputs;
  }
  // Transposed: the backward-data of the convolution that maps out to input.
  if (input.numel() == 0) tensor::fill_(out, Scalar(0.0));
  else run_backward_data(geometry_of(out.sizes(), weight.sizes(), input.sizes(), args, 3, 8), input, weight, out);
  if (bias.defined()) add_channel_bias(out, bias);
  return outputs;
}

std::vector<Tensor> kernel_convolution_backward(const Arguments& args) {
  std::vector<Tensor> grads = allocate_outputs(meta_convolution_backward(args));
  const Tensor grad_out = tensor::contiguous(args.tensor(0));
  const Tensor input = tensor::contiguous(args.tensor(1));
  const Tensor weight = tensor::contiguous(args.tensor(2));
  Tensor &grad_input = grads[0], &grad_weight = grads[1], &grad_bias = grads[2];
  if (grad_out.numel() == 0 || input.numel() == 0) {
    for (Tensor* t : {&grad_input, &grad_weight, &grad_bias})
      if (t->defined()) tensor::fill_(*t, Scalar(0.0));
    return grads;
  }
  if (!args.bool_value(7)) {
    const Geometry g = geometry_of(input.sizes(), weight.sizes(), grad_out.sizes(), args, 4, 9);
    if (grad_input.defined()) run_backward_data(g, grad_out, weight, grad_input);
    if (grad_weight.defined() || grad_bias.defined()) run_backward_weights(g, grad_out, input, grad_weight, grad_bias);
    return grads;
  }
  // Transposed: the geometry runs from grad_out's sizes to input's; the input's gradient is its
  // forward, the weight's its backward-weights with the roles of input and gradient swapped, and
  // the bias's the gradient summed over all but the channels.
  const Geometry g = geometry_of(grad_out.sizes(), weight.sizes(), input.sizes(), args, 4, 9);
  if (grad_input.defined()) run_forward(g, grad_out, weight, Tensor(), grad_input);
  if (grad_weight.defined()) run_backward_weights(g, input, grad_out, grad_weight, Tensor());
  if (grad_bias.defined()) sum_per_channel(grad_out, grad_bias);
  return grads;
}

// conv1d/conv2d/conv3d(input, weight, bias, stride, padding, dilation, groups), padding a list
// or "valid"/"same": convolution on a batched input (an unbatched one gains a batch of 1).
namespace {

// A conv<spatial>d-like op (named `op` in the error) on its input, args[0]: `run` gets the input
// with a batch dim (an unbatched one gains a batch of 1, removed again from the result).
template <typename Run>
Tensor on_batched_input(const Arguments& args, const std::string& op, const Run& run) {
  const Tensor& given = args.tensor(0);
  const int64_t spatial = args.tensor(1).dim() - 2;
  if (given.dim() != spatial + 1 && given.dim() != spatial + 2)
    tensor::throw_runtime_error("Expected " + std::to_string(spatial + 1) + "D (unbatched) or " +
                                std::to_string(spatial + 2) + "D (batched) input to " + op + std::to_string(spatial) +
                                "d, but got input of size: " + tensor::sizes_text(given.sizes()));
  if (given.dim() == spatial + 2) return run(given);
  return ops::squeeze(run(ops::unsqueeze(given, 0)), 0);
}

// A per-dim argument given as one value for every spatial dim, or as the list.
std::vector<int64_t> per_spatial_dim(const std::vector<int64_t>& values, int64_t spatial) {
  return values.size() == 1 ? std::vector<int64_t>(spatial, values[0]) : values;
}

}  // namespace

std::vector<Tensor> kernel_convnd(const Arguments& args) {
  return {on_batched_input(args, "conv", [&](const Tensor& input) {
    const Tensor& weight = args.tensor(1);
    const int64_t spatial = weight.dim() - 2;
    const std::vector<int64_t> stride = per_spatial_dim(args.int_list(3), spatial);
    const std::vector<int64_t> dilation = per_spatial_dim(args.int_list(5), spatial);
    std::vector<int64_t> padding(spatial, 0);
    Tensor padded_input = input;
    if (args[4].is_string()) {
      const std::string mode = args[4].to_string();
      if (mode != "valid" && mode != "same") tensor::throw_runtime_error("Invalid padding string: '" + mode + "'");
      if (mode == "same") {
        for (int64_t s : stride)
          if (s != 1) tensor::throw_runtime_error("padding='same' is not supported for strided convolutions");
        // Symmetric padding where the total is even; the odd element goes on the right, by a
        // column of zeros appended to the input, as ATen's _convolution_mode pads it first.
        std::vector<int64_t> extra;
        for (int64_t i = 0; i < spatial; ++i) {
          const int64_t total = dilation[i] * (weight.sizes()[2 + i] - 1);
          padding[i] = total / 2;
          extra.push_back(total % 2);
        }
        for (int64_t i = 0; i < spatial; ++i) {
          if (extra[i] == 0) continue;
          std::vector<int64_t> edge = padded_input.sizes();
          edge[2 + i] = 1;
          padded_input =
              ops::cat({padded_input, ops::full(edge, Scalar(0.0), std::optional<DType>(padded_input.dtype()))}, 2 + i);
        }
      }
    } else {
      padding = per_spatial_dim(args.int_list(4), spatial);
    }
    return ops::convolution(padded_input, weight, args.optional_tensor(2), stride, padding, dilation, false,
                            std::vector<int64_t>(spatial, 0), args.int_value(6));
  })};
}

// conv_transpose1d/2d/3d(input, weight, bias, stride, padding, output_padding, groups, dilation).
std::vector<Tensor> kernel_conv_transposend(const Arguments& args) {
  return {on_batched_input(args, "conv_transpose", [&](const Tensor& input) {
    const int64_t spatial = args.tensor(1).dim() - 2;
    return ops::convolution(input, args.tensor(1), args.optional_tensor(2), per_spatial_dim(args.int_list(3), spatial),
                            per_spatial_dim(args.int_list(4), spatial), per_spatial_dim(args.int_list(7), spatial),
                            true, per_spatial_dim(args.int_list(5), spatial), args.int_value(6));
  })};
}

}  // namespace kiln::ops
