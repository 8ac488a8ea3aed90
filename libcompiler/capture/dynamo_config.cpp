#include "libcompiler/capture/dynamo_config.h"

#include "libcompiler/python/interp/protocols.h"

namespace kiln::capture {

using namespace python;

DynamoConfig read_dynamo_config(Interpreter& interp) {
  DynamoConfig config;
  Ref module = interp.import_module("torch._dynamo.config");
  auto read = [&](const char* name) { return try_getattr(interp, module, name); };
  // cache_size_limit and accumulated_cache_size_limit are these under their older names (the
  // config module's aliases), so these are all there is to read.
  if (Ref v = read("recompile_limit"); v && !is_none(v)) config.recompile_limit = to_index(interp, v);
  if (Ref v = read("accumulated_recompile_limit"); v && !is_none(v))
    config.accumulated_recompile_limit = to_index(interp, v);
  if (Ref v = read("suppress_errors")) config.suppress_errors = truthy(interp, v);
  if (Ref v = read("error_on_recompile")) config.error_on_recompile = truthy(interp, v);
  if (Ref v = read("capture_scalar_outputs")) config.capture_scalar_outputs = truthy(interp, v);
  if (Ref v = read("replay_record_enabled")) config.replay_record_enabled = truthy(interp, v);
  if (Ref v = read("automatic_dynamic_shapes")) config.automatic_dynamic_shapes = truthy(interp, v);
  if (Ref v = read("reorderable_logging_functions")) config.reorderable_logging_functions = to_vector(interp, v);
  return config;
}

}  // namespace kiln::capture
