// Every entry of real/pytorch-2.11/rng_and_repr.json, checked exactly: random values bit for bit,
// printed text character for character. Each entry's Python expression is rebuilt here with the
// library's C++ calls; an expression this file does not know fails the test, so a new entry in
// the reference cannot be skipped silently.
#include <bit>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/factories.h"
#include "libcompiler/tensor/nn_init.h"
#include "libcompiler/tensor/random_ops.h"
#include "libcompiler/tensor/distributions.h"
#include "libcompiler/tensor/tensor_printer.h"
#include "libcompiler/tensor/views.h"
#include "tests/support/shared_data.h"

namespace kiln::tensor {
namespace {

nlohmann::json load_reference() {
  std::ifstream in(kiln::test::realPath("pytorch-2.11/rng_and_repr.json"));
  return nlohmann::json::parse(in);
}

// Elementwise float32 arithmetic of the reference expressions (one PyTorch op per step).
Tensor map_float(const Tensor& t, const std::function<float(float)>& f) {
  Tensor out = clone_contiguous(t);
  float* data = out.data_ptr<float>();
  for (int64_t i = 0; i < out.numel(); ++i) data[i] = f(data[i]);
  return out;
}

Tensor linear_parameter(bool weight) {
  Tensor w = Tensor::empty({3, 4}), b = Tensor::empty({3});
  reset_linear_parameters(w, b);
  return weight ? w : b;
}

const std::map<std::string, std::function<Tensor()>>& rng_builders() {
  static const std::map<std::string, std::function<Tensor()>> builders = {
      {"torch.randn(10)", [] { return randn({10}); }},
      {"torch.randn(15)", [] { return randn({15}); }},
      {"torch.randn(16)", [] { return randn({16}); }},
      {"torch.randn(17)", [] { return randn({17}); }},
      {"torch.randn(100)", [] { return randn({100}); }},
      {"torch.randn(3, 4)", [] { return randn({3, 4}); }},
      {"torch.randn(3)", [] { return randn({3}); }},
      {"torch.randn(5, dtype=torch.float64)", [] { return randn({5}, DType::Float64); }},
      {"torch.randn(20, dtype=torch.float64)", [] { return randn({20}, DType::Float64); }},
      {"torch.rand(10)", [] { return rand({10}); }},
      {"torch.rand(20)", [] { return rand({20}); }},
      {"torch.rand(2)", [] { return rand({2}); }},
      {"torch.rand(5, dtype=torch.float64)", [] { return rand({5}, DType::Float64); }},
      {"torch.randint(0, 10, (20,))", [] { return randint(0, 10, {20}); }},
      {"torch.randint(-5, 5, (3, 3))", [] { return randint(-5, 5, {3, 3}); }},
      {"torch.randn(2, 8) * 2 + 1",
       [] { return map_float(map_float(randn({2, 8}), [](float v) { return v * 2.0f; }), [](float v) { return v + 1.0f; }); }},
      {"torch.nn.Linear(4, 3).weight.detach()", [] { return linear_parameter(true); }},
      {"torch.nn.Linear(4, 3).bias.detach()", [] { return linear_parameter(false); }},
      {"torch.empty(6).normal_()", [] { return normal_(Tensor::empty({6}), 0.0, 1.0, default_cpu_generator()); }},
      {"torch.empty(6).uniform_(-1, 1)", [] { return uniform_(Tensor::empty({6}), -1.0, 1.0, default_cpu_generator()); }},
      {"torch.randperm(10)", [] { return randperm(10); }},
      {"torch.randn(17)[:4]", [] { return slice(randn({17}), 0, 0, 4); }},
      {"torch.dropout(torch.ones(20), 0.5, True)", [] { return dropout(ones({20}), 0.5, true); }},
  };
  return builders;
}

// Compares a tensor with reference values exactly: float32 values must be the same float, whose
// double is the reference double; integers must be equal.
void expect_values(const Tensor& actual, const nlohmann::json& expected, const std::string& what) {
  ASSERT_EQ(actual.numel(), static_cast<int64_t>(expected.size())) << what;
  const Tensor flat = contiguous(actual);
  for (size_t i = 0; i < expected.size(); ++i) {
    switch (actual.dtype()) {
      case DType::Float32: {
        const float value = flat.data_ptr<float>()[i];
        EXPECT_EQ(std::bit_cast<uint64_t>(static_cast<double>(value)), std::bit_cast<uint64_t>(expected[i].get<double>()))
            << what << " [" << i << "]: " << value << " vs " << expected[i];
        break;
      }
      case DType::Float64:
        EXPECT_EQ(std::bit_cast<uint64_t>(flat.data_ptr<double>()[i]), std::bit_cast<uint64_t>(expected[i].get<double>()))
            << what << " [" << i << "]";
        break;
      case DType::Int64:
        EXPECT_EQ(flat.data_ptr<int64_t>()[i], expected[i].get<int64_t>()) << what << " [" << i << "]";
        break;
      default:
        FAIL() << what << ": unexpected dtype " << torch_name(actual.dtype());
    }
  }
}

TEST(PyTorchReference, EveryRngEntryIsBitIdentical) {
  KILN_REQUIRE_SHARED();
  const nlohmann::json reference = load_reference();
  ASSERT_EQ(reference.at("torch"), "2.11.0+cu130");
  const auto& entries = reference.at("rng");
  ASSERT_FALSE(entries.empty());
  for (const auto& entry : entries) {
    const std::string expr = entry.at("expr");
    SCOPED_TRACE(expr);
    const auto builder = rng_builders().find(expr);
    ASSERT_NE(builder, rng_builders().end()) << "no C++ construction for reference entry " << expr;
    manual_seed(entry.at("seed").get<uint64_t>());
    const Tensor t = builder->second();
    EXPECT_EQ(torch_name(t.dtype()), entry.at("dtype").get<std::string>());
    EXPECT_EQ(t.sizes(), entry.at("shape").get<Shape>());
    expect_values(t, entry.at("values"), expr);
  }
}

TEST(PyTorchReference, SequenceAfterSeedZeroContinuesTheStream) {
  KILN_REQUIRE_SHARED();
  const nlohmann::json reference = load_reference();
  const nlohmann::json& sequence = reference.at("sequence_after_seed0");
  const auto& exprs = sequence.at("exprs");
  const auto& values = sequence.at("values");
  ASSERT_EQ(exprs.size(), values.size());
  manual_seed(0);
  for (size_t i = 0; i < exprs.size(); ++i) {
    const std::string expr = exprs[i];
    const auto builder = rng_builders().find(expr);
    ASSERT_NE(builder, rng_builders().end()) << "no C++ construction for sequence entry " << expr;
    expect_values(builder->second(), values[i], expr);
  }
}

// The tensors of the repr entries, and how their text is asked for.
const std::map<std::string, std::function<std::string()>>& repr_builders() {
  using V = std::vector<double>;
  static const std::map<std::string, std::function<std::string()>> builders = {
      {"torch.tensor(18.)", [] { return tensor_repr(scalar_tensor(Scalar(18.0))); }},
      {"torch.tensor(-18.)", [] { return tensor_repr(scalar_tensor(Scalar(-18.0))); }},
      {"torch.tensor(3)", [] { return tensor_repr(scalar_tensor(Scalar(3))); }},
      {"torch.tensor(True)", [] { return tensor_repr(scalar_tensor(Scalar(true))); }},
      {"torch.ones(3)", [] { return tensor_repr(ones({3})); }},
      {"torch.arange(6).reshape(2, 3)", [] { return tensor_repr(reshape(arange(6), {2, 3})); }},
      {"torch.arange(6, dtype=torch.float32).reshape(2, 3) / 3",
       [] { return tensor_repr(map_float(reshape(arange(6, DType::Float32), {2, 3}), [](float v) { return v / 3.0f; })); }},
      {"torch.ones(2, dtype=torch.float64)", [] { return tensor_repr(ones({2}, DType::Float64)); }},
      {"torch.tensor([1e-5, 1.0, 1e5])", [] { return tensor_repr(tensor_from_values(V{1e-5, 1.0, 1e5}, {3})); }},
      {"torch.tensor([1.5, float('nan'), float('inf')])",
       [] { return tensor_repr(tensor_from_values(V{1.5, NAN, INFINITY}, {3})); }},
      {"torch.zeros(3, dtype=torch.bool)", [] { return tensor_repr(zeros({3}, DType::Bool)); }},
      {"torch.ones(2, requires_grad=True)",
       [] {
         Tensor t = ones({2});
         t.set_requires_grad(true);
         return tensor_repr(t);
       }},
      {"torch.ones(2, requires_grad=True) * 2",
       [] {
         Tensor t = map_float(ones({2}), [](float v) { return v * 2.0f; });
         t.set_requires_grad(true);
         return tensor_repr(t, "MulBackward0");
       }},
      {"torch.arange(2000, dtype=torch.float32)", [] { return tensor_repr(arange(2000, DType::Float32)); }},
      {"torch.arange(1200).reshape(40, 30)", [] { return tensor_repr(reshape(arange(1200), {40, 30})); }},
      {"torch.tensor([0.1, 0.25, 100.0])", [] { return tensor_repr(tensor_from_values(V{0.1, 0.25, 100.0}, {3})); }},
      {"torch.tensor([[1.123456789, 2.0], [3.0, 4.0]])",
       [] { return tensor_repr(tensor_from_values(V{1.123456789, 2.0, 3.0, 4.0}, {2, 2})); }},
      {"torch.ones(2, 3).shape", [] { return size_repr(ones({2, 3}).sizes()); }},
      {"torch.ones(2, 3).dtype", [] { return torch_name(ones({2, 3}).dtype()); }},
      {"torch.ones(2, dtype=torch.float16)", [] { return tensor_repr(ones({2}, DType::Float16)); }},
      {"torch.ones(2, dtype=torch.bfloat16)", [] { return tensor_repr(ones({2}, DType::BFloat16)); }},
      {"torch.empty(0)", [] { return tensor_repr(Tensor::empty({0})); }},
      {"torch.ones(2, 0)", [] { return tensor_repr(ones({2, 0})); }},
      {"torch.tensor([1, 2, 3], dtype=torch.int32)",
       [] { return tensor_repr(tensor_from_values(std::vector<int64_t>{1, 2, 3}, {3}, DType::Int32)); }},
      {"torch.tensor(2.5).item()", [] { return item_repr(scalar_tensor(Scalar(2.5))); }},
      {"torch.ones(3).tolist()", [] { return tolist_repr(ones({3})); }},
      {"torch.tensor([123456789.0])", [] { return tensor_repr(tensor_from_values(V{123456789.0}, {1})); }},
      {"torch.tensor([-0.0, 0.0])", [] { return tensor_repr(tensor_from_values(V{-0.0, 0.0}, {2})); }},
      {"torch.linspace(-1, 1, 5)", [] { return tensor_repr(tensor_from_values(V{-1.0, -0.5, 0.0, 0.5, 1.0}, {5})); }},
      // ones(3).sum() is the float32 3.0; .item() makes it a Python float.
      {"torch.ones(3).sum().item()", [] { return item_repr(scalar_tensor(Scalar(1.0 + 1.0 + 1.0))); }},
  };
  return builders;
}

TEST(PyTorchReference, EveryReprEntryIsCharacterIdentical) {
  KILN_REQUIRE_SHARED();
  const nlohmann::json reference = load_reference();
  const auto& entries = reference.at("repr");
  ASSERT_FALSE(entries.empty());
  for (const auto& entry : entries) {
    const std::string expr = entry.at("expr");
    SCOPED_TRACE(expr);
    const auto builder = repr_builders().find(expr);
    ASSERT_NE(builder, repr_builders().end()) << "no C++ construction for reference entry " << expr;
    const std::string text = builder->second();
    // str() and repr() are the same text for all of these; both are checked.
    EXPECT_EQ(text, entry.at("repr").get<std::string>());
    EXPECT_EQ(text, entry.at("str").get<std::string>());
  }
}

}  // namespace
}  // namespace kiln::tensor
