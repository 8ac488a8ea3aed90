#pragma once
// Tensor.__getitem__ and __setitem__: basic indexing (ints, slices, None, Ellipsis) as views, and
// advanced indexing (integer tensors and lists, boolean masks) as PyTorch's index and index_put_
// compute it, in table ops so that autograd and capture record them.
#include "libcompiler/python/interp/object.h"
#include "libcompiler/tensor/tensor.h"

namespace kiln::python {

tensor::Tensor index_tensor(Interpreter& ip, const tensor::Tensor& self, const Ref& key);
void assign_index(Interpreter& ip, const tensor::Tensor& self, const Ref& key, const Ref& value);
// Tensor.index_put_(indices, values, accumulate): indices a tuple of index tensors (masks allowed).
void index_put(Interpreter& ip, const tensor::Tensor& self, const Ref& indices, const Ref& values, bool accumulate);

}  // namespace kiln::python
