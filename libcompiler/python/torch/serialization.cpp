#include "libcompiler/python/torch/serialization.h"

#include <cstring>
#include <filesystem>
#include <map>
#include <random>
#include <stdexcept>

#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/checkpoint_archive.h"
#include "libcompiler/tensor/copy.h"
#include "libcompiler/python/torch/pickle_reader.h"
#include "libcompiler/python/torch/pickle_writer.h"
#include "libcompiler/python/torch/tensor_methods.h"
#include "libcompiler/python/torch/tensor_object.h"

namespace kiln::python {

namespace {

using tensor::DType;

std::string storage_class_name(DType dtype) { return std::string(tensor::scalar_type_name(dtype)) + "Storage"; }

std::optional<DType> dtype_of_storage_class(const std::string& name) {
  static const std::string kSuffix = "Storage";
  if (name.size() <= kSuffix.size() || name.compare(name.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0)
    return std::nullopt;
  std::string scalar = name.substr(0, name.size() - kSuffix.size());
  for (int i = 0; i < tensor::kNumDTypes; ++i)
    if (tensor::scalar_type_name(static_cast<DType>(i)) == scalar) return static_cast<DType>(i);
  return std::nullopt;
}

bool is_ordered_dict(const Ref& value) {
  return value->kind == ObjectKind::Instance && value->type->qualified_name() == "collections.OrderedDict";
}

// The pickle of `obj` and the storages its tensors use, keyed "0", "1", ... in first-use order.
class CheckpointWriter {
 public:
  explicit CheckpointWriter(Interpreter& interp)
      : interp_(interp), pickler_([this](PickleWriter& w, const Ref& value) { return save_special(w, value); }) {}

  std::string pickle(const Ref& obj) { return pickler_.dump(obj); }
  const std::vector<tensor::Tensor>& storages() const { return storages_; }

 private:
  void save_empty_ordered_dict(PickleWriter& w) {
    w.global("collections", "OrderedDict");
    w.empty_tuple();
    w.reduce();
  }

  // torch._utils._rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks).
  void save_tensor(PickleWriter& w, const tensor::Tensor& t, bool requires_grad) {
    w.global("torch._utils", "_rebuild_tensor_v2");
    w.mark();
    w.mark();
    w.save(py_str("storage"));
    w.global("torch", storage_class_name(t.dtype()));
    w.save(py_str(storage_key(t)));
    w.save(py_str(t.device().str()));  // where torch.load puts it back
    w.save(py_int(static_cast<int64_t>(t.storage().nbytes() / t.itemsize())));
    w.tuple_from_mark();
    w.persistent_id();
    w.save(py_int(t.storage_offset()));
    std::vector<Ref> sizes, strides;
    for (int64_t s : t.sizes()) sizes.push_back(py_int(s));
    for (int64_t s : t.strides()) strides.push_back(py_int(s));
    w.save(py_tuple(sizes));
    w.save(py_tuple(strides));
    w.save(py_bool(requires_grad));
    save_empty_ordered_dict(w);
    w.tuple_from_mark();
    w.reduce();
  }

  std::string storage_key(const tensor::Tensor& t) {
    for (size_t i = 0; i < storages_.size(); ++i)
      if (storages_[i].storage().is_alias_of(t.storage())) {
        if (storages_[i].dtype() != t.dtype())
          raise_error(ExcType::RuntimeError, "kiln's torch.save cannot save one storage viewed with two dtypes");
        return std::to_string(i);
      }
    storages_.push_back(t);
    return std::to_string(storages_.size() - 1);
  }

  bool save_special(PickleWriter& w, const Ref& value) {
    if (is_tensor(value)) {
      const tensor::Tensor& t = to_tensor(value, "obj");
      if (t.device().type != tensor::DeviceType::CPU) raise_error(ExcType::NotImplementedError, "kiln's torch.save saves CPU tensors only");
      if (w.get_memoized(t.impl())) return true;
      if (value->type->is_subtype_of(torch_types().parameter)) {
        // _rebuild_parameter(data, requires_grad, hooks)
        w.global("torch._utils", "_rebuild_parameter");
        save_tensor(w, t, false);
        w.save(py_bool(t.requires_grad()));
        save_empty_ordered_dict(w);
        w.small_tuple(3);
        w.reduce();
      } else {
        save_tensor(w, t, t.requires_grad());
      }
      w.memoize(t.impl(), value);
      return true;
    }
    if (value->type == torch_types().dtype) {
      w.global("torch", tensor::dtype_name(to_dtype(value)).data());
      return true;
    }
    if (value->type == torch_types().size) {
      w.global("torch", "Size");
      w.save(py_tuple({py_tuple(to_vector(interp_, value))}));
      w.reduce();
      return true;
    }
    if (is_ordered_dict(value)) {
      save_empty_ordered_dict(w);
      w.memoize(value.get(), value);
      w.set_items(*mapping_items(interp_, value));
      auto state = py_dict();
      for (const auto& [name, attribute] : as<InstanceObject>(value).dict)
        if (name != "_data") state->set(name, attribute);
      if (state->size()) {
        w.save(state);
        w.build();
      }
      return true;
    }
    return false;
  }

  Interpreter& interp_;
  PickleWriter pickler_;
  std::vector<tensor::Tensor> storages_;
};

std::string serialization_id() {
  std::random_device device;
  std::string id;
  while (id.size() < 40) id += std::to_string(device() % 10);
  return id;
}

// The records of a checkpoint holding `pickle` and the storages it refers to by key 0, 1, ...,
// in the order PyTorch writes them; the archive folder is named after the file, as PyTorch's.
void write_checkpoint(const std::string& path, std::string pickle, const std::vector<std::string_view>& storages) {
  std::string archive = std::filesystem::path(path).stem().string();
  if (archive.empty()) archive = "archive";
  std::vector<std::pair<std::string, std::string>> records = {
      {archive + "/data.pkl", std::move(pickle)},
      {archive + "/.format_version", "1"},
      {archive + "/.storage_alignment", "64"},
      {archive + "/byteorder", "little"},
  };
  for (size_t i = 0; i < storages.size(); ++i) records.emplace_back(archive + "/data/" + std::to_string(i), std::string(storages[i]));
  records.emplace_back(archive + "/version", "3\n");
  records.emplace_back(archive + "/.data/serialization_id", serialization_id());
  write_checkpoint_archive(path, records);
}

void save_checkpoint(Interpreter& interp, const Ref& obj, const std::string& path) {
  CheckpointWriter writer(interp);
  std::string pickle = writer.pickle(obj);
  std::vector<std::string> bytes;
  for (const tensor::Tensor& t : writer.storages()) bytes.push_back(tensor::host_bytes(t.storage()));
  std::vector<std::string_view> storages(bytes.begin(), bytes.end());
  write_checkpoint(path, std::move(pickle), storages);
}

// The unpickling side: the globals torch.load allows (its weights-only set, as far as kiln has
// the types) and the storages data.pkl refers to, each read once from its record.
class CheckpointReader {
 public:
  CheckpointReader(Interpreter& interp, const std::string& path, bool weights_only)
      : interp_(interp), archive_(path), weights_only_(weights_only) {}

  Ref load() {
    std::optional<std::string> pickle = archive_.read("data.pkl");
    if (!pickle) raise_error(ExcType::RuntimeError, "PytorchStreamReader failed locating file data.pkl: file not found");
    PickleHooks hooks{
        [this](const std::string& module, const std::string& name) { return find_global(module, name); },
        [this](const Ref& id) { return persistent_load(id); },
        [this](const std::string& message) { unpickling_error(message); },
    };
    return unpickle(interp_, *pickle, hooks);
  }

 private:
  [[noreturn]] void unpickling_error(const std::string& message) {
    Ref error_class = getattr(interp_, interp_.import_module("pickle"), "UnpicklingError");
    throw PyException(call(interp_, error_class, std::vector<Ref>{py_str(message)}));
  }

  Ref torch_attribute(const std::string& name) { return getattr(interp_, interp_.import_module("torch"), name); }

  Ref find_global(const std::string& module, const std::string& name) {
    if (module == "collections" && name == "OrderedDict")
      return getattr(interp_, interp_.import_module("collections"), "OrderedDict");
    if (module == "torch._utils" && name == "_rebuild_tensor_v2")
      return native_function(name, [this](Interpreter&, CallArgs& c) { return rebuild_tensor(c); });
    if (module == "torch._utils" && (name == "_rebuild_parameter" || name == "_rebuild_parameter_with_state"))
      return native_function(name, [this](Interpreter& ip, CallArgs& c) {
        if (c.args.size() < 2) unpickling_error("_rebuild_parameter takes data and requires_grad");
        return call(ip, getattr(ip, torch_attribute("nn"), "Parameter"), std::vector<Ref>{c.args[0], c.args[1]});
      });
    if (module == "torch") {
      if (dtype_of_storage_class(name)) return make_dtype(*dtype_of_storage_class(name));
      if (auto dtype = tensor::dtype_from_name(name); dtype && tensor::dtype_name(*dtype) == name) return make_dtype(*dtype);
      if (name == "device" || name == "Size") return torch_attribute(name);
    }
    if ((module == "builtins" || module == "__builtin__") && name == "set")
      return interp_.builtins().get("set");
    if (!weights_only_) {
      // weights_only=False trusts the file: any importable global.
      Ref found = getattr(interp_, interp_.import_module(module), name);
      return found;
    }
    unpickling_error("Weights only load failed. kiln loads the types PyTorch's weights-only unpickler allows "
                     "(tensors, parameters, dtypes, devices, OrderedDicts and plain Python values).\n"
                     "\tWeightsUnpickler error: Unsupported global: GLOBAL " + module + "." + name +
                     " was not an allowed global by default.");
  }

  // ('storage', storage class, key, location, numel): the storage as a flat tensor of its dtype.
  Ref persistent_load(const Ref& id) {
    if (id->kind != ObjectKind::Tuple || as<TupleObject>(id).items.size() != 5)
      unpickling_error("persistent id is not ('storage', type, key, location, numel)");
    const auto& fields = as<TupleObject>(id).items;
    if (fields[0]->kind != ObjectKind::Str || as<StrObject>(fields[0]).value != "storage" ||
        fields[1]->type != torch_types().dtype)
      unpickling_error("Unknown typename for persistent_load, expected 'storage'");
    const std::string& key = to_str(fields[2], "storage key");
    if (auto found = storages_.find(key); found != storages_.end()) return found->second;
    DType dtype = to_dtype(fields[1]);
    int64_t numel = to_index(interp_, fields[4], "numel");
    std::optional<std::string> bytes = archive_.read("data/" + key);
    if (!bytes) raise_error(ExcType::RuntimeError, "PytorchStreamReader failed locating file data/" + key + ": file not found");
    if (numel < 0 || bytes->size() != static_cast<size_t>(numel) * tensor::itemsize(dtype))
      raise_error(ExcType::RuntimeError, "storage data/" + key + " holds " + std::to_string(bytes->size()) +
                                             " bytes where " + std::to_string(numel) + " elements of " +
                                             tensor::torch_name(dtype) + " were expected: the checkpoint is corrupted");
    tensor::Tensor flat = tensor::Tensor::empty({numel}, dtype);
    if (!bytes->empty()) std::memcpy(flat.data_ptr(), bytes->data(), bytes->size());
    Ref storage = wrap_tensor(flat);
    storages_.emplace(key, storage);
    return storage;
  }

  // _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks[, metadata])
  Ref rebuild_tensor(CallArgs& c) {
    if (c.args.size() < 5) unpickling_error("_rebuild_tensor_v2 takes at least 5 arguments");
    if (!is_tensor(c.args[0])) unpickling_error("_rebuild_tensor_v2 expects a storage");
    const tensor::Tensor& flat = to_tensor(c.args[0], "storage");
    auto impl = std::make_shared<tensor::TensorImpl>();
    impl->storage = flat.storage();
    impl->dtype = flat.dtype();
    impl->storage_offset = to_index(interp_, c.args[1], "storage_offset");
    for (const Ref& s : to_vector(interp_, c.args[2])) impl->sizes.push_back(to_index(interp_, s, "size"));
    for (const Ref& s : to_vector(interp_, c.args[3])) impl->strides.push_back(to_index(interp_, s, "stride"));
    if (impl->sizes.size() != impl->strides.size()) unpickling_error("_rebuild_tensor_v2: sizes and strides differ in length");
    int64_t last = impl->storage_offset;
    bool empty = false;
    for (size_t d = 0; d < impl->sizes.size(); ++d) {
      if (impl->sizes[d] < 0 || impl->strides[d] < 0) unpickling_error("_rebuild_tensor_v2: negative size or stride");
      if (impl->sizes[d] == 0) empty = true;
      else last += (impl->sizes[d] - 1) * impl->strides[d];
    }
    if (impl->storage_offset < 0 || (!empty && last >= flat.numel()))
      raise_error(ExcType::RuntimeError, "a tensor of the checkpoint reaches past its storage: the checkpoint is corrupted");
    tensor::Tensor t(impl);
    if (truthy(interp_, c.args[4])) t.set_requires_grad(true);
    return wrap_tensor(t);
  }

  Interpreter& interp_;
  CheckpointArchiveReader archive_;
  bool weights_only_;
  std::map<std::string, Ref> storages_;
};

Ref load_checkpoint(Interpreter& interp, const std::string& path, bool weights_only) {
  if (!std::filesystem::exists(path))
    raise_os_error(ENOENT, path);
  if (!is_zip_file(path))
    raise_error(ExcType::RuntimeError, "kiln's torch.load reads PyTorch's zip checkpoints (torch.save since PyTorch 1.6); '" +
                                           path + "' is not a zip archive");
  try {
    return CheckpointReader(interp, path, weights_only).load();
  } catch (const std::runtime_error& error) {
    raise_error(ExcType::RuntimeError, error.what());
  }
}

}  // namespace

void install_serialization(ModuleObject& torch) {
  torch.globals->set("_save_checkpoint", native_function("_save_checkpoint", torch_guard([](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("_save_checkpoint", c, {{"obj"}, {"path"}});
    try {
      save_checkpoint(ip, a[0], to_str(a[1], "path"));
    } catch (const std::runtime_error& error) {
      raise_error(ExcType::RuntimeError, error.what());
    }
    return none();
  })));
  torch.globals->set("_load_checkpoint", native_function("_load_checkpoint", torch_guard([](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("_load_checkpoint", c, {{"path"}, {"weights_only"}});
    return load_checkpoint(ip, to_str(a[0], "path"), truthy(ip, a[1]));
  })));
}

void save_untyped_storage(const std::string& path, std::string_view bytes, const std::string& location) {
  // data.pkl is the storage itself: the persistent id ('storage', torch.storage.UntypedStorage,
  // key, location, byte count) that torch.load turns into the storage of record data/0.
  const Ref self_marker = py_tuple({});  // stands for the storage; written by the hook
  PickleWriter pickler([&](PickleWriter& w, const Ref& value) {
    if (value != self_marker) return false;
    w.mark();
    w.save(py_str("storage"));
    w.global("torch.storage", "UntypedStorage");
    w.save(py_str("0"));
    w.save(py_str(location));
    w.save(py_int(static_cast<int64_t>(bytes.size())));
    w.tuple_from_mark();
    w.persistent_id();
    return true;
  });
  write_checkpoint(path, pickler.dump(self_marker), {bytes});
}

std::optional<std::string> load_untyped_storage(const std::string& path) {
  if (!std::filesystem::exists(path) || !is_zip_file(path)) return std::nullopt;
  // A content store's file holds one storage: its bytes are record data/0, whatever dtype or
  // device torch.save recorded for it.
  return CheckpointArchiveReader(path).read("data/0");
}

}  // namespace kiln::python
