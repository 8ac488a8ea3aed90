#pragma once
// The CUDA kernels of the op table's index-driven ops (gather, index_select, embedding, scatter,
// scatter_add, index_add, embedding_dense_backward), all one generated kernel (indexed_move.h);
// cases it does not take (0-d tensors, accumulating into half types, scale_grad_by_freq) run on
// the host as an op without a kernel does.
namespace kiln::cuda {

void register_indexing_kernels();

}  // namespace kiln::cuda
