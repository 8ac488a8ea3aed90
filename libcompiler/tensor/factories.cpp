#include "libcompiler/tensor/factories.h"

#include <cstring>

#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/dtype_dispatch.h"
#include "libcompiler/tensor/torch_error.h"
#include "libcompiler/tensor/type_promotion.h"

namespace kiln::tensor {

namespace {

DType inferred_dtype(const Scalar& value) {
  return value.is_floating() ? default_float_dtype() : value.dtype();
}

template <typename Value>
Tensor from_values(const std::vector<Value>& values, const Shape& sizes, DType dtype) {
  if (numel_of(sizes) != static_cast<int64_t>(values.size()))
    throw_runtime_error("shape '" + shape_str(sizes) + "' is invalid for input of size " +
                        std::to_string(values.size()));
  Tensor out = Tensor::empty(sizes, dtype);
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* data = out.data_ptr<T>();
    for (size_t i = 0; i < values.size(); ++i) data[i] = cast_scalar<T>(values[i]);
  });
  return out;
}

}  // namespace

Tensor full(const Shape& sizes, const Scalar& value, std::optional<DType> dtype) {
  Tensor out = Tensor::empty(sizes, dtype.value_or(inferred_dtype(value)));
  fill_elements(out, value);
  return out;
}

Tensor zeros(const Shape& sizes, DType dtype) { return full(sizes, Scalar(0), dtype); }
Tensor ones(const Shape& sizes, DType dtype) { return full(sizes, Scalar(1), dtype); }

Tensor arange(int64_t end, DType dtype) {
  std::vector<int64_t> values(end > 0 ? end : 0);
  for (int64_t i = 0; i < static_cast<int64_t>(values.size()); ++i) values[i] = i;
  return tensor_from_values(values, {static_cast<int64_t>(values.size())}, dtype);
}

Tensor scalar_tensor(const Scalar& value, std::optional<DType> dtype) { return full({}, value, dtype); }

Tensor wrapped_number(const Scalar& value) {
  Tensor out = full({}, value, value.dtype());
  out.set_wrapped_number(true);
  return out;
}

Tensor tensor_from_values(const std::vector<double>& values, const Shape& sizes, DType dtype) {
  return from_values(values, sizes, dtype);
}

Tensor tensor_from_values(const std::vector<int64_t>& values, const Shape& sizes, DType dtype) {
  return from_values(values, sizes, dtype);
}

Scalar item(const Tensor& self) {
  if (self.numel() != 1)
    throw_runtime_error("a Tensor with " + std::to_string(self.numel()) + " elements cannot be converted to Scalar");
  if (self.device().type == DeviceType::Meta) throw_runtime_error("Tensor.item() cannot be called on meta tensors");
  const Tensor host = to_host(self);
  return visit_dtype(self.dtype(), [&](auto tag) -> Scalar {
    using T = typename decltype(tag)::type;
    T value;
    std::memcpy(&value, host.data_ptr(), sizeof(T));
    if constexpr (std::is_same_v<T, bool>) return Scalar(value);
    else if constexpr (kIsFloatLike<T>) return Scalar(cast_scalar<double>(value));
    else return Scalar(static_cast<int64_t>(value));
  });
}

}  // namespace kiln::tensor
