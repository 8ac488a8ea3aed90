#include "libcompiler/repro/input_reader.h"

#include <cstring>
#include <set>

#include "libcompiler/ops/ops.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/tensor_object.h"
#include "libcompiler/repro/content_store.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/random_ops.h"
#include "libdiag/log/logger.h"

namespace kiln::repro {

using namespace python;
using tensor::DType;

namespace {

struct StorageObject : NativeObject {
  StorageObject(TypeObject* type, tensor::Storage s) : NativeObject(type), storage(std::move(s)) {}
  tensor::Storage storage;
};

struct ReaderObject : NativeObject {
  explicit ReaderObject(TypeObject* type) : NativeObject(type) {}
  std::optional<std::filesystem::path> save_dir;
  std::shared_ptr<ListObject> args = std::static_pointer_cast<ListObject>(py_list());
  std::set<std::string> warned;
};

tensor::Shape shape_of(Interpreter& interp, const Ref& value) {
  tensor::Shape shape;
  for (const Ref& item : to_vector(interp, value)) shape.push_back(to_index(interp, item));
  return shape;
}

Ref storage_method(Interpreter& interp, CallArgs& c);
Ref tensor_method(Interpreter& interp, CallArgs& c);

struct ReaderTypes {
  TypeObject* reader;
  TypeObject* storage;
};

const ReaderTypes& reader_types() {
  static const ReaderTypes types = [] {
    ReaderTypes t{make_builtin_type("InputReader", {}, "torch._dynamo.debug_utils"),
                  make_builtin_type("UntypedStorage", {}, "torch")};
    add_method(t.reader, "storage", storage_method);
    add_method(t.reader, "tensor", tensor_method);
    add_method(t.reader, "symint", [](Interpreter&, CallArgs& c) {
      auto a = bind_native("symint", c, {{"self"}, {"val"}});
      static_cast<ReaderObject&>(*a[0]).args->items.push_back(a[1]);
      return a[1];
    });
    add_getter(t.reader, "args", [](Interpreter&, const Ref& self) -> Ref { return static_cast<ReaderObject&>(*self).args; });
    add_method(t.storage, "nbytes", [](Interpreter&, CallArgs& c) {
      return py_int(int64_t(static_cast<StorageObject&>(*c.args.at(0)).storage.nbytes()));
    });
    return t;
  }();
  return types;
}

Ref storage_method(Interpreter& interp, CallArgs& c) {
  auto a = bind_native("storage", c, {{"self"}, {"storage_hash"}, {"nbytes"}, {"device", false}, {"dtype_hint", false}});
  auto& reader = static_cast<ReaderObject&>(*a[0]);
  const int64_t nbytes = to_index(interp, a[2]);
  const tensor::Device device = a[3] && !is_none(a[3]) ? to_device(a[3]) : tensor::kCPU;
  const DType dtype = a[4] && !is_none(a[4]) ? to_dtype(a[4]) : DType::Float32;
  if (!is_none(a[1]) && reader.save_dir) {
    const std::string hash = to_str(a[1], "storage_hash");
    if (std::optional<std::string> bytes = read_storage(*reader.save_dir, hash)) {
      tensor::Storage storage = tensor::Storage::allocate(bytes->size(), tensor::kCPU);
      std::memcpy(storage.data(), bytes->data(), bytes->size());
      return std::make_shared<StorageObject>(reader_types().storage, tensor::storage_on(storage, device));
    }
    if (reader.warned.insert(hash).second)
      log::emit(log::Component::dynamo, log::Level::Warning, {"torch/_dynamo/debug_utils.py", 626}, "",
                "could not load " + hash + ", generating random data instead");
  }
  const int64_t elements = nbytes / int64_t(tensor::itemsize(dtype));
  return std::make_shared<StorageObject>(reader_types().storage, rand_strided({elements}, {1}, dtype, device).storage());
}

Ref tensor_method(Interpreter& interp, CallArgs& c) {
  auto a = bind_native("tensor", c,
                       {{"self"}, {"storage"}, {"shape"}, {"stride", false}, {"storage_offset", false}, {"dtype", false},
                        {"requires_grad", false}, {"is_leaf", false}});
  auto& reader = static_cast<ReaderObject&>(*a[0]);
  if (a[1]->type != reader_types().storage) raise_error(ExcType::TypeError, "reader.tensor() takes a storage made by reader.storage()");
  const tensor::Storage& storage = static_cast<StorageObject&>(*a[1]).storage;
  const tensor::Shape sizes = shape_of(interp, a[2]);
  const tensor::Shape strides = a[3] && !is_none(a[3]) ? shape_of(interp, a[3]) : tensor::contiguous_strides(sizes);
  const int64_t offset = a[4] && !is_none(a[4]) ? to_index(interp, a[4]) : 0;
  const DType dtype = a[5] && !is_none(a[5]) ? to_dtype(a[5]) : DType::Float32;
  tensor::Tensor t(std::make_shared<tensor::TensorImpl>(tensor::TensorImpl{storage, sizes, strides, offset, dtype}));
  if (a[6] && truthy(interp, a[6])) t.set_requires_grad(true);
  Ref value = wrap_tensor(t);
  reader.args->items.push_back(value);
  return value;
}

}  // namespace

Ref make_input_reader(std::optional<std::filesystem::path> save_dir) {
  auto reader = std::make_shared<ReaderObject>(reader_types().reader);
  reader->save_dir = std::move(save_dir);
  return reader;
}

std::vector<ops::IValue> reader_inputs(Interpreter& interp, const Ref& reader) {
  std::vector<ops::IValue> inputs;
  for (const Ref& value : static_cast<ReaderObject&>(*reader).args->items) inputs.push_back(to_ivalue(interp, value));
  return inputs;
}

tensor::Tensor rand_strided(const tensor::Shape& sizes, const tensor::Shape& strides, DType dtype, const tensor::Device& device) {
  int64_t needed = 1;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 0) {
      needed = 0;
      break;
    }
    needed += (sizes[d] - 1) * strides[d];
  }
  // Drawn on the CPU (kiln's CUDA random numbers are the CPU generator's), then placed.
  tensor::Tensor buffer = tensor::is_floating_point(dtype) ? tensor::randn({needed}, dtype) : ops::zeros({needed}, dtype);
  return tensor::Tensor(std::make_shared<tensor::TensorImpl>(tensor::TensorImpl{tensor::storage_on(buffer.storage(), device), sizes, strides, 0, dtype}));
}

}  // namespace kiln::repro
