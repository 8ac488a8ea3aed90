#pragma once
// Helpers for the op tests: building tensors from literal values and reading them back as doubles.
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/factories.h"

namespace kiln::ops::test {

inline Tensor values(const std::vector<double>& data, const Shape& sizes, DType dtype = DType::Float32) {
  return tensor::tensor_from_values(data, sizes, dtype);
}

inline Tensor leaf(const std::vector<double>& data, const Shape& sizes, DType dtype = DType::Float32) {
  Tensor t = values(data, sizes, dtype);
  t.set_requires_grad(true);
  return t;
}

// Every element, row-major, as double.
std::vector<double> as_doubles(const Tensor& t);

// Fails unless `actual` has the shape and (within tolerance) the values given.
void expect_values(const Tensor& actual, const std::vector<double>& expected, const Shape& sizes,
                   double tolerance = 1e-6);

// The message of the exception `body` throws; a test failure if it throws none.
inline std::string error_of(const std::function<void()>& body) {
  try {
    body();
  } catch (const std::exception& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

}  // namespace kiln::ops::test
