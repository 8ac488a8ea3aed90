#include "libcompiler/capture/dynamo_config.h"

#include "libcompiler/python/interp/protocols.h"

namespace kiln::capture {

using namespace python;

DynamoConfig read_dynamo_config(Interpreter& interp) {
  DynamoConfig config;
  Ref module = interp.import_module("torch._dynamo.config");
  auto read = [&](const char* name) { return try_getattr(interp, module, name); };
  if (Ref v = read("cache_size_limit")) config.cache_size_limit = to_index(interp, v);
  if (Ref v = read("recompile_limit"); v && !is_none(v)) config.cache_size_limit = std::min(config.cache_size_limit, to_index(interp, v));
  if (Ref v = read("suppress_errors")) config.suppress_errors = truthy(interp, v);
  if (Ref v = read("capture_scalar_outputs")) config.capture_scalar_outputs = truthy(interp, v);
  if (Ref v = read("replay_record_enabled")) config.replay_record_enabled = truthy(interp, v);
  if (Ref v = read("automatic_dynamic_shapes")) config.automatic_dynamic_shapes = truthy(interp, v);
  if (Ref v = read("reorderable_logging_functions")) config.reorderable_logging_functions = to_vector(interp, v);
  return config;
}

}  // namespace kiln::capture
