#pragma once
// What a repro's load_args is called with (PyTorch's InputReader, debug_tools.md §1.5):
// reader.storage(hash, nbytes, device=, dtype_hint=) loads a storage from the content store, or
// makes random data (rand_strided) when there is no store or the store lacks it;
// reader.tensor(storage, shape, stride=, storage_offset=, dtype=, requires_grad=, is_leaf=)
// views a storage; reader.symint(value) passes a number. The values land in reader.args.
#include <filesystem>
#include <optional>
#include <vector>

#include "libcompiler/ops/ivalue.h"
#include "libcompiler/python/interp/object.h"

namespace kiln::repro {

python::Ref make_input_reader(std::optional<std::filesystem::path> save_dir);
// What load_args gave the reader, in order.
std::vector<ops::IValue> reader_inputs(python::Interpreter& interp, const python::Ref& reader);

// torch._dynamo.testing.rand_strided: a strided view of a buffer just large enough for it,
// filled with randn for floating dtypes and zeros otherwise.
tensor::Tensor rand_strided(const tensor::Shape& sizes, const tensor::Shape& strides, tensor::DType dtype,
                            const tensor::Device& device);

}  // namespace kiln::repro
