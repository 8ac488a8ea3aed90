// Every generated eager CUDA kernel compiles: each row of pointwise_ops.def and reduction_ops.def
// and each kind of indexed move (indexing_ops.h),
// for the dtypes a GPU program computes in, through NVRTC for sm_90 (NVRTC needs no GPU). What
// they compute is checked on the GPU machine against PyTorch (tests/device/).
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "libcompiler/cuda/attention.h"
#include "libcompiler/cuda/indexed_move.h"
#include "libcompiler/cuda/kernel_source.h"
#include "libcompiler/cuda/loaded_kernels.h"
#include "libcompiler/cuda/multi_tensor.h"
#include "libcompiler/cuda/nvrtc.h"
#include "libcompiler/cuda/philox_random.h"
#include "libcompiler/cuda/pointwise.h"
#include "libcompiler/cuda/reduction.h"
#include "libcompiler/ops/op_table.h"
#include "tests/support/shared_data.h"

namespace kiln::cuda {
namespace {

using tensor::DType;
using tensor::Tensor;

struct Row {
  ops::OpId op;
  const char* expression;
};

const std::vector<Row>& pointwise_rows() {
  static const std::vector<Row> rows = {
#define KILN_CUDA_POINTWISE(OpId_, expression) {ops::OpId::OpId_, expression},
#include "libcompiler/cuda/pointwise_ops.def"
  };
  return rows;
}

struct ReductionRow {
  ops::OpId op;
  ReductionSpelling spelling;
};

const std::vector<ReductionRow>& reduction_rows() {
  static const std::vector<ReductionRow> rows = {
#define KILN_CUDA_REDUCTION(OpId_, init, combine, finish) {ops::OpId::OpId_, {init, combine, finish}},
#include "libcompiler/cuda/reduction_ops.def"
  };
  return rows;
}

// The kernel a row makes for operands of `dtype` (its boolean operands bool, its result bool for
// a comparison), as eager_kernels.cpp names them from the op's schema; the rows take the three
// ways of indexing in turn.
std::string source_for(const Row& row, DType floating, size_t row_number) {
  const ops::FunctionSchema& schema = ops::op_info(row.op).schema;
  const std::string& name = schema.name;
  // Bitwise rows take integers (PyTorch refuses them floating operands).
  const DType dtype = name.starts_with("bitwise_") ? DType::Int64 : floating;
  std::vector<PointwiseInput> inputs;
  std::vector<PointwiseScalar> scalars;
  for (const ops::SchemaArgument& argument : schema.arguments) {
    if (argument.type.is_list) continue;
    if (argument.type.base == ops::SchemaType::Base::Tensor) {
      const bool boolean = argument.name == "condition" || argument.name == "mask";
      inputs.push_back({argument.name, Tensor::empty({4, 3}, boolean ? DType::Bool : dtype)});
    } else if (argument.type.base == ops::SchemaType::Base::Scalar || argument.type.base == ops::SchemaType::Base::Bool) {
      scalars.push_back({argument.name, 2.0});
    }
  }
  const bool boolean_result = name == "eq" || name == "ne" || name == "lt" || name == "le" || name == "gt" || name == "ge" ||
                              name.starts_with("logical_") || name == "isnan" || name == "isfinite";
  const Tensor out = Tensor::empty({4, 3}, boolean_result ? DType::Bool : dtype);
  // Four elements a thread only for float32 operands (what run_pointwise gives it).
  const auto indexings = std::array{PointwiseIndexing::Flat32, PointwiseIndexing::Strided32, PointwiseIndexing::Strided64,
                                    PointwiseIndexing::Flat32Vector4};
  const PointwiseIndexing indexing = indexings[row_number % (dtype == DType::Float32 ? 4 : 3)];
  return pointwise_source(out, row.expression, dtype, inputs, scalars, indexing);
}

class CudaKernels : public ::testing::TestWithParam<DType> {
 protected:
  void SetUp() override {
    if (!nvrtc_available()) GTEST_SKIP() << "NVRTC does not load here: " << nvrtc_missing_reason();
  }
};

// Every row's kernel in one module (one NVRTC run, not seventy): each after the shared preamble,
// its entry and geometry struct renamed apart. When the module fails, each row is compiled alone
// to name the ones at fault.
TEST_P(CudaKernels, EveryPointwiseRowCompiles) {
  const std::string& preamble = kernel_preamble();
  std::string module = preamble;
  for (size_t i = 0; i < pointwise_rows().size(); ++i) {
    std::string kernel = source_for(pointwise_rows()[i], GetParam(), i).substr(preamble.size());
    for (const std::string name : {"Geometry", "kiln_pointwise"})
      for (size_t at = 0; (at = kernel.find(name, at)) != std::string::npos; at += name.size() + 4)
        kernel.replace(at, name.size(), name + "_" + std::to_string(i));
    module += kernel;
  }
  try {
    compile_cuda(module, "pointwise_rows.cu", "sm_90");
  } catch (const CudaCompileError&) {
    for (size_t i = 0; i < pointwise_rows().size(); ++i) {
      const std::string name = ops::op_info(pointwise_rows()[i].op).qualified_name();
      EXPECT_NO_THROW(compile_cuda(source_for(pointwise_rows()[i], GetParam(), i), name + ".cu", "sm_90")) << name;
    }
  }
}

TEST_P(CudaKernels, EveryReductionRowCompiles) {
  const DType dtype = GetParam();
  for (const ReductionRow& row : reduction_rows()) {
    SCOPED_TRACE(ops::op_info(row.op).qualified_name());
    // all/any give bools, accumulated as each element's truth.
    const bool truth = row.op == ops::OpId::all || row.op == ops::OpId::any;
    const Tensor in = Tensor::empty({4, 3}, dtype), out = Tensor::empty({4}, truth ? DType::Bool : dtype);
    const DType accumulate = truth ? DType::Bool : dtype == DType::Float64 ? DType::Float64 : DType::Float32;
    EXPECT_NO_THROW(compile_cuda(reduction_source(out, in, accumulate, row.spelling), "reduction.cu", "sm_90"));
  }
}

// Each kind of move: copying from a tensor (gather, embedding) or a number (scatter.value) with
// int64 and int32 indices, and accumulating (scatter_add, embedding's backward) where atomics take
// the dtype.
TEST_P(CudaKernels, EveryIndexedMoveCompiles) {
  const DType dtype = GetParam();
  for (const DType index_dtype : {DType::Int64, DType::Int32})
    for (const bool from_tensor : {true, false})
      for (const bool accumulate : {false, true}) {
        if (accumulate && !can_accumulate(dtype)) continue;
        SCOPED_TRACE(std::string(tensor::dtype_name(index_dtype)) + (from_tensor ? " from a tensor" : " from a number") +
                     (accumulate ? ", accumulating" : ""));
        IndexedMove move{.dst = Tensor::empty({4}, dtype), .index = Tensor::empty({4}, index_dtype), .accumulate = accumulate};
        if (from_tensor) move.src = Tensor::empty({4}, dtype);
        EXPECT_NO_THROW(compile_cuda(indexed_move_source(move), "indexed_move.cu", "sm_90"));
      }
}

// GradScaler's multi-tensor unscale compiles for each floating dtype a gradient has, its table of
// chunks within the 4 KB a kernel's parameters may take.
TEST_P(CudaKernels, AmpUnscaleCompiles) {
  EXPECT_NO_THROW(compile_cuda(amp_unscale_source(GetParam()), "amp_unscale.cu", "sm_90"));
}

// Every foreach_ops.def row's multi-tensor kernel compiles (its table and scalars within the 4 KB
// of parameters).
TEST_P(CudaKernels, EveryForeachRowCompiles) {
#define KILN_CUDA_FOREACH(Foreach, PerTensor)                                                                      \
  EXPECT_NO_THROW(compile_cuda(foreach_source(ops::OpId::PerTensor, GetParam()), #Foreach ".cu", "sm_90")) \
      << foreach_source(ops::OpId::PerTensor, GetParam());
#include "libcompiler/cuda/foreach_ops.def"
}

// The fused attention's kernels compile for the head sizes at either end and a GPT's, within the
// registers their launch bounds leave (what they compute: attention_emulation_test.cpp, and
// tests/device/cuda_attention.py on the GPU).
TEST_P(CudaKernels, TheFusedAttentionCompiles) {
  if (GetParam() == DType::Float64) GTEST_SKIP() << "the fused attention takes float, half and bfloat16";
  for (const int64_t head : {16, 64, 128})
    for (const bool quad_rows : {false, true}) {
      if (quad_rows && GetParam() != DType::Float32) continue;
      SCOPED_TRACE("head size " + std::to_string(head) + (quad_rows ? ", rows as quads" : ""));
      EXPECT_NO_THROW(compile_cuda(fused_attention_source(head, GetParam(), quad_rows), "attention.cu", "sm_90"));
    }
}

INSTANTIATE_TEST_SUITE_P(Dtypes, CudaKernels, ::testing::Values(DType::Float32, DType::Float16, DType::BFloat16, DType::Float64),
                         [](const auto& info) { return std::string(tensor::dtype_name(info.param)); });

// What PyTorch's Philox draws is checked on the GPU (tests/device/cuda_random.py); here, that the
// kernels compile.
TEST(CudaCompile, ThePhiloxKernelsCompile) {
  if (!nvrtc_available()) GTEST_SKIP() << "NVRTC does not load here: " << nvrtc_missing_reason();
  try {
    EXPECT_FALSE(compile_cuda(philox_kernels_source(), "philox.cu", "sm_90").image.empty());
  } catch (const CudaCompileError& error) {
    FAIL() << error.what();
  }
}

TEST(CudaCompile, AnErrorCarriesNvrtcsLog) {
  if (!nvrtc_available()) GTEST_SKIP() << "NVRTC does not load here: " << nvrtc_missing_reason();
  try {
    compile_cuda("extern \"C\" __global__ void broken() { undefined_call(); }", "broken.cu", "sm_90");
    FAIL() << "a kernel calling an undefined function compiled";
  } catch (const CudaCompileError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("compiling broken.cu for sm_90"), std::string::npos) << message;
    EXPECT_NE(message.find("undefined_call"), std::string::npos) << message;
  }
}

TEST(CudaKernelCache, ASecondCompileIsReadFromDisk) {
  if (!nvrtc_available()) GTEST_SKIP() << "NVRTC does not load here: " << nvrtc_missing_reason();
  const std::filesystem::path dir = test::scratchDir("cuda_kernel_cache");
  setenv("PYTORCH_KERNEL_CACHE_PATH", dir.c_str(), 1);
  const std::string source = "extern \"C\" __global__ void cached(float* out) { out[threadIdx.x] = 1.0f; }";
  const std::string image = compiled_kernel_image(source, "cached", "sm_90");
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir / "sm_90")) files.push_back(entry.path());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].extension(), ".cubin");
  // The file is what a second compile answers with: marked, it comes back marked.
  std::ofstream(files[0], std::ios::app) << "marker";
  EXPECT_EQ(compiled_kernel_image(source, "cached", "sm_90"), image + "marker");
  setenv("USE_PYTORCH_KERNEL_CACHE", "0", 1);
  EXPECT_EQ(compiled_kernel_image(source, "cached", "sm_90"), image);
  unsetenv("USE_PYTORCH_KERNEL_CACHE");
  unsetenv("PYTORCH_KERNEL_CACHE_PATH");
}

}  // namespace
}  // namespace kiln::cuda
