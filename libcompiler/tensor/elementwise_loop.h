#pragma once
// ElementwiseLoop: walks operands of one shape (inputs broadcast to the outputs' shape) in memory
// order, handing out innermost runs, as ATen's TensorIterator does for CPU kernels.
//
// Dimensions are ordered so that the first output's memory is visited sequentially (a
// transposed output is filled in memory order, as PyTorch's serial kernels fill it), then
// dimensions that are contiguous with each other for every operand are merged. For contiguous
// operands the whole tensor is one run, so a kernel's inner loop is a plain array loop.
//
//   ElementwiseLoop loop({out}, {a, b});
//   loop.for_each([&](char* const* data, const int64_t* byte_strides, int64_t n) { ... });
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "libcompiler/tensor/parallel.h"
#include "libcompiler/tensor/tensor.h"

namespace kiln::tensor {

class ElementwiseLoop {
 public:
  // Outputs must have one shape; inputs must broadcast to it (RuntimeError with PyTorch's text
  // otherwise). Operand i of the runs is outputs first, then inputs, in the order given. Lists in
  // place ({out}, {a, b}), not vectors: a small op's loop then allocates nothing.
  ElementwiseLoop(std::initializer_list<Tensor> outputs, std::initializer_list<Tensor> inputs);

  int num_operands() const { return static_cast<int>(data_.size()); }
  int64_t numel() const { return numel_; }
  // The shape after reordering and merging, innermost first; one entry for a contiguous walk.
  Shape loop_shape() const { return Shape(shape_.begin(), shape_.end()); }

  // body(data, byte_strides, n): data[i] is operand i's first element of the run, byte_strides[i]
  // its step in bytes; n elements per run. Runs come in memory order of the first output.
  template <typename Body>
  void for_each(Body&& body) const {
    for_each_range(0, numel_, body);
  }

  // The runs that cover elements [begin, end) of the walk, so threads can split one walk into
  // disjoint ranges (TensorIterator::serial_for_each over a range).
  template <typename Body>
  void for_each_range(int64_t begin, int64_t end, Body&& body) const {
    if (begin >= end) return;
    const size_t ops = data_.size();
    const size_t ndim = shape_.size();
    // A small op's whole cost is its bookkeeping: the walk's state lives on the stack for the
    // operand and dimension counts elementwise ops have, on the heap beyond them.
    constexpr size_t kInline = 8;
    char* inline_pointers[kInline];
    int64_t inline_strides[kInline], inline_counter[kInline];
    std::vector<char*> heap_pointers;
    std::vector<int64_t> heap_strides, heap_counter;
    char** pointers = inline_pointers;
    int64_t* inner_strides = inline_strides;
    int64_t* counter = inline_counter;
    if (ops > kInline || ndim > kInline) {
      heap_pointers.resize(ops);
      heap_strides.resize(ops);
      heap_counter.resize(ndim);
      pointers = heap_pointers.data();
      inner_strides = heap_strides.data();
      counter = heap_counter.data();
    }
    for (size_t i = 0; i < ops; ++i) {
      pointers[i] = data_[i];
      inner_strides[i] = stride(i, 0);
    }
    // Position the odometer on element `begin`.
    int64_t rest = begin;
    for (size_t d = 0; d < ndim; ++d) {
      counter[d] = rest % shape_[d];
      rest /= shape_[d];
      for (size_t i = 0; i < ops; ++i) pointers[i] += counter[d] * stride(i, d);
    }
    int64_t remaining = end - begin;
    while (true) {
      const int64_t n = std::min(shape_[0] - counter[0], remaining);
      body(static_cast<char* const*>(pointers), static_cast<const int64_t*>(inner_strides), n);
      remaining -= n;
      if (remaining == 0) return;
      // Back to the start of the run's row, then advance the outer dimensions like an odometer.
      for (size_t i = 0; i < ops; ++i) pointers[i] -= counter[0] * stride(i, 0);
      counter[0] = 0;
      for (size_t d = 1; d < ndim; ++d) {
        ++counter[d];
        for (size_t i = 0; i < ops; ++i) pointers[i] += stride(i, d);
        if (counter[d] < shape_[d]) break;
        for (size_t i = 0; i < ops; ++i) pointers[i] -= stride(i, d) * shape_[d];
        counter[d] = 0;
      }
    }
  }

 private:
  // Operand i's step in bytes along (merged) dimension d.
  int64_t stride(size_t i, size_t d) const { return strides_[i * shape_.size() + d]; }

  // Inline for the operand and dimension counts of most calls (no heap for a small op's walk).
  boost::container::small_vector<char*, 4> data_;
  boost::container::small_vector<int64_t, 16> strides_;  // [operand][dim] flattened, in bytes, innermost dim first
  boost::container::small_vector<int64_t, 4> shape_;     // innermost first
  int64_t numel_ = 0;
};

// Runs `run` over the whole walk, split over the thread pool when it has kGrainSize elements or
// more (as TensorIterator::for_each): kernels and copies alike.
template <typename Run>
void for_each_run(const ElementwiseLoop& loop, const Run& run) {
  if (loop.numel() < kGrainSize) {
    loop.for_each(run);
    return;
  }
  parallel_for(0, loop.numel(), kGrainSize, [&](int64_t begin, int64_t end) { loop.for_each_range(begin, end, run); });
}

}  // namespace kiln::tensor
