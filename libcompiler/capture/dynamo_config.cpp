#include "libcompiler/capture/dynamo_config.h"

#include "libcompiler/python/interp/protocols.h"

namespace kiln::capture {

using namespace python;

DynamoConfig read_dynamo_config(Interpreter& interp) {
  DynamoConfig config;
  Ref module = interp.import_module("torch._dynamo.config");
  auto read = [&](const char* name) { return try_getattr(interp, module, name); };
  // PyTorch's names and their aliases are one setting: the one a script changed wins.
  auto read_limit = [&](const char* name, const char* alias, int64_t& limit) {
    const int64_t default_value = limit;
    for (const char* spelling : {alias, name})
      if (Ref v = read(spelling); v && !is_none(v) && to_index(interp, v) != default_value) limit = to_index(interp, v);
  };
  read_limit("recompile_limit", "cache_size_limit", config.recompile_limit);
  read_limit("accumulated_recompile_limit", "accumulated_cache_size_limit", config.accumulated_recompile_limit);
  if (Ref v = read("suppress_errors")) config.suppress_errors = truthy(interp, v);
  if (Ref v = read("error_on_recompile")) config.error_on_recompile = truthy(interp, v);
  if (Ref v = read("capture_scalar_outputs")) config.capture_scalar_outputs = truthy(interp, v);
  if (Ref v = read("replay_record_enabled")) config.replay_record_enabled = truthy(interp, v);
  if (Ref v = read("automatic_dynamic_shapes")) config.automatic_dynamic_shapes = truthy(interp, v);
  if (Ref v = read("reorderable_logging_functions")) config.reorderable_logging_functions = to_vector(interp, v);
  return config;
}

}  // namespace kiln::capture
