// max_pool2d_with_indices against a window-by-window reference: every output position (the
// windows that cross an edge of the input, padding, dilation, ceil_mode's partial windows),
// ties (the first maximum's index), NaN (the last NaN's index) and windows of -inf only.
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "ops_test_support.h"

namespace kiln::ops::test {

namespace {

struct Pooling {
  std::vector<int64_t> kernel, stride, padding, dilation;
  bool ceil_mode;
};

// Output (oh, ow) of one plane as ATen defines it: starting from -inf and the window's first
// element inside the input, each later element taken if greater or NaN.
std::pair<double, int64_t> reference_window(const std::vector<double>& plane, int64_t in_h, int64_t in_w, const Pooling& p,
                                            int64_t oh, int64_t ow) {
  double best = -std::numeric_limits<double>::infinity();
  int64_t index = -1;
  for (int64_t i = 0; i < p.kernel[0]; ++i)
    for (int64_t j = 0; j < p.kernel[1]; ++j) {
      const int64_t h = oh * p.stride[0] - p.padding[0] + i * p.dilation[0];
      const int64_t c = ow * p.stride[1] - p.padding[1] + j * p.dilation[1];
      if (h < 0 || h >= in_h || c < 0 || c >= in_w) continue;
      const double v = plane[h * in_w + c];
      if (index < 0 || v > best || std::isnan(v)) {
        best = v;
        index = h * in_w + c;
      }
    }
  return {best, index};
}

// Small integers (many ties) with NaNs and -infs among them, some windows all -inf.
std::vector<double> image_values(int64_t count, std::mt19937& random) {
  std::uniform_int_distribution<int> digit(-3, 3), special(0, 19);
  std::vector<double> data(static_cast<size_t>(count));
  for (double& v : data) {
    const int kind = special(random);
    v = kind == 0 ? std::numeric_limits<double>::quiet_NaN() : kind <= 2 ? -std::numeric_limits<double>::infinity() : digit(random);
  }
  for (size_t i = 0; i < data.size() / 16; ++i) data[i] = -std::numeric_limits<double>::infinity();
  return data;
}

}  // namespace

TEST(MaxPool2d, EveryWindowAsATenTakesIt) {
  const std::vector<Pooling> poolings = {
      {{2, 2}, {2, 2}, {0, 0}, {1, 1}, false}, {{3, 3}, {1, 1}, {1, 1}, {1, 1}, false},
      {{3, 2}, {2, 1}, {1, 0}, {2, 1}, true},  {{2, 3}, {3, 3}, {1, 1}, {1, 2}, true},
      {{1, 5}, {1, 2}, {0, 2}, {1, 1}, true},
  };
  std::mt19937 random(7);
  for (const DType dtype : {DType::Float32, DType::Float64, DType::BFloat16, DType::Float16})
    for (const Pooling& p : poolings)
      for (const int64_t in_w : {5, 13, 40}) {
        const int64_t planes = 3, in_h = 9;
        const std::vector<double> data = image_values(planes * in_h * in_w, random);
        const auto [values_out, indices_out] =
            max_pool2d_with_indices(values(data, {1, planes, in_h, in_w}, dtype), p.kernel, p.stride, p.padding, p.dilation, p.ceil_mode);
        const std::vector<double> got = as_doubles(values_out);
        const std::vector<double> got_index = as_doubles(indices_out);
        const int64_t out_h = values_out.sizes()[2], out_w = values_out.sizes()[3];
        for (int64_t plane = 0; plane < planes; ++plane)
          for (int64_t oh = 0; oh < out_h; ++oh)
            for (int64_t ow = 0; ow < out_w; ++ow) {
              const std::vector<double> plane_data(data.begin() + plane * in_h * in_w, data.begin() + (plane + 1) * in_h * in_w);
              const auto [want, want_index] = reference_window(plane_data, in_h, in_w, p, oh, ow);
              const size_t o = static_cast<size_t>((plane * out_h + oh) * out_w + ow);
              const std::string where = "kernel " + std::to_string(p.kernel[0]) + "x" + std::to_string(p.kernel[1]) + ", width " +
                                        std::to_string(in_w) + ", output (" + std::to_string(oh) + ", " + std::to_string(ow) + ")";
              EXPECT_EQ(static_cast<int64_t>(got_index[o]), want_index) << where;
              if (std::isnan(want)) EXPECT_TRUE(std::isnan(got[o])) << where;
              else EXPECT_EQ(got[o], want) << where;
            }
      }
}

}  // namespace kiln::ops::test
