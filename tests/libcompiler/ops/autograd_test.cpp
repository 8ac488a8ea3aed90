// Eager autograd rules as PyTorch has them: grad_fn names, leaf and non-leaf .grad, accumulation,
// no_grad, detach, retain_grad, retain_graph, the version-counter check, and the error texts.
#include <algorithm>

#include "libcompiler/ops/autograd/autograd_meta.h"
#include "libcompiler/ops/autograd/engine.h"
#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/ops/autograd/user_warning.h"
#include "libcompiler/tensor/tensor_printer.h"
#include "libcompiler/tensor/torch_error.h"
#include "libcompiler/tensor/views.h"
#include "ops_test_support.h"

namespace kiln::ops::test {

TEST(Autograd, GradFnNamesAsPyTorchPrintsThem) {
  const Tensor x = leaf({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor w = leaf({1, 2, 3, 4, 5, 6}, {3, 2});
  const Tensor b = leaf({1, 2}, {2});
  EXPECT_EQ(grad_fn_name(add(x, x)), "AddBackward0");
  EXPECT_EQ(grad_fn_name(add(x, Scalar(1))), "AddBackward1");
  EXPECT_EQ(grad_fn_name(mul(x, x)), "MulBackward0");
  EXPECT_EQ(grad_fn_name(mm(x, w)), "MmBackward0");
  EXPECT_EQ(grad_fn_name(sum(x)), "SumBackward0");
  EXPECT_EQ(grad_fn_name(sum(x, {1})), "SumBackward1");
  EXPECT_EQ(grad_fn_name(mean(x)), "MeanBackward0");
  EXPECT_EQ(grad_fn_name(relu(x)), "ReluBackward0");
  EXPECT_EQ(grad_fn_name(linear(x, tensor::t(w), b)), "AddmmBackward0");
  EXPECT_EQ(grad_fn_name(matmul(x, w)), "MmBackward0");
  EXPECT_EQ(grad_fn_name(softmax(x, 1)), "SoftmaxBackward0");
  EXPECT_EQ(grad_fn_name(cross_entropy(x, tensor::tensor_from_values(std::vector<int64_t>{0, 2}, {2}))),
            "NllLossBackward0");
  EXPECT_EQ(grad_fn_name(ops::t(x)), "TBackward0");
  EXPECT_EQ(grad_fn_name(ops::view(x, {6})), "ViewBackward0");
  EXPECT_EQ(grad_fn_name(ops::reshape(ops::t(x), {6})), "UnsafeViewBackward0");
  EXPECT_EQ(grad_fn_name(std::get<0>(max(x, 1))), "MaxBackward0");
  EXPECT_FALSE(std::get<1>(max(x, 1)).requires_grad());  // indices
  EXPECT_EQ(grad_fn_name(split(x, 1)[1]), "SplitBackward0");
  EXPECT_EQ(output_nr(split(x, 1)[1]), 1u);
  EXPECT_FALSE(gt(x, Scalar(0)).requires_grad());
  EXPECT_EQ(grad_fn_name(gelu_backward(x, x, "none")), "NotImplemented");
  EXPECT_EQ(tensor::tensor_repr(relu(leaf({1}, {1})), grad_fn_name(relu(leaf({1}, {1})))),
            "tensor([1.], grad_fn=<ReluBackward0>)");
}

TEST(Autograd, LeafAccumulationAndNonLeafGrad) {
  const Tensor x = leaf({1, 2}, {2});
  const Tensor y = mul(x, Scalar(3));
  EXPECT_TRUE(is_leaf(x));
  EXPECT_FALSE(is_leaf(y));
  backward({sum(y)});
  expect_values(grad(x), {3, 3}, {2});
  backward({sum(y)});  // the graph was freed, but MulBackward1 saved no tensors
  expect_values(grad(x), {6, 6}, {2});

  std::vector<std::string> warnings;
  const WarningHandler previous = set_warning_handler([&](const std::string& m) { warnings.push_back(m); });
  EXPECT_FALSE(grad(y).defined());
  set_warning_handler(previous);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_TRUE(warnings[0].starts_with("The .grad attribute of a Tensor that is not a leaf Tensor is being accessed."));

  const Tensor z = mul(x, x);
  retain_grad(z);
  backward({sum(z)});
  expect_values(grad(z), {1, 1}, {2});
  expect_values(grad(x), {8, 10}, {2});
}

TEST(Autograd, NoGradDetachAndRequiresGrad) {
  const Tensor x = leaf({1, 2}, {2});
  {
    NoGradGuard no_grad;
    const Tensor y = mul(x, x);
    EXPECT_FALSE(y.requires_grad());
    EXPECT_TRUE(is_leaf(y));
  }
  EXPECT_TRUE(GradMode::is_enabled());
  const Tensor d = detach(mul(x, x));
  EXPECT_FALSE(d.requires_grad());
  EXPECT_TRUE(d.storage().is_alias_of(d.storage()));
  EXPECT_EQ(error_of([&] { backward({sum(d)}); }),
            "element 0 of tensors does not require grad and does not have a grad_fn");
  EXPECT_EQ(error_of([&] { backward({mul(x, x)}); }), "grad can be implicitly created only for scalar outputs");
  EXPECT_EQ(error_of([&] { retain_grad(d); }), "can't retain_grad on Tensor that has requires_grad=False");
  EXPECT_EQ(error_of([&] { add_(x, x); }),
            "a leaf Variable that requires grad is being used in an in-place operation.");
  // Optimizer steps: in-place updates of leaves under no_grad are allowed.
  {
    NoGradGuard no_grad;
    add_(x, values({1, 1}, {2}), -0.5);
  }
  expect_values(x, {0.5, 1.5}, {2});
}

TEST(Autograd, RetainGraphAndVersionChecks) {
  const Tensor x = leaf({1, 2}, {2});
  const Tensor y = exp(x);
  const Tensor loss = sum(y);
  backward({loss}, {}, /*retain_graph=*/true);
  backward({loss});
  expect_values(grad(x), {2 * std::exp(1.0), 2 * std::exp(2.0)}, {2}, 1e-6);
  EXPECT_EQ(error_of([&] { backward({loss}); }),
            "Trying to backward through the graph a second time (or directly access saved tensors after they have "
            "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
            "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
            "if you need to access saved tensors after calling backward.");

  const Tensor a = leaf({1, 2, 3}, {3});
  const Tensor e = exp(a);
  const Tensor s = sum(e);
  {
    NoGradGuard no_grad;
    mul_(e, Scalar(2));
  }
  EXPECT_EQ(error_of([&] { backward({s}); }),
            "one of the variables needed for gradient computation has been modified by an inplace operation: "
            "[torch.FloatTensor [3]], which is output 0 of ExpBackward0, is at version 1; expected version 0 "
            "instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
            "with torch.autograd.set_detect_anomaly(True).");

  // add saves nothing, so changing its inputs later is fine, as in PyTorch.
  const Tensor c = clone(a);
  const Tensor sum_of = sum(add(c, a));
  {
    NoGradGuard no_grad;
    add_(c, ones_like(c));
  }
  EXPECT_NO_THROW(backward({sum_of}));
}

TEST(Autograd, InPlaceOnNonLeafRebasesHistory) {
  const Tensor x = leaf({1, 2}, {2});
  const Tensor y = mul(x, Scalar(2));
  EXPECT_EQ(grad_fn_name(y), "MulBackward1");
  mul_(y, x);  // y = 2x * x; mul_ keeps a copy of y from before the write for x's gradient
  EXPECT_EQ(grad_fn_name(y), "MulBackward0");
  EXPECT_EQ(y.version(), 1u);
  backward({sum(y)});
  expect_values(grad(x), {4, 8}, {2});  // d/dx 2x^2

  // y.mul_(y) writes the `other` it saved: PyTorch refuses to backward through it.
  const Tensor z = mul(x, Scalar(2));
  mul_(z, z);
  EXPECT_TRUE(error_of([&] { backward({sum(z)}); }).starts_with(
      "one of the variables needed for gradient computation has been modified by an inplace operation: "
      "[torch.FloatTensor [2]], which is output 0 of MulBackward0, is at version 1; expected version 0 instead."));
}

TEST(Autograd, GradAndDoubleBackward) {
  const Tensor x = leaf({0.5, -1}, {2}, DType::Float64);
  const Tensor y = sum(mul(tanh(x), x));
  const Tensor g = grad({y}, {x}, {}, false, /*create_graph=*/true)[0];
  EXPECT_TRUE(g.requires_grad());
  EXPECT_FALSE(ops::grad(x).defined());  // autograd.grad leaves .grad alone
  // d/dx [x tanh x] = tanh x + x (1 - tanh^2 x); second derivative: 2 (1 - t^2) - 2 x t (1 - t^2).
  const Tensor h = grad({sum(g)}, {x})[0];
  std::vector<double> expected;
  for (double v : {0.5, -1.0}) {
    const double t = std::tanh(v);
    expected.push_back(2 * (1 - t * t) - 2 * v * t * (1 - t * t));
  }
  expect_values(h, expected, {2}, 1e-12);
  EXPECT_EQ(error_of([&] { grad({sum(mul(x, x))}, {leaf({1}, {1})}); }),
            "One of the differentiated Tensors appears to not have been used in the graph. Set allow_unused=True if "
            "this is the desired behavior.");
}

// PyTorch's gradient layout contract: a leaf's .grad takes the leaf's strides when the leaf fills
// its memory densely, whatever layout the backward made (here a transpose's).
TEST(Autograd, ALeafsGradTakesTheLeafsLayout) {
  const Tensor x = leaf({1, 2, 3, 4, 5, 6}, {2, 3});
  backward({sum(mul(ops::contiguous(ops::transpose(x, 0, 1)), values({1, 2, 3, 4, 5, 6}, {3, 2})))});
  EXPECT_EQ(grad(x).strides(), (Shape{3, 1}));
  expect_values(grad(x), {1, 3, 5, 2, 4, 6}, {2, 3});
  Tensor columns = Tensor::empty_with_strides({2, 3}, {1, 2}, DType::Float32, tensor::kCPU);
  zero_(columns);
  columns.set_requires_grad(true);
  backward({sum(columns)});  // an expanded gradient, read into the leaf's column-major layout
  EXPECT_EQ(grad(columns).strides(), (Shape{1, 2}));
  expect_values(grad(columns), {1, 1, 1, 1, 1, 1}, {2, 3});
}

TEST(Autograd, BroadcastGradientsAreSummedAndCast) {
  const Tensor a = leaf({1, 2, 3}, {3});
  const Tensor b = leaf({2}, {1}, DType::Float64);
  backward({sum(mul(ops::expand(a, {2, 3}), b))});
  expect_values(grad(a), {4, 4, 4}, {3});
  EXPECT_EQ(grad(b).dtype(), DType::Float64);
  expect_values(grad(b), {12}, {1});
}

}  // namespace kiln::ops::test

namespace kiln::ops::test {

namespace {

// grad_fn, then the first node each step leads to, down to the leaf (as following
// next_functions[0] in Python prints them).
std::vector<std::string> grad_fn_chain(const Tensor& t) {
  std::vector<std::string> names;
  for (std::shared_ptr<Node> node = grad_fn(t); node && node->name() != "AccumulateGrad";) {
    names.push_back(node->name());
    std::shared_ptr<Node> next;
    for (const Edge& e : node->next_edges())
      if (e.valid()) {
        next = e.function;
        break;
      }
    node = next;
  }
  return names;
}

Tensor random_leaf(const Shape& sizes) {
  std::vector<double> data(static_cast<size_t>(tensor::numel_of(sizes)));
  for (size_t i = 0; i < data.size(); ++i) data[i] = 0.25 * static_cast<double>(i % 7) - 0.5;
  return leaf(data, sizes);
}

}  // namespace

// The chains PyTorch 2.11 prints for torch.matmul of leaves that require grad.
TEST(Autograd, MatmulGradFnsFollowATenForEveryRankCombination) {
  using Chain = std::vector<std::string>;
  const std::vector<std::tuple<Shape, Shape, Chain>> cases = {
      {{3}, {3}, {"DotBackward0"}},
      {{2, 3}, {3}, {"MvBackward0"}},
      {{3}, {3, 2}, {"SqueezeBackward4", "MmBackward0", "UnsqueezeBackward0"}},
      {{2, 3}, {3, 4}, {"MmBackward0"}},
      {{2, 2, 3}, {3}, {"UnsafeViewBackward0", "MvBackward0", "ViewBackward0"}},
      {{3}, {2, 3, 2}, {"UnsafeViewBackward0", "MvBackward0", "UnsafeViewBackward0", "CloneBackward0", "TransposeBackward0"}},
      {{2, 2, 3}, {3, 4}, {"UnsafeViewBackward0", "MmBackward0", "ViewBackward0"}},
      {{2, 3}, {2, 3, 4}, {"CloneBackward0", "TransposeBackward0", "UnsafeViewBackward0", "MmBackward0", "UnsafeViewBackward0", "CloneBackward0", "TransposeBackward0"}},
      {{2, 2, 3}, {2, 3, 4}, {"UnsafeViewBackward0", "BmmBackward0", "ViewBackward0", "ExpandBackward0"}},
      {{1, 2, 3}, {2, 3, 4}, {"CloneBackward0", "TransposeBackward0", "UnsafeViewBackward0", "MmBackward0", "UnsafeViewBackward0", "CloneBackward0", "TransposeBackward0"}},
      {{2, 2, 2, 3}, {2, 3, 4}, {"UnsafeViewBackward0", "BmmBackward0", "ViewBackward0", "ExpandBackward0"}},
  };
  for (const auto& [a, b, chain] : cases) {
    const Tensor x = random_leaf(a), y = random_leaf(b);
    const Tensor r = matmul(x, y);
    EXPECT_EQ(grad_fn_chain(r), chain) << "shapes " << a.size() << "-D @ " << b.size() << "-D";
    // The result is the same as the plain product, whatever the route.
    backward({sum(r)});
    EXPECT_TRUE(grad(x).defined() && grad(y).defined());
  }
  const Tensor x = random_leaf({2, 3}), v = random_leaf({4});
  EXPECT_EQ(error_of([&] { mv(x, v); }), "size mismatch, got input (2), mat (2x3), vec (4)");
  EXPECT_EQ(error_of([&] { mv(v, v); }), "vector + matrix @ vector expected, got 1, 1, 1");
}

TEST(Autograd, ProdGradientWithZerosIsTheProductOfTheOthers) {
  // Values printed by PyTorch 2.11 for x.prod().backward() and x.prod(1).sum().backward().
  const Tensor one_zero = leaf({1, 0, 3, 2}, {4});
  backward({prod(one_zero)});
  expect_values(grad(one_zero), {0, 6, 0, 0}, {4});
  const Tensor two_zeros = leaf({1, 0, 3, 0}, {4});
  backward({prod(two_zeros)});
  expect_values(grad(two_zeros), {0, 0, 0, 0}, {4});
  const Tensor rows = leaf({1, 0, 3, 2, 4, 5, 0, 0, 1}, {3, 3});
  backward({sum(prod(rows, 1))});
  expect_values(grad(rows), {0, 3, 0, 20, 10, 8, 0, 0, 0}, {3, 3});
}

TEST(Autograd, StdGradientIsZeroWhereStdIsZero) {
  const Tensor x = leaf({2, 2, 2, 1, 2, 3}, {2, 3});
  backward({sum(ops::std(x, std::vector<int64_t>{1}, std::nullopt))});
  expect_values(grad(x), {0, 0, 0, -0.5, 0, 0.5}, {2, 3});
  const Tensor constant = leaf({2, 2, 2}, {3});
  backward({ops::std(constant, std::nullopt, std::nullopt)});
  expect_values(grad(constant), {0, 0, 0}, {3});
}

}  // namespace kiln::ops::test

namespace kiln::ops::test {

// In-place writes through views rebase the base's history (PyTorch's CopySlices); the values and
// names are what PyTorch 2.11 printed for the same code.
TEST(Autograd, InPlaceOnAViewRebasesTheBaseHistory) {
  const auto fresh_leaf = [] { return leaf({1, 2, 3, 4, 5, 6}, {2, 3}); };
  {
    // x = leaf.ops::clone(); x[0].mul_(2); x.sum().backward()
    const Tensor l = fresh_leaf();
    const Tensor x = ops::clone(l);
    const Tensor row = ops::select(x, 0, 0);
    mul_(row, Scalar(2));
    EXPECT_EQ(grad_fn_name(x), "CopySlices");
    EXPECT_EQ(grad_fn_name(row), "AsStridedBackward0");
    EXPECT_EQ(x.version(), 1u);
    expect_values(x, {2, 4, 6, 4, 5, 6}, {2, 3});
    backward({sum(x)});
    expect_values(grad(l), {2, 2, 2, 1, 1, 1}, {2, 3});
  }
  {
    // x = leaf.ops::clone(); v = x[:, 1]; w = x[1]; v.mul_(3); (x * x).sum().backward()
    const Tensor l = fresh_leaf();
    const Tensor x = ops::clone(l);
    const Tensor column = ops::select(x, 1, 1), row = ops::select(x, 0, 1);
    EXPECT_EQ(grad_fn_name(row), "SelectBackward0");
    mul_(column, Scalar(3));
    EXPECT_EQ(grad_fn_name(x), "CopySlices");
    EXPECT_EQ(grad_fn_name(column), "AsStridedBackward0");
    EXPECT_EQ(grad_fn_name(row), "AsStridedBackward0");  // stale since the write: regenerated
    backward({sum(mul(x, x))});
    expect_values(grad(l), {2, 36, 6, 8, 90, 12}, {2, 3});
  }
  {
    // x = leaf.ops::clone(); v = x[1]; x.mul_(3); v.sum().backward()
    const Tensor l = fresh_leaf();
    const Tensor x = ops::clone(l);
    const Tensor v = ops::select(x, 0, 1);
    mul_(x, Scalar(3));
    EXPECT_EQ(grad_fn_name(v), "AsStridedBackward0");
    EXPECT_EQ(grad_fn(v)->next_edges()[0].function->name(), "MulBackward1");
    backward({sum(v)});
    expect_values(grad(l), {0, 0, 0, 3, 3, 3}, {2, 3});
  }
  {
    // z = torch.ops::zeros(2, 3); z[1].add_(w * w): the base starts to require grad.
    const Tensor z = ops::zeros({2, 3});
    const Tensor w = leaf({1, 2, 3}, {3});
    add_(ops::select(z, 0, 1), mul(w, w));
    EXPECT_TRUE(z.requires_grad());
    EXPECT_EQ(grad_fn_name(z), "CopySlices");
    backward({sum(z)});
    expect_values(grad(w), {2, 4, 6}, {3});
  }
  {
    // x = leaf.ops::clone(); x.t()[0].sqrt_(): a view of a view, non-contiguous.
    const Tensor l = leaf({4, 1, 1, 16, 1, 1}, {2, 3});
    const Tensor x = ops::clone(l);
    sqrt_(ops::select(ops::t(x), 0, 0));
    EXPECT_EQ(grad_fn_name(x), "CopySlices");
    backward({sum(x)});
    expect_values(grad(l), {0.25, 1, 1, 0.125, 1, 1}, {2, 3});
  }
  const Tensor l = fresh_leaf();
  EXPECT_EQ(error_of([&] { mul_(ops::select(l, 0, 0), Scalar(2)); }),
            "a view of a leaf Variable that requires grad is being used in an in-place operation.");
  // ops::detach() shares the data but not the history: writing through it leaves the base's grad_fn.
  const Tensor x = ops::clone(l);
  mul_(ops::detach(x), Scalar(2));
  EXPECT_EQ(grad_fn_name(x), "CloneBackward0");
}

}  // namespace kiln::ops::test

namespace kiln::ops::test {

namespace {

// Every node reachable from `t`'s grad_fn, held weakly so that collecting them keeps none alive.
std::vector<std::weak_ptr<Node>> graph_nodes(const Tensor& t) {
  std::vector<std::weak_ptr<Node>> found;
  std::vector<std::shared_ptr<Node>> pending{grad_fn(t)}, seen;
  while (!pending.empty()) {
    std::shared_ptr<Node> node = std::move(pending.back());
    pending.pop_back();
    if (!node || std::find(seen.begin(), seen.end(), node) != seen.end()) continue;
    seen.push_back(node);
    found.push_back(node);
    for (const Edge& e : node->next_edges()) pending.push_back(e.function);
  }
  return found;
}

}  // namespace

// The graph dies with the last tensor that uses it, as in PyTorch: a saved output does not own
// its grad_fn, nor does an in-place op's node own itself through the tensor it wrote or a view's
// base. Graphs that are never run, or kept with retain_graph, are where a cycle would leak.
TEST(Autograd, GraphsDoNotOutliveTheirTensors) {
  const Tensor x = leaf({1, -2, 3, -4, 5, -6}, {2, 3});
  const Tensor w = leaf({0.5, -1, 2, 1, -0.5, 0.25}, {3, 2});
  std::vector<std::weak_ptr<Node>> nodes;
  for (int step = 0; step < 3; ++step) {
    {
      const Tensor hidden = relu(mm(x, w));              // relu saves its result
      const Tensor scores = log_softmax(exp(hidden), 1);  // so do exp and log_softmax
      const Tensor doubled = mul(scores, Scalar(2));
      mul_(doubled, hidden);                             // in-place on a non-leaf
      const Tensor base = exp(doubled);
      sqrt_(ops::select(base, 0, 0));                    // in-place through a view: CopySlices
      mul_(ops::select(base, 0, 1), ops::select(base, 0, 1));  // saves the tensor it writes
      const Tensor loss = add(sum(doubled), sum(base));
      backward({sum(doubled)}, {}, /*retain_graph=*/true);
      for (const auto& node : graph_nodes(loss)) nodes.push_back(node);
    }
    for (const auto& node : nodes) EXPECT_TRUE(node.expired()) << "step " << step << ": " << node.lock()->name();
    nodes.clear();
  }
}

}  // namespace kiln::ops::test
