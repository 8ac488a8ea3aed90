#include "libcompiler/python/torch/cuda_functions.h"

#include <map>
#include <memory>

#include "libcompiler/cuda/runtime.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {

namespace {

int device_argument(Interpreter& ip, CallArgs& c, const char* function) {
  auto a = bind_native(function, c, {{"device", false}});
  return a[0] && !is_none(a[0]) ? static_cast<int>(to_index(ip, a[0])) : cuda::current_device();
}

// torch.cuda.Event objects hold a number; the events live here for the process (programs make few).
std::map<int64_t, std::unique_ptr<cuda::Event>>& events() {
  static std::map<int64_t, std::unique_ptr<cuda::Event>> instance;
  return instance;
}

cuda::Event& event_of(Interpreter& ip, const Ref& handle) {
  const auto found = events().find(to_index(ip, handle));
  if (found == events().end()) raise_error(ExcType::RuntimeError, "not a CUDA event of this process");
  return *found->second;
}

}  // namespace

std::vector<std::pair<std::string, NativeFn>> cuda_native_functions() {
  return {
      {"_cuda_compiled", [](Interpreter&, CallArgs&) { return py_bool(cuda::compiled_with_cuda()); }},
      {"_cuda_is_available", [](Interpreter&, CallArgs&) { return py_bool(cuda::is_available()); }},
      {"_cuda_device_count", [](Interpreter&, CallArgs&) { return py_int(cuda::device_count()); }},
      {"_cuda_init",
       [](Interpreter&, CallArgs&) {
         cuda::lazy_init();
         return none();
       }},
      {"_cuda_current_device", [](Interpreter&, CallArgs&) { return py_int(cuda::current_device()); }},
      {"_cuda_set_device",
       [](Interpreter& ip, CallArgs& c) {
         auto a = bind_native("set_device", c, {{"device"}});
         cuda::set_device(static_cast<int>(to_index(ip, a[0])));
         return none();
       }},
      {"_cuda_get_device_name", [](Interpreter& ip, CallArgs& c) { return py_str(cuda::device_name(device_argument(ip, c, "get_device_name"))); }},
      {"_cuda_get_device_capability",
       [](Interpreter& ip, CallArgs& c) {
         const auto [major, minor] = cuda::device_capability(device_argument(ip, c, "get_device_capability"));
         return py_tuple({py_int(major), py_int(minor)});
       }},
      {"_cuda_total_memory", [](Interpreter& ip, CallArgs& c) { return py_int(cuda::total_memory(device_argument(ip, c, "total_memory"))); }},
      {"_cuda_multi_processor_count",
       [](Interpreter& ip, CallArgs& c) { return py_int(cuda::multi_processor_count(device_argument(ip, c, "multi_processor_count"))); }},
      {"_cuda_synchronize",
       [](Interpreter& ip, CallArgs& c) {
         cuda::synchronize(device_argument(ip, c, "synchronize"));
         return none();
       }},
      // (allocated, max allocated, reserved, max reserved) in bytes.
      {"_cuda_memory_stats",
       [](Interpreter& ip, CallArgs& c) {
         const cuda::MemoryStats s = cuda::memory_stats(device_argument(ip, c, "memory_stats"));
         return py_tuple({py_int(s.allocated), py_int(s.max_allocated), py_int(s.reserved), py_int(s.max_reserved)});
       }},
      {"_cuda_reset_peak_memory_stats",
       [](Interpreter& ip, CallArgs& c) {
         cuda::reset_peak_memory_stats(device_argument(ip, c, "reset_peak_memory_stats"));
         return none();
       }},
      {"_cuda_manual_seed_all",
       [](Interpreter& ip, CallArgs& c) {
         auto a = bind_native("manual_seed_all", c, {{"seed"}});
         cuda::manual_seed_all(static_cast<uint64_t>(to_index(ip, a[0])));
         return none();
       }},
      {"_cuda_empty_cache",
       [](Interpreter&, CallArgs&) {
         cuda::empty_cache();
         return none();
       }},
      {"_cuda_event_create",
       [](Interpreter&, CallArgs&) {
         static int64_t next = 0;
         events().emplace(++next, std::make_unique<cuda::Event>());
         return py_int(next);
       }},
      {"_cuda_event_record",
       [](Interpreter& ip, CallArgs& c) {
         auto a = bind_native("record", c, {{"event"}});
         event_of(ip, a[0]).record();
         return none();
       }},
      {"_cuda_event_synchronize",
       [](Interpreter& ip, CallArgs& c) {
         auto a = bind_native("synchronize", c, {{"event"}});
         event_of(ip, a[0]).synchronize();
         return none();
       }},
      {"_cuda_event_elapsed_time",
       [](Interpreter& ip, CallArgs& c) {
         auto a = bind_native("elapsed_time", c, {{"start"}, {"end"}});
         return py_float(event_of(ip, a[0]).elapsed_time(event_of(ip, a[1])));
       }},
  };
}

}  // namespace kiln::python
