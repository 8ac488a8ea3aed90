#include "libcompiler/tensor/memory_format.h"

#include <string>

#include "libcompiler/tensor/torch_error.h"

namespace kiln::tensor {

MemoryFormat memory_format_named(std::string_view name) {
  // Values say "torch.channels_last"; a schema's default says "contiguous_format".
  const std::string_view bare = name.starts_with("torch.") ? name.substr(6) : name;
  if (bare == "contiguous_format") return MemoryFormat::Contiguous;
  if (bare == "channels_last") return MemoryFormat::ChannelsLast;
  if (bare == "channels_last_3d") return MemoryFormat::ChannelsLast3d;
  if (bare == "preserve_format") return MemoryFormat::Preserve;
  throw_runtime_error("unknown memory format " + std::string(name));
}

void check_memory_format_rank(size_t rank, MemoryFormat format) {
  const bool three_d = format == MemoryFormat::ChannelsLast3d;
  if (rank != (three_d ? 5u : 4u))
    throw_runtime_error(three_d ? "required rank 5 tensor to use channels_last_3d format" : "required rank 4 tensor to use channels_last format");
}

MemoryFormat suggested_memory_format(const Shape& sizes, const Shape& strides) {
  const MemoryFormat candidate = sizes.size() == 4 ? MemoryFormat::ChannelsLast : MemoryFormat::ChannelsLast3d;
  const std::vector<size_t> order = sizes.size() == 4 || sizes.size() == 5 ? channels_last_order(candidate) : std::vector<size_t>{};
  // A trivial channel stride is taken as NCHW.
  if (order.empty() || strides[1] == 0) return MemoryFormat::Contiguous;
  int64_t least = 0;
  for (size_t d : order) {
    if (sizes[d] == 0 || strides[d] < least) return MemoryFormat::Contiguous;
    // N111 with equal strides is ambiguous: NCHW.
    if (d == 0 && least == strides[1]) return MemoryFormat::Contiguous;
    least = strides[d] * (sizes[d] > 1 ? sizes[d] : 1);
  }
  return candidate;
}

}  // namespace kiln::tensor
