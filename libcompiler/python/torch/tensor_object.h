#pragma once
// The Python face of the tensor runtime: Tensor (and nn.Parameter) objects, torch.Size,
// torch.dtype and torch.device, and the conversions between Python values and the op table's
// IValues. Functions here may throw tensor::TorchError; natives wrap them with torch_guard.
#include <span>
#include <string_view>

#include "libcompiler/ops/ivalue.h"
#include "libcompiler/ops/op_table.h"
#include "libcompiler/python/interp/object.h"
#include "libcompiler/tensor/memory_format.h"
#include "libcompiler/tensor/tensor.h"

namespace kiln::python {

// What graph capture attaches to the fake tensors it traces with: a fake is a meta tensor that
// stands for a tensor on `device` (capture/ derives from this to add the graph node).
struct TensorProxy {
  explicit TensorProxy(tensor::Device device) : device(std::move(device)) {}
  virtual ~TensorProxy() = default;
  tensor::Device device;
};

struct TensorObject : NativeObject {
  TensorObject(TypeObject* type, tensor::Tensor t) : NativeObject(type), value(std::move(t)) {}
  tensor::Tensor value;
  std::shared_ptr<TensorProxy> proxy;  // set on the fake tensors of graph capture
  // The device Python code sees (a fake's meta tensor stands for one on another device).
  tensor::Device device() const { return proxy ? proxy->device : value.device(); }
};

struct TorchTypes {
  TypeObject* tensor;
  TypeObject* parameter;
  TypeObject* size;
  TypeObject* dtype;
  TypeObject* device;
  // torch.layout (torch.strided) and torch.memory_format (torch.contiguous_format, ...): named
  // values that ops take by their qualified names.
  TypeObject* layout;
  TypeObject* memory_format;
};
const TorchTypes& torch_types();

// The one Python object of a tensor (as in PyTorch, the same TensorImpl is always the same
// object, so `is` and dict keys behave); undefined tensors are None.
Ref wrap_tensor(const tensor::Tensor& t);
Ref make_parameter(const tensor::Tensor& t);
// A fake: a meta tensor of this geometry (no data) that stands, through `proxy`, for a tensor on
// the proxy's device. A null proxy leaves a bare meta tensor that capture attaches a node to later.
Ref make_fake_tensor(const tensor::Shape& sizes, const tensor::Shape& strides, tensor::DType dtype,
                     std::shared_ptr<TensorProxy> proxy);
bool is_tensor(const Ref& value);
// TypeError naming `what` unless value is a Tensor.
const tensor::Tensor& to_tensor(const Ref& value, const char* what);

Ref make_size(const tensor::Shape& sizes);
Ref make_dtype(tensor::DType dtype);
Ref make_device(const tensor::Device& device);
// The one object of a layout or memory format of that type, by its qualified name
// ("torch.contiguous_format"); ops receive the name.
Ref torch_named_value(TypeObject* type, const std::string& qualified_name);
tensor::DType to_dtype(const Ref& value);
tensor::Device to_device(const Ref& value);  // a torch.device or a string
// TypeError "is_contiguous(): argument 'memory_format' must be torch.memory_format, not int"
// (`function` named) for anything else.
tensor::MemoryFormat to_memory_format(const Ref& value, const char* function);

ops::IValue to_ivalue(Interpreter& interp, const Ref& value);
Ref from_scalar(const tensor::Scalar& value);

// Calls the op table by name with Python arguments (overload resolution as PyTorch's Python
// binding does it); one result is returned bare, several as a tuple.
Ref call_op(Interpreter& interp, const std::string& name, const std::vector<Ref>& args,
            const std::vector<std::pair<std::string, Ref>>& kwargs);
// The same with the name's overloads (ops::overloads_of(name)) looked up already: Tensor's methods
// and operators and torch.<op> look theirs up once, not on every call.
Ref call_op(Interpreter& interp, std::string_view name, const std::vector<const ops::OpInfo*>& overloads,
            std::span<const Ref> args, const std::vector<std::pair<std::string, Ref>>& kwargs);
// Calls exactly this overload (torch.ops.aten.add.Tensor), its arguments bound to its schema.
Ref call_overload(Interpreter& interp, const ops::OpInfo& op, const std::vector<Ref>& args,
                  const std::vector<std::pair<std::string, Ref>>& kwargs);

}  // namespace kiln::python
