#include "libcompiler/cuda/nccl.h"

#include "libcompiler/cuda/context.h"
#include "libcompiler/cuda/dynamic_library.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::cuda::nccl {

namespace {

// NCCL's C API as nccl.h states it (the header comes with NCCL's packages, not with those the
// build uses): an int result, opaque communicators, the unique id passed by value, and
// cudaStream_t, of which only the default stream (null) is passed.
struct NcclUniqueId {
  char internal[128];
};
using Comm = struct NcclComm*;
using Stream = void*;
using Result = int;
constexpr Result kSuccess = 0;

struct NcclApi {
  Result (*ncclGetVersion)(int*) = nullptr;
  const char* (*ncclGetErrorString)(Result) = nullptr;
  const char* (*ncclGetLastError)(Comm) = nullptr;
  Result (*ncclGetUniqueId)(NcclUniqueId*) = nullptr;
  Result (*ncclCommInitRank)(Comm*, int, NcclUniqueId, int) = nullptr;
  Result (*ncclCommDestroy)(Comm) = nullptr;
  Result (*ncclAllReduce)(const void*, void*, size_t, int, int, Comm, Stream) = nullptr;
  Result (*ncclBroadcast)(const void*, void*, size_t, int, int, Comm, Stream) = nullptr;
  Result (*ncclReduce)(const void*, void*, size_t, int, int, int, Comm, Stream) = nullptr;
  Result (*ncclAllGather)(const void*, void*, size_t, int, Comm, Stream) = nullptr;
  Result (*ncclReduceScatter)(const void*, void*, size_t, int, int, Comm, Stream) = nullptr;
  Result (*ncclSend)(const void*, size_t, int, int, Comm, Stream) = nullptr;
  Result (*ncclRecv)(void*, size_t, int, int, Comm, Stream) = nullptr;
  Result (*ncclGroupStart)() = nullptr;
  Result (*ncclGroupEnd)() = nullptr;
};

struct LoadedNccl {
  LoadedNccl() : library({"libnccl.so.2", "libnccl.so"}) {
    if (!library.loaded()) {
      reason = library.why();
      return;
    }
    bool complete = true;
    const auto bind = [&](auto& function, const char* name) {
      function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(library.symbol(name));
      complete = complete && function;
    };
    bind(api.ncclGetVersion, "ncclGetVersion");
    bind(api.ncclGetErrorString, "ncclGetErrorString");
    bind(api.ncclGetLastError, "ncclGetLastError");
    bind(api.ncclGetUniqueId, "ncclGetUniqueId");
    bind(api.ncclCommInitRank, "ncclCommInitRank");
    bind(api.ncclCommDestroy, "ncclCommDestroy");
    bind(api.ncclAllReduce, "ncclAllReduce");
    bind(api.ncclBroadcast, "ncclBroadcast");
    bind(api.ncclReduce, "ncclReduce");
    bind(api.ncclAllGather, "ncclAllGather");
    bind(api.ncclReduceScatter, "ncclReduceScatter");
    bind(api.ncclSend, "ncclSend");
    bind(api.ncclRecv, "ncclRecv");
    bind(api.ncclGroupStart, "ncclGroupStart");
    bind(api.ncclGroupEnd, "ncclGroupEnd");
    if (!complete) reason = library.why();
  }
  DynamicLibrary library;
  NcclApi api;
  std::string reason;
};

LoadedNccl& loaded() {
  static LoadedNccl instance;
  return instance;
}

const NcclApi& api() {
  if (!available()) tensor::throw_runtime_error("NCCL could not be loaded: " + missing_reason());
  return loaded().api;
}

// PyTorch's wording of a failed NCCL call, with NCCL's own detail when it has one.
void check(Result result, const char* call, Comm comm = nullptr) {
  if (result == kSuccess) return;
  std::string message = std::string("NCCL error in ") + call + ": " + api().ncclGetErrorString(result);
  const char* detail = api().ncclGetLastError(comm);
  if (detail && *detail) message += std::string("\nLast error:\n") + detail;
  tensor::throw_runtime_error(message);
}

// ncclDataType_t of each dtype: bool travels as bytes (its reductions are chosen by the caller).
int data_type(tensor::DType dtype) {
  switch (dtype) {
    case tensor::DType::Int8: return 0;
    case tensor::DType::UInt8:
    case tensor::DType::Bool: return 1;
    case tensor::DType::Int32: return 2;
    case tensor::DType::Int64: return 4;
    case tensor::DType::Float16: return 6;
    case tensor::DType::Float32: return 7;
    case tensor::DType::Float64: return 8;
    case tensor::DType::BFloat16: return 9;
    default: tensor::throw_runtime_error("Unsupported data type for NCCL process group: " + std::string(tensor::scalar_type_name(dtype)));
  }
}

}  // namespace

bool available() { return loaded().reason.empty(); }
const std::string& missing_reason() { return loaded().reason; }

std::string version() {
  int code = 0;
  check(api().ncclGetVersion(&code), "ncclGetVersion");
  // NCCL_VERSION_CODE: major * 10000 + minor * 100 + patch since 2.9.
  return std::to_string(code / 10000) + "." + std::to_string(code / 100 % 100) + "." + std::to_string(code % 100);
}

UniqueId make_unique_id() {
  NcclUniqueId id;
  check(api().ncclGetUniqueId(&id), "ncclGetUniqueId");
  UniqueId out;
  std::copy(std::begin(id.internal), std::end(id.internal), out.begin());
  return out;
}

Communicator::Communicator(const UniqueId& id, int ranks, int rank, int device) : device_(device) {
  make_current(device);
  NcclUniqueId raw;
  std::copy(id.begin(), id.end(), std::begin(raw.internal));
  Comm comm = nullptr;
  check(api().ncclCommInitRank(&comm, ranks, raw, rank), "ncclCommInitRank");
  comm_ = comm;
}

Communicator::~Communicator() {
  if (!comm_) return;
  make_current(device_);
  api().ncclCommDestroy(static_cast<Comm>(comm_));
}

void Communicator::all_reduce(const void* send, void* receive, size_t count, tensor::DType dtype, Reduction op) {
  make_current(device_);
  check(api().ncclAllReduce(send, receive, count, data_type(dtype), static_cast<int>(op), static_cast<Comm>(comm_), nullptr),
        "ncclAllReduce", static_cast<Comm>(comm_));
}

void Communicator::broadcast(const void* send, void* receive, size_t count, tensor::DType dtype, int root) {
  make_current(device_);
  check(api().ncclBroadcast(send, receive, count, data_type(dtype), root, static_cast<Comm>(comm_), nullptr), "ncclBroadcast",
        static_cast<Comm>(comm_));
}

void Communicator::reduce(const void* send, void* receive, size_t count, tensor::DType dtype, Reduction op, int root) {
  make_current(device_);
  check(api().ncclReduce(send, receive, count, data_type(dtype), static_cast<int>(op), root, static_cast<Comm>(comm_), nullptr),
        "ncclReduce", static_cast<Comm>(comm_));
}

void Communicator::all_gather(const void* send, void* receive, size_t count, tensor::DType dtype) {
  make_current(device_);
  check(api().ncclAllGather(send, receive, count, data_type(dtype), static_cast<Comm>(comm_), nullptr), "ncclAllGather",
        static_cast<Comm>(comm_));
}

void Communicator::reduce_scatter(const void* send, void* receive, size_t count, tensor::DType dtype, Reduction op) {
  make_current(device_);
  check(api().ncclReduceScatter(send, receive, count, data_type(dtype), static_cast<int>(op), static_cast<Comm>(comm_), nullptr),
        "ncclReduceScatter", static_cast<Comm>(comm_));
}

void Communicator::send(const void* buffer, size_t count, tensor::DType dtype, int peer) {
  make_current(device_);
  check(api().ncclSend(buffer, count, data_type(dtype), peer, static_cast<Comm>(comm_), nullptr), "ncclSend", static_cast<Comm>(comm_));
}

void Communicator::receive(void* buffer, size_t count, tensor::DType dtype, int peer) {
  make_current(device_);
  check(api().ncclRecv(buffer, count, data_type(dtype), peer, static_cast<Comm>(comm_), nullptr), "ncclRecv", static_cast<Comm>(comm_));
}

void Communicator::group_start() { check(api().ncclGroupStart(), "ncclGroupStart"); }
void Communicator::group_end() { check(api().ncclGroupEnd(), "ncclGroupEnd", static_cast<Comm>(comm_)); }

}  // namespace kiln::cuda::nccl
