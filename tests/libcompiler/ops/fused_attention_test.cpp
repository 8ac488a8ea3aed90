// scaled_dot_product_attention picks PyTorch's fused kernel for CUDA tensors it suits
// (_scaled_dot_product_efficient_attention, whose kernels are libcompiler/cuda/attention.h) and
// composes the attention of table ops otherwise. Traced as CUDA tensors (meta tensors standing for
// them), the choice shows in the grad_fn, the layouts and the gradient's op.
#include "libcompiler/ops/autocast.h"
#include "libcompiler/ops/autograd/autograd_meta.h"
#include "libcompiler/ops/autograd/engine.h"
#include "libcompiler/ops/dispatch.h"
#include "ops_test_support.h"

namespace kiln::ops::test {
namespace {

using tensor::DeviceType;

Tensor fake(const Shape& sizes, DType dtype = DType::Float32) {
  Tensor t = Tensor::empty(sizes, dtype, tensor::Device{DeviceType::Meta});
  t.set_requires_grad(true);
  return t;
}

Tensor attention(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask = Tensor(), bool causal = true) {
  return call_single(OpId::scaled_dot_product_attention, {q, k, v, mask, 0.0, causal, IValue(), false});
}

TEST(FusedAttention, CudaTensorsTakeTheEfficientAttentionWithItsLayouts) {
  MetaTensorsStandFor cuda(DeviceType::CUDA);
  const Tensor q = fake({2, 4, 8, 64}), k = fake({2, 4, 8, 64}), v = fake({2, 4, 8, 64});
  const Tensor out = attention(q, k, v);
  EXPECT_EQ(grad_fn_name(out), "ScaledDotProductEfficientAttentionBackward0");
  // [batch, heads, rows, head] laid out with the heads inside the rows, as PyTorch allocates it.
  EXPECT_EQ(out.sizes(), (Shape{2, 4, 8, 64}));
  EXPECT_EQ(out.strides(), (Shape{8 * 4 * 64, 64, 4 * 64, 1}));
  backward({sum(out)});
  EXPECT_EQ(grad(v).sizes(), (Shape{2, 4, 8, 64}));
  EXPECT_EQ(grad(q).strides(), (Shape{4 * 8 * 64, 8 * 64, 64, 1}));  // a contiguous leaf's (the layout contract)
  // The log-sum-exp has its rows rounded up to 32, and none when no backward will run.
  const std::vector<Tensor> with_lse = call(OpId::_scaled_dot_product_efficient_attention, {q, k, v, Tensor(), true, 0.0, true, IValue()});
  EXPECT_EQ(with_lse[1].sizes(), (Shape{2, 4, 32}));
  EXPECT_EQ(with_lse[1].dtype(), DType::Float32);
  EXPECT_EQ(with_lse[2].dim(), 0);
  EXPECT_EQ(with_lse[2].dtype(), DType::Int64);
  // The backward's gradients are laid out as the output, its attn_bias gradient undefined.
  const std::vector<Tensor> grads =
      call(OpId::_scaled_dot_product_efficient_attention_backward,
           {out, q, k, v, Tensor(), with_lse[0], with_lse[1], with_lse[2], with_lse[3], 0.0, std::vector<bool>{true, true, true, false}, true, IValue()});
  EXPECT_EQ(grads[0].strides(), (Shape{8 * 4 * 64, 64, 4 * 64, 1}));
  EXPECT_EQ(grads[2].strides(), (Shape{8 * 4 * 64, 64, 4 * 64, 1}));
  EXPECT_FALSE(grads[3].defined());
}

TEST(FusedAttention, OtherCallsAreComposed) {
  MetaTensorsStandFor cuda(DeviceType::CUDA);
  const Tensor q = fake({2, 4, 8, 40}), k = fake({2, 4, 8, 40}), v = fake({2, 4, 8, 40});
  EXPECT_NE(grad_fn_name(attention(q, k, v)), "ScaledDotProductEfficientAttentionBackward0");  // a head of 40
  const Tensor q64 = fake({2, 4, 8, 64});
  const Tensor mask = Tensor::empty({8, 8}, DType::Bool, tensor::Device{DeviceType::Meta});
  EXPECT_NE(grad_fn_name(attention(q64, q64, q64, mask, false)), "ScaledDotProductEfficientAttentionBackward0");
  EXPECT_NE(grad_fn_name(attention(fake({2, 8, 64}), fake({2, 8, 64}), fake({2, 8, 64}))), "ScaledDotProductEfficientAttentionBackward0");
}

TEST(FusedAttention, CpuTensorsAreComposedAndTheFusedOpHasNoCpuKernel) {
  const Tensor q = leaf(std::vector<double>(2 * 16, 0.5), {1, 1, 2, 16});
  EXPECT_NE(grad_fn_name(attention(q, q, q)), "ScaledDotProductEfficientAttentionBackward0");
  EXPECT_EQ(error_of([&] { call(OpId::_scaled_dot_product_efficient_attention, {q, q, q, Tensor(), false, 0.0, false, IValue()}); }),
            "Could not run 'aten::_scaled_dot_product_efficient_attention' with arguments from the 'CPU' backend. This could be "
            "because the operator doesn't exist for this backend, or was omitted during the selective/custom build process (if "
            "using custom build).");
}

}  // namespace
}  // namespace kiln::ops::test
