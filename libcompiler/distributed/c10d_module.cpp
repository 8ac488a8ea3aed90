#include "libcompiler/distributed/c10d_module.h"

#include <cmath>
#include <csignal>
#include <cstring>
#include <ctime>

#include "libcompiler/distributed/bucket_assignment.h"
#include "libcompiler/distributed/ddp_optimizer.h"
#include "libcompiler/distributed/dist_error.h"
#include "libcompiler/distributed/process_group.h"
#include "libcompiler/distributed/tcp_store.h"
#include "libcompiler/distributed/unused_parameters.h"
#include "libcompiler/distributed/worker_group.h"
#include "libcompiler/python/interp/bytes_object.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/tensor_methods.h"
#include "libcompiler/python/torch/tensor_object.h"
#include "libdiag/log/logger.h"
#include "libdiag/trace/trace_writer.h"

namespace kiln::distributed {

using namespace python;

namespace {

// DistError's kinds as the torch.distributed classes (defined in Python) PyTorch raises.
[[noreturn]] void raise_dist_error(Interpreter& ip, const DistError& error) {
  static const char* const classes[] = {"DistStoreError", "DistNetworkError"};
  Ref cls = getattr(ip, ip.import_module("torch.distributed"), classes[static_cast<int>(error.kind)]);
  throw PyException(call(ip, cls, std::vector<Ref>{py_str(error.what())}));
}

NativeFn dist_guard(NativeFn fn) {
  return [fn = torch_guard(std::move(fn))](Interpreter& ip, CallArgs& c) -> Ref {
    try {
      return fn(ip, c);
    } catch (const DistError& error) {
      raise_dist_error(ip, error);
    }
  };
}

void method(TypeObject* type, const char* name, NativeFn fn) { add_method(type, name, dist_guard(std::move(fn))); }

// A timeout as scripts give it: a datetime.timedelta, or seconds.
std::chrono::milliseconds timeout_of(Interpreter& ip, const Ref& value) {
  const Ref seconds = is_none(value)          ? py_float(300)
                      : getattr_or_null(ip, value, "total_seconds") ? call(ip, getattr(ip, value, "total_seconds"), std::vector<Ref>{})
                                                                    : value;
  return std::chrono::milliseconds(static_cast<int64_t>(std::llround(to_double(ip, seconds) * 1000)));
}

std::vector<tensor::Tensor> tensors_of(Interpreter& ip, const Ref& list, const char* what) {
  std::vector<tensor::Tensor> tensors;
  if (is_none(list)) return tensors;
  for (const Ref& item : to_vector(ip, list)) tensors.push_back(to_tensor(item, what));
  return tensors;
}

std::string bytes_or_str(const Ref& value) {
  if (is_bytes(value)) return bytes_data(value);
  return to_str(value, "value");
}

// "2026-11-28_19:49:54": a failure's time in the launcher's summary (datetime.isoformat(sep="_")).
std::string local_time_text(std::chrono::system_clock::time_point time) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
  std::tm local{};
  ::localtime_r(&seconds, &local);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d_%H:%M:%S", &local);
  return text;
}

// "SIGTERM" for a worker a signal ended (exitcode -15), as Python's signal.Signals names it.
std::string signal_name(int exitcode) {
  const char* abbreviation = exitcode < 0 ? ::sigabbrev_np(-exitcode) : nullptr;
  return abbreviation ? std::string("SIG") + abbreviation : std::string();
}

// ---- TCPStore ----

struct StoreObject : NativeObject {
  using NativeObject::NativeObject;
  std::shared_ptr<TcpStore> store;
};

TypeObject* store_type() {
  static TypeObject* type = [] {
    TypeObject* t = make_builtin_type("TCPStore", {}, "torch.distributed");
    t->constructor = dist_guard([t](Interpreter& ip, CallArgs& c) -> Ref {
      auto a = bind_native("TCPStore", c,
                           {{"host_name"}, {"port"}, {"world_size", false}, {"is_master", false}, {"timeout", false},
                            {"wait_for_workers", false}, {"multi_tenant", false}, {"master_listen_fd", false}, {"use_libuv", false}});
      TcpStoreOptions options;
      options.host = to_str(a[0], "host_name");
      options.port = static_cast<int>(to_index(ip, a[1]));
      options.world_size = a[2] && !is_none(a[2]) ? static_cast<int>(to_index(ip, a[2])) : -1;
      options.is_master = a[3] && truthy(ip, a[3]);
      options.timeout = timeout_of(ip, a[4] ? a[4] : none());
      options.wait_for_workers = !a[5] || truthy(ip, a[5]);
      auto self = std::make_shared<StoreObject>(t);
      self->store = std::make_shared<TcpStore>(options);
      return self;
    });
    auto store_of = [](const CallArgs& c) -> TcpStore& { return *static_cast<StoreObject&>(*c.args.at(0)).store; };
    method(t, "set", [store_of](Interpreter&, CallArgs& c) {
      auto a = bind_native("set", c, {{"self"}, {"key"}, {"value"}});
      store_of(c).set(to_str(a[1], "key"), bytes_or_str(a[2]));
      return none();
    });
    method(t, "get", [store_of](Interpreter&, CallArgs& c) {
      auto a = bind_native("get", c, {{"self"}, {"key"}});
      return py_bytes(store_of(c).get_string(to_str(a[1], "key")));
    });
    method(t, "add", [store_of](Interpreter& ip, CallArgs& c) {
      auto a = bind_native("add", c, {{"self"}, {"key"}, {"value"}});
      return py_int(store_of(c).add(to_str(a[1], "key"), to_index(ip, a[2])));
    });
    method(t, "wait", [store_of](Interpreter& ip, CallArgs& c) {
      auto a = bind_native("wait", c, {{"self"}, {"keys"}, {"timeout", false}});
      std::vector<std::string> keys;
      for (const Ref& key : to_vector(ip, a[1])) keys.push_back(to_str(key, "keys"));
      store_of(c).wait(keys, a[2] && !is_none(a[2]) ? timeout_of(ip, a[2]) : store_of(c).timeout());
      return none();
    });
    method(t, "check", [store_of](Interpreter& ip, CallArgs& c) {
      auto a = bind_native("check", c, {{"self"}, {"keys"}});
      std::vector<std::string> keys;
      for (const Ref& key : to_vector(ip, a[1])) keys.push_back(to_str(key, "keys"));
      return py_bool(store_of(c).check(keys));
    });
    method(t, "delete_key", [store_of](Interpreter&, CallArgs& c) {
      auto a = bind_native("delete_key", c, {{"self"}, {"key"}});
      return py_bool(store_of(c).delete_key(to_str(a[1], "key")));
    });
    method(t, "num_keys", [store_of](Interpreter&, CallArgs& c) { return py_int(store_of(c).num_keys()); });
    method(t, "set_timeout", [store_of](Interpreter& ip, CallArgs& c) {
      auto a = bind_native("set_timeout", c, {{"self"}, {"timeout"}});
      store_of(c).set_timeout(timeout_of(ip, a[1]));
      return none();
    });
    add_getter(t, "host", [](Interpreter&, const Ref& self) { return py_str(static_cast<StoreObject&>(*self).store->host()); });
    add_getter(t, "port", [](Interpreter&, const Ref& self) { return py_int(static_cast<StoreObject&>(*self).store->port()); });
    return t;
  }();
  return type;
}

// ---- Work ----

struct WorkObject : NativeObject {
  using NativeObject::NativeObject;
  WorkRef work;
};

TypeObject* work_type() {
  static TypeObject* type = [] {
    TypeObject* t = make_builtin_type("Work", {}, "torch.distributed.distributed_c10d");
    auto work_of = [](const CallArgs& c) -> Work& { return *static_cast<WorkObject&>(*c.args.at(0)).work; };
    method(t, "wait", [work_of](Interpreter& ip, CallArgs& c) {
      auto a = bind_native("wait", c, {{"self"}, {"timeout", false}});
      std::optional<std::chrono::milliseconds> timeout;
      if (a[1] && !is_none(a[1])) timeout = timeout_of(ip, a[1]);
      work_of(c).wait(timeout);
      return py_bool(true);
    });
    method(t, "is_completed", [work_of](Interpreter&, CallArgs& c) { return py_bool(work_of(c).is_completed()); });
    method(t, "is_success", [work_of](Interpreter&, CallArgs& c) { return py_bool(work_of(c).is_success()); });
    method(t, "_source_rank", [work_of](Interpreter&, CallArgs& c) { return py_int(work_of(c).source_rank()); });
    method(t, "result", [work_of](Interpreter&, CallArgs& c) {
      std::vector<Ref> outputs;
      for (const tensor::Tensor& t : work_of(c).result()) outputs.push_back(wrap_tensor(t));
      return py_list(std::move(outputs));
    });
    return t;
  }();
  return type;
}

Ref wrap_work(WorkRef work) {
  auto object = std::make_shared<WorkObject>(work_type());
  object->work = std::move(work);
  return object;
}

// ---- ProcessGroup ----

struct ProcessGroupObject : NativeObject {
  using NativeObject::NativeObject;
  std::unique_ptr<ProcessGroup> group;
};

ReduceOp reduce_op_of(Interpreter& ip, const Ref& value) {
  if (auto op = reduce_op_from_value(static_cast<int>(to_index(ip, value)))) return *op;
  raise_error(ExcType::ValueError, "not a ReduceOp: " + repr(ip, value));
}

TypeObject* process_group_type() {
  static TypeObject* type = [] {
    TypeObject* t = make_builtin_type("ProcessGroup", {}, "torch.distributed.distributed_c10d");
    auto group_of = [](const CallArgs& c) -> ProcessGroup& {
      auto& self = static_cast<ProcessGroupObject&>(*c.args.at(0));
      if (!self.group) tensor::throw_runtime_error("the process group was destroyed");
      return *self.group;
    };
    method(t, "rank", [group_of](Interpreter&, CallArgs& c) { return py_int(group_of(c).rank()); });
    method(t, "size", [group_of](Interpreter&, CallArgs& c) { return py_int(group_of(c).size()); });
    method(t, "name", [group_of](Interpreter&, CallArgs& c) { return py_str(group_of(c).backend_name()); });
    method(t, "allreduce", [group_of](Interpreter& ip, CallArgs& c) {
      auto a = bind_native("allreduce", c, {{"self"}, {"tensor"}, {"op"}});
      return wrap_work(group_of(c).allreduce(to_tensor(a[1], "tensor"), reduce_op_of(ip, a[2])));
    });
    method(t, "broadcast", [group_of](Interpreter& ip, CallArgs& c) {
      auto a = bind_native("broadcast", c, {{"self"}, {"tensor"}, {"root"}});
      return wrap_work(group_of(c).broadcast(to_tensor(a[1], "tensor"), static_cast<int>(to_index(ip, a[2]))));
    });
    method(t, "reduce", [group_of](Interpreter& ip, CallArgs& c) {
      auto a = bind_native("reduce", c, {{"self"}, {"tensor"}, {"root"}, {"op"}});
      return wrap_work(group_of(c).reduce(to_tensor(a[1], "tensor"), static_cast<int>(to_index(ip, a[2])), reduce_op_of(ip, a[3])));
    });
    method(t, "allgather", [group_of](Interpreter& ip, CallArgs& c) {
      auto a = bind_native("allgather", c, {{"self"}, {"outputs"}, {"input"}});
      return wrap_work(group_of(c).allgather(tensors_of(ip, a[1], "outputs"), to_tensor(a[2], "input")));
    });
    method(t, "allgather_into_tensor", [group_of](Interpreter&, CallArgs& c) {
      auto a = bind_native("allgather_into_tensor", c, {{"self"}, {"output"}, {"input"}});
      return wrap_work(group_of(c).allgather_into_tensor(to_tensor(a[1], "output"), to_tensor(a[2], "input")));
    });
    method(t, "reduce_scatter", [group_of](Interpreter& ip, CallArgs& c) {
      auto a = bind_native("reduce_scatter", c, {{"self"}, {"output"}, {"inputs"}, {"op"}});
      return wrap_work(group_of(c).reduce_scatter(to_tensor(a[1], "output"), tensors_of(ip, a[2], "inputs"), reduce_op_of(ip, a[3])));
    });
    method(t, "reduce_scatter_tensor", [group_of](Interpreter& ip, CallArgs& c) {
      auto a = bind_native("reduce_scatter_tensor", c, {{"self"}, {"output"}, {"input"}, {"op"}});
      return wrap_work(group_of(c).reduce_scatter_tensor(to_tensor(a[1], "output"), to_tensor(a[2], "input"), reduce_op_of(ip, a[3])));
    });
    method(t, "gather", [group_of](Interpreter& ip, CallArgs& c) {
      auto a = bind_native("gather", c, {{"self"}, {"outputs"}, {"input"}, {"root"}});
      return wrap_work(group_of(c).gather(tensors_of(ip, a[1], "outputs"), to_tensor(a[2], "input"), static_cast<int>(to_index(ip, a[3]))));
    });
    method(t, "scatter", [group_of](Interpreter& ip, CallArgs& c) {
      auto a = bind_native("scatter", c, {{"self"}, {"output"}, {"inputs"}, {"root"}});
      return wrap_work(group_of(c).scatter(to_tensor(a[1], "output"), tensors_of(ip, a[2], "inputs"), static_cast<int>(to_index(ip, a[3]))));
    });
    method(t, "barrier", [group_of](Interpreter&, CallArgs& c) { return wrap_work(group_of(c).barrier()); });
    method(t, "send", [group_of](Interpreter& ip, CallArgs& c) {
      auto a = bind_native("send", c, {{"self"}, {"tensor"}, {"dst"}, {"tag"}});
      return wrap_work(group_of(c).send(to_tensor(a[1], "tensor"), static_cast<int>(to_index(ip, a[2])),
                                        static_cast<uint64_t>(to_index(ip, a[3]))));
    });
    // src -1: from any rank (recv_anysource).
    method(t, "recv", [group_of](Interpreter& ip, CallArgs& c) {
      auto a = bind_native("recv", c, {{"self"}, {"tensor"}, {"src"}, {"tag"}});
      return wrap_work(group_of(c).recv(to_tensor(a[1], "tensor"), static_cast<int>(to_index(ip, a[2])),
                                        static_cast<uint64_t>(to_index(ip, a[3]))));
    });
    // destroy_process_group: the worker finishes what is queued and the connections close now,
    // not when the last reference to the object goes.
    method(t, "_shutdown", [](Interpreter&, CallArgs& c) {
      static_cast<ProcessGroupObject&>(*c.args.at(0)).group.reset();
      return none();
    });
    return t;
  }();
  return type;
}

void init_c10d_module(Interpreter&, ModuleObject& m) {
  auto& g = *m.globals;
  auto def = [&](const std::string& name, NativeFn fn) { g.set(name, native_function(name, dist_guard(std::move(fn)))); };
  g.set("TCPStore", builtin_type_ref(store_type()));
  g.set("Work", builtin_type_ref(work_type()));
  g.set("ProcessGroup", builtin_type_ref(process_group_type()));
  {
    std::vector<Ref> members;
#define KILN_REDUCE_OP(Name, Value) members.push_back(py_tuple({py_str(#Name), py_int(Value)}));
#include "libcompiler/distributed/reduce_op.def"
    g.set("_reduce_op_members", py_list(std::move(members)));
  }
  def("_is_backend_available", [](Interpreter&, CallArgs& c) {
    auto a = bind_native("_is_backend_available", c, {{"backend"}});
    return py_bool(backend_available(to_str(a[0], "backend")));
  });
  def("_new_process_group", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("_new_process_group", c, {{"backend"}, {"store"}, {"prefix"}, {"rank"}, {"size"}, {"timeout"}});
    if (a[1]->type != store_type()) raise_error(ExcType::TypeError, "store must be a TCPStore, not " + type_name(a[1]));
    ProcessGroupOptions options;
    options.store = static_cast<StoreObject&>(*a[1]).store;
    options.store_prefix = to_str(a[2], "prefix");
    options.rank = static_cast<int>(to_index(ip, a[3]));
    options.size = static_cast<int>(to_index(ip, a[4]));
    options.timeout = timeout_of(ip, a[5]);
    auto group = std::make_shared<ProcessGroupObject>(process_group_type());
    group->group = make_process_group(to_str(a[0], "backend"), options);
    return group;
  });
  // The launcher (torch/distributed/run.py): its workers, given as (argv, environment,
  // local_rank, global_rank), run to the end. Returns (failures, signal): the failures as
  // (local_rank, global_rank, pid, exitcode, local time as the summary shows it, the name of the
  // signal that ended it or ""), the first observed first; the signal that stopped the launcher, or 0.
  def("_run_worker_group", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("_run_worker_group", c, {{"workers"}, {"monitor_interval"}, {"grace"}});
    std::vector<WorkerSpec> workers;
    for (const Ref& entry : to_vector(ip, a[0])) {
      const std::vector<Ref> fields = to_vector(ip, entry);
      WorkerSpec worker;
      for (const Ref& arg : to_vector(ip, fields.at(0))) worker.argv.push_back(to_str(arg, "argv"));
      for (const Ref& key : to_vector(ip, fields.at(1)))
        worker.environment[to_str(key, "environment")] = to_str(getitem(ip, fields.at(1), key), "environment");
      worker.local_rank = static_cast<int>(to_index(ip, fields.at(2)));
      worker.global_rank = static_cast<int>(to_index(ip, fields.at(3)));
      workers.push_back(std::move(worker));
    }
    const auto interval = std::chrono::milliseconds(static_cast<int64_t>(to_double(ip, a[1]) * 1000));
    const WorkerGroupResult result = run_worker_group(workers, interval, std::chrono::seconds(to_index(ip, a[2])));
    std::vector<Ref> failures;
    for (const WorkerFailure& f : result.failures)
      failures.push_back(py_tuple({py_int(f.local_rank), py_int(f.global_rank), py_int(f.pid), py_int(f.exitcode),
                                   py_str(local_time_text(f.time)), py_str(signal_name(f.exitcode))}));
    return py_tuple({py_list(std::move(failures)), py_int(result.signal)});
  });
  def("_current_executable", [](Interpreter&, CallArgs&) { return py_str(current_executable()); });
  def("_fully_qualified_host_name", [](Interpreter&, CallArgs&) { return py_str(fully_qualified_host_name()); });
  // A warning of torch.distributed's loggers (TORCH_LOGS' distributed component) at a PyTorch site.
  def("_log_warning", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("_log_warning", c, {{"path"}, {"line"}, {"message"}});
    log::emit(log::Component::distributed, log::Level::Warning, {to_str(a[0], "path"), static_cast<int>(to_index(ip, a[1]))}, "",
              to_str(a[2], "message"));
    return none();
  });
  // The default group's rank (None once it is destroyed): TORCH_TRACE's records and file name and
  // TORCH_LOGS' lines carry it, as PyTorch's do while torch.distributed is initialized.
  def("_set_default_group_rank", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("_set_default_group_rank", c, {{"rank"}});
    std::optional<uint32_t> rank;
    if (!is_none(a[0])) rank = static_cast<uint32_t>(to_index(ip, a[0]));
    trace::TraceWriter::from_environment().set_rank(rank);
    log::set_log_rank(rank);
    return none();
  });
  def("_parameters_reached", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("_parameters_reached", c, {{"outputs"}, {"parameters"}});
    std::vector<Ref> flags;
    for (bool reached : parameters_reached(tensors_of(ip, a[0], "outputs"), tensors_of(ip, a[1], "parameters")))
      flags.push_back(py_bool(reached));
    return py_list(std::move(flags));
  });
  def("_compute_bucket_assignment_by_size", [](Interpreter& ip, CallArgs& c) {
    auto a = bind_native("_compute_bucket_assignment_by_size", c,
                         {{"tensors"}, {"bucket_size_limits"}, {"expect_sparse_gradient", false}, {"tensor_indices", false}});
    std::vector<int64_t> limits, indices;
    std::vector<bool> sparse;
    for (const Ref& v : to_vector(ip, a[1])) limits.push_back(to_index(ip, v));
    if (a[2] && !is_none(a[2]))
      for (const Ref& v : to_vector(ip, a[2])) sparse.push_back(truthy(ip, v));
    if (a[3] && !is_none(a[3]))
      for (const Ref& v : to_vector(ip, a[3])) indices.push_back(to_index(ip, v));
    const BucketAssignment assignment = compute_bucket_assignment_by_size(tensors_of(ip, a[0], "tensors"), limits, sparse, indices);
    std::vector<Ref> buckets, sizes;
    for (const auto& bucket : assignment.bucket_indices) {
      std::vector<Ref> members;
      for (int64_t i : bucket) members.push_back(py_int(i));
      buckets.push_back(py_list(std::move(members)));
    }
    for (int64_t limit : assignment.size_limits) sizes.push_back(py_int(limit));
    return py_tuple({py_list(std::move(buckets)), py_list(std::move(sizes))});
  });
}

}  // namespace

void install_distributed(Interpreter& interp) {
  interp.register_native_module("torch._C._distributed_c10d", init_c10d_module);
  install_ddp_optimizer();
}

}  // namespace kiln::distributed
