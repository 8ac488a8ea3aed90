#include "libcompiler/python/torch/generator_object.h"

#include <memory>

#include "libcompiler/python/interp/builtin_setup.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/tensor_object.h"

namespace kiln::python {

namespace {

struct TorchGeneratorObject : NativeObject {
  explicit TorchGeneratorObject(TypeObject* type) : NativeObject(type), generator(std::make_unique<tensor::CpuGenerator>()) {}
  std::unique_ptr<tensor::CpuGenerator> generator;
};

TypeObject* type_object() {
  static TypeObject* type = [] {
    TypeObject* t = make_builtin_type("Generator", {}, "torch");
    t->constructor = [t](Interpreter& ip, CallArgs& c) -> Ref {
      auto a = bind_native("Generator", c, {{"device", false}});
      if (a[0] && !is_none(a[0]) && repr(ip, a[0]).find("cpu") == std::string::npos)
        raise_error(ExcType::RuntimeError, "kiln's torch.Generator is a CPU generator only");
      return std::make_shared<TorchGeneratorObject>(t);
    };
    add_method(t, "manual_seed", [](Interpreter& ip, CallArgs& c) {
      auto& self = static_cast<TorchGeneratorObject&>(*c.args.at(0));
      self.generator->manual_seed(static_cast<uint64_t>(to_index(ip, c.args.at(1))));
      return c.args[0];
    });
    add_method(t, "get_state", [](Interpreter&, CallArgs& c) {
      return wrap_tensor(static_cast<TorchGeneratorObject&>(*c.args.at(0)).generator->get_state());
    });
    add_method(t, "set_state", [](Interpreter&, CallArgs& c) {
      auto a = bind_native("set_state", c, {{"self"}, {"new_state"}});
      static_cast<TorchGeneratorObject&>(*a[0]).generator->set_state(to_tensor(a[1], "new_state"));
      return a[0];
    });
    add_method(t, "initial_seed", [](Interpreter&, CallArgs& c) {
      return py_int(static_cast<int64_t>(static_cast<TorchGeneratorObject&>(*c.args.at(0)).generator->initial_seed()));
    });
    add_getter(t, "device", [](Interpreter& ip, const Ref&) {
      return call(ip, getattr(ip, ip.import_module("torch"), "device"), std::vector<Ref>{py_str("cpu")});
    });
    return t;
  }();
  return type;
}

}  // namespace

Ref generator_type() { return builtin_type_ref(type_object()); }

tensor::CpuGenerator& generator_of(const Ref& value) {
  if (!value || is_none(value)) return tensor::default_cpu_generator();
  if (value->type != type_object()) raise_error(ExcType::TypeError, "generator must be a torch.Generator, not " + type_name(value));
  return *static_cast<TorchGeneratorObject&>(*value).generator;
}

}  // namespace kiln::python
