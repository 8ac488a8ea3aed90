// Printing cases beyond the reference file; expected strings are what PyTorch 2.x prints for
// the same tensors (torch/_tensor_str.py rules).
#include <gtest/gtest.h>

#include "libcompiler/tensor/factories.h"
#include "libcompiler/tensor/tensor_printer.h"
#include "libcompiler/tensor/views.h"

namespace kiln::tensor {
namespace {

TEST(TensorPrinter, WrapsLongVectorsAtTheLineWidth) {
  std::vector<double> values(30);
  for (int i = 0; i < 30; ++i) values[i] = i + 0.5;
  // Width 7 ("29.5000") + 2 per element: (80 - 7) / 9 = 8 per line.
  EXPECT_EQ(tensor_repr(tensor_from_values(values, {30})),
            "tensor([ 0.5000,  1.5000,  2.5000,  3.5000,  4.5000,  5.5000,  6.5000,  7.5000,\n"
            "         8.5000,  9.5000, 10.5000, 11.5000, 12.5000, 13.5000, 14.5000, 15.5000,\n"
            "        16.5000, 17.5000, 18.5000, 19.5000, 20.5000, 21.5000, 22.5000, 23.5000,\n"
            "        24.5000, 25.5000, 26.5000, 27.5000, 28.5000, 29.5000])");
}

TEST(TensorPrinter, ThreeDimensionsSeparateBlocksWithBlankLines) {
  EXPECT_EQ(tensor_repr(view(arange(8), {2, 2, 2})),
            "tensor([[[0, 1],\n"
            "         [2, 3]],\n"
            "\n"
            "        [[4, 5],\n"
            "         [6, 7]]])");
}

TEST(TensorPrinter, SummarisesEveryDimension) {
  const std::string expected_start =
      "tensor([[   0,    1,    2,  ...,    5,    6,    7],\n"
      "        [   8,    9,   10,  ...,   13,   14,   15],\n"
      "        [  16,   17,   18,  ...,   21,   22,   23],\n"
      "        ...,\n"
      "        [8776, 8777, 8778,  ..., 8781, 8782, 8783],\n";
  const std::string matrix = tensor_repr(view(arange(1100 * 8), {1100, 8}));
  EXPECT_EQ(matrix.substr(0, expected_start.size()), expected_start);
  const std::string text = tensor_repr(arange(1001));
  EXPECT_EQ(text, "tensor([   0,    1,    2,  ...,  998,  999, 1000])");
}

TEST(TensorPrinter, SuffixesAndDtypes) {
  EXPECT_EQ(tensor_repr(zeros({2}, DType::Int8)), "tensor([0, 0], dtype=torch.int8)");
  EXPECT_EQ(tensor_repr(Tensor::empty({0}, DType::Int64)), "tensor([], dtype=torch.int64)");
  EXPECT_EQ(tensor_repr(Tensor::empty({0}, DType::Bool)), "tensor([], dtype=torch.bool)");
  EXPECT_EQ(tensor_repr(scalar_tensor(Scalar(2.5), DType::Float64)), "tensor(2.5000, dtype=torch.float64)");
  EXPECT_EQ(tensor_repr(Tensor::empty({2, 3}, DType::Float16, Device::parse("meta"))),
            "tensor(..., device='meta', size=(2, 3), dtype=torch.float16)");
  EXPECT_EQ(tensor_repr(tensor_from_values(std::vector<double>{0.0, 0.0}, {2})), "tensor([0., 0.])");
  EXPECT_EQ(tensor_repr(tensor_from_values(std::vector<double>{1e-9, 1.0}, {2}), "AddBackward0"),
            "tensor([1.0000e-09, 1.0000e+00], grad_fn=<AddBackward0>)");
  // A suffix that would pass 80 columns goes on its own line, indented.
  EXPECT_EQ(tensor_repr(tensor_from_values(std::vector<double>(5, 123456.5), {5}, DType::Float64)),
            "tensor([123456.5000, 123456.5000, 123456.5000, 123456.5000, 123456.5000],\n"
            "       dtype=torch.float64)");
  std::vector<double> values(7, 123456.5);
  EXPECT_EQ(tensor_repr(tensor_from_values(values, {7}, DType::Float64)),
            "tensor([123456.5000, 123456.5000, 123456.5000, 123456.5000, 123456.5000,\n"
            "        123456.5000, 123456.5000], dtype=torch.float64)");
  EXPECT_EQ(size_repr({}), "torch.Size([])");
  EXPECT_EQ(tolist_repr(view(arange(4), {2, 2})), "[[0, 1], [2, 3]]");
  EXPECT_EQ(tolist_repr(scalar_tensor(Scalar(true))), "True");
  EXPECT_EQ(item_repr(scalar_tensor(Scalar(0.1))), "0.10000000149011612");
}

TEST(TensorPrinter, OptionsChangePrecisionAndSciMode) {
  PrintOptions saved = print_options();
  print_options().precision = 2;
  print_options().sci_mode = true;
  EXPECT_EQ(tensor_repr(tensor_from_values(std::vector<double>{1.0, 2.5}, {2})), "tensor([1.00e+00, 2.50e+00])");
  print_options() = saved;
  EXPECT_EQ(tensor_repr(tensor_from_values(std::vector<double>{1.0, 2.5}, {2})), "tensor([1.0000, 2.5000])");
}

}  // namespace
}  // namespace kiln::tensor
