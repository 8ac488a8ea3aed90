#pragma once
// torch.memory_format: the dense layouts PyTorch names for a tensor of sizes N, C, spatial...:
// contiguous_format (row-major), channels_last (4-d, C innermost: NHWC in memory) and
// channels_last_3d (5-d, NDHWC), and preserve_format (keep the input's layout), with c10's
// strides and contiguity tests, once for every size type (int64 in tensors, symbolic in meta
// functions).
#include <optional>
#include <string_view>
#include <vector>

#include "libcompiler/tensor/size_traits.h"
#include "libcompiler/tensor/view_geometry.h"

namespace kiln::tensor {

enum class MemoryFormat { Contiguous, ChannelsLast, ChannelsLast3d, Preserve };

// From the spelling Python values carry ("torch.channels_last") or a schema's default
// ("contiguous_format"); RuntimeError for a name that is none of the four.
MemoryFormat memory_format_named(std::string_view name);

// The dimensions of a channels-last layout from the innermost out (C, then the spatial ones from
// the last, then N); empty for the other formats.
inline std::vector<size_t> channels_last_order(MemoryFormat format) {
  if (format == MemoryFormat::ChannelsLast) return {1, 3, 2, 0};
  if (format == MemoryFormat::ChannelsLast3d) return {1, 4, 3, 2, 0};
  return {};
}

// RuntimeError "required rank 4 tensor to use channels_last format" (rank 5 for channels_last_3d).
void check_memory_format_rank(size_t rank, MemoryFormat format);

// Dense strides of `sizes` in `format` (not Preserve). c10's channels-last strides multiply the
// sizes as they are: a size-0 dimension zeroes the strides outside it.
template <typename Size>
std::vector<Size> memory_format_strides(const std::vector<Size>& sizes, MemoryFormat format) {
  const std::vector<size_t> order = channels_last_order(format);
  if (order.empty()) return row_major_strides(sizes);
  check_memory_format_rank(sizes.size(), format);
  std::vector<Size> strides(sizes.size());
  Size running = SizeTraits<Size>::constant(1);
  for (size_t d : order) {
    strides[d] = running;
    running = running * sizes[d];
  }
  return strides;
}

// c10's is_contiguous(memory_format): for channels-last, strides that walk the dimensions in its
// order, size-1 dimensions skipped (false for a tensor of another rank).
template <typename Size>
bool is_contiguous_in(const std::vector<Size>& sizes, const std::vector<Size>& strides, MemoryFormat format) {
  const std::vector<size_t> order = channels_last_order(format);
  if (order.empty()) return is_contiguous_layout(sizes, strides);
  if (sizes.size() != order.size()) return false;
  Size expected = SizeTraits<Size>::constant(1);
  for (size_t d : order) {
    if (size_is(sizes[d], 1)) continue;
    if (!SizeTraits<Size>::equal(strides[d], expected)) return false;
    expected = expected * sizes[d];
  }
  return true;
}

// c10's suggest_memory_format: channels_last (channels_last_3d) when a 4-d (5-d) tensor's strides
// order it so, ambiguous cases (size-1 or equal strides) counted as contiguous_format; else
// contiguous_format. Tensor.to(memory_format=) returns self when this is the format asked.
MemoryFormat suggested_memory_format(const Shape& sizes, const Shape& strides);

}  // namespace kiln::tensor
