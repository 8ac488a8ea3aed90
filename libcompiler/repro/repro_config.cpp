#include "libcompiler/repro/repro_config.h"

#include "libcompiler/python/interp/protocols.h"

namespace kiln::repro {

using namespace python;

namespace {

int& suspensions() {
  static int count = 0;
  return count;
}

}  // namespace

ReproConfig read_repro_config(Interpreter& interp) {
  ReproConfig config;
  Ref module = interp.import_module("torch._dynamo.config");
  auto read = [&](const char* name) { return try_getattr(interp, module, name); };
  if (Ref after = read("repro_after"); after && !is_none(after)) {
    const std::string value = after->kind == ObjectKind::Str ? as<StrObject>(after).value : repr(interp, after);
    if (value == "dynamo") config.after = ReproAfter::Dynamo;
    else if (value == "aot") config.after = ReproAfter::Aot;
    else raise_error(ExcType::ValueError, "torch._dynamo.config.repro_after must be None, 'dynamo' or 'aot', not " + repr(interp, after));
  }
  if (Ref level = read("repro_level")) {
    config.level = int(to_index(interp, level));
    if (config.level < 1 || config.level > 4)
      raise_error(ExcType::ValueError, "torch._dynamo.config.repro_level must be 1, 2, 3 or 4, not " + std::to_string(config.level));
  }
  if (Ref v = read("repro_forward_only")) config.forward_only = truthy(interp, v);
  if (Ref v = read("repro_ignore_non_fp")) config.ignore_non_fp = truthy(interp, v);
  if (Ref v = read("repro_tolerance")) config.tolerance = to_double(interp, v);
  if (Ref v = read("same_two_models_use_fp64")) config.use_fp64 = truthy(interp, v);
  return config;
}

SuspendReproWrappers::SuspendReproWrappers() { ++suspensions(); }
SuspendReproWrappers::~SuspendReproWrappers() { --suspensions(); }
bool SuspendReproWrappers::active() { return suspensions() > 0; }

}  // namespace kiln::repro
