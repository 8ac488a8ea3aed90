# The process-group API of torch.distributed (PyTorch's distributed_c10d.py): the default group
# made by init_process_group through a rendezvous, and the collectives on it. Names, defaults and
# errors as PyTorch 2.11's; the work is done by torch._C._distributed_c10d.
import os
import warnings
from datetime import timedelta

import torch
import torch._C._distributed_c10d as _c10d


class RedOpType:
    """A reduction operator; ReduceOp's members are these (as c10d's pybind enum)."""

    def __init__(self, name, value):
        self.name = name
        self.value = value

    def __repr__(self):
        return f"<RedOpType.{self.name}: {self.value}>"

    def __str__(self):
        return f"RedOpType.{self.name}"

    def __int__(self):
        return self.value

    def __index__(self):
        return self.value

    def __eq__(self, other):
        if isinstance(other, RedOpType):
            return self.value == other.value
        return isinstance(other, int) and self.value == other

    def __hash__(self):
        return hash(self.value)


class ReduceOp:
    RedOpType = RedOpType


for _name, _value in _c10d._reduce_op_members:
    setattr(ReduceOp, _name, RedOpType(_name, _value))


class Backend:
    UNDEFINED = "undefined"
    GLOO = "gloo"
    NCCL = "nccl"
    UCC = "ucc"
    MPI = "mpi"

    # The devices each backend's collectives take, and the backend of each device when none is asked for.
    backend_capability = {GLOO: ["cpu", "cuda"], NCCL: ["cuda"], UCC: ["cpu", "cuda"], MPI: ["cpu", "cuda"]}
    default_device_backend_map = {"cpu": GLOO, "cuda": NCCL}

    def __new__(cls, name):
        if not isinstance(name, str):
            raise ValueError(f"Backend constructor parameter must be string-ish, but got: {type(name)}")
        return name.lower()


class BackendConfig:
    """Which backend serves each device type in a group, from its backend argument: UNDEFINED (none
    given) is the accelerator's default backend (the CPU's when there is none), a backend name
    every device that backend takes, and "cpu:gloo,cuda:nccl" says it per device."""

    def __init__(self, backend):
        self.device_backend_map = {}
        backend = str(backend)
        if backend == Backend.UNDEFINED:
            device = "cuda" if torch.cuda.is_available() else "cpu"
            self.device_backend_map[device] = Backend(Backend.default_device_backend_map[device])
        elif backend.lower() in Backend.backend_capability:
            self.device_backend_map = dict.fromkeys(Backend.backend_capability[backend.lower()], Backend(backend))
        elif ":" in backend:
            for pair in backend.lower().split(","):
                device_and_backend = pair.split(":")
                if len(device_and_backend) != 2:
                    raise ValueError(f"Invalid device:backend pairing: {pair}. The custom backend string must be in the "
                                     "format \"<device_type1>:<backend1>,<device_type2>:<backend2>...\". e.g. 'cpu:gloo,cuda:nccl'")
                device, name = device_and_backend
                if device in self.device_backend_map:
                    raise ValueError(f"Duplicate device type {device} in backend string: {backend}.")
                self.device_backend_map[device] = Backend(name)
        else:
            self.device_backend_map = dict.fromkeys(["cpu", "cuda", "xpu"], Backend(backend))

    def __repr__(self):
        return ",".join(f"{device}:{backend}" for device, backend in self.device_backend_map.items())

    def get_device_backend_map(self):
        return self.device_backend_map

    def runtime_backend(self):
        """The one backend kiln runs the group on (NCCL where the map names it, as PyTorch's default)."""
        backends = set(self.device_backend_map.values())
        if len(backends) > 1:
            raise RuntimeError(f"kiln's process groups run one backend for every device, not {self!r}")
        return next(iter(backends))


# The default timeout of a process group and its store, as PyTorch's default_pg_timeout.
default_pg_timeout = timedelta(minutes=30)


class GroupMember:
    WORLD = None
    NON_GROUP_MEMBER = -100


class group:
    WORLD = None


class _World:
    """What init_process_group made: the default group and its store; and the groups new_group
    made since, with their members' global ranks in group-rank order; and every group's backend."""
    default_pg = None
    store = None
    group_ranks = []     # (group, [global ranks])
    group_backends = []  # (group, its backend argument as get_backend names it, its BackendConfig)
    groups_made = 0   # every rank calls new_group in the same order: this numbers their keys


_DEFAULT_NOT_INITIALIZED = "Default process group has not been initialized, please make sure to call init_process_group."


def _get_default_group():
    if _World.default_pg is None:
        raise ValueError(_DEFAULT_NOT_INITIALIZED)
    return _World.default_pg


def _get_default_store():
    if _World.default_pg is None:
        raise ValueError(_DEFAULT_NOT_INITIALIZED)
    return _World.store


def _group_or_default(group):
    return _get_default_group() if group is None else group


def is_initialized():
    return _World.default_pg is not None


def is_backend_available(backend):
    return _c10d._is_backend_available(backend.lower())


def is_gloo_available():
    return _c10d._is_backend_available("gloo")


def is_nccl_available():
    return _c10d._is_backend_available("nccl")


def is_mpi_available():
    return False


def is_ucc_available():
    return False


def is_torchelastic_launched():
    return os.getenv("TORCHELASTIC_RUN_ID") is not None


def _env_error(var):
    return ValueError(
        "Error initializing torch.distributed using env:// rendezvous: " f"environment variable {var} expected, but not set")


def _env_rendezvous(rank, world_size, timeout):
    """The store of env:// (MASTER_ADDR, MASTER_PORT, RANK, WORLD_SIZE): rank 0 hosts it, unless
    torchrun's agent hosts it already (TORCHELASTIC_USE_AGENT_STORE)."""
    if rank == -1:
        if "RANK" not in os.environ:
            raise _env_error("RANK")
        rank = int(os.environ["RANK"])
    if world_size == -1:
        if "WORLD_SIZE" not in os.environ:
            raise _env_error("WORLD_SIZE")
        world_size = int(os.environ["WORLD_SIZE"])
    if "MASTER_ADDR" not in os.environ:
        raise _env_error("MASTER_ADDR")
    if "MASTER_PORT" not in os.environ:
        raise _env_error("MASTER_PORT")
    agent_store = os.environ.get("TORCHELASTIC_USE_AGENT_STORE") == str(True)
    store = _c10d.TCPStore(os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]), world_size,
                           rank == 0 and not agent_store, timeout)
    return store, rank, world_size


def _tcp_rendezvous(url, rank, world_size, timeout):
    """tcp://HOST:PORT: the store at that address, rank and world size given as arguments."""
    address = url[len("tcp://"):].split("?")[0]
    host, _, port = address.rpartition(":")
    if rank == -1 or world_size == -1:
        raise ValueError("rank and world_size must be given with a tcp:// init_method")
    return _c10d.TCPStore(host.strip("[]"), int(port), world_size, rank == 0, timeout), rank, world_size


def init_process_group(backend=None, init_method=None, timeout=None, world_size=-1, rank=-1, store=None,
                       group_name="", pg_options=None, device_id=None):
    if GroupMember.WORLD is not None:
        raise ValueError("trying to initialize the default process group twice!")
    if store is not None and init_method is not None:
        raise AssertionError("Cannot specify both init_method and store.")
    if store is not None:
        if world_size <= 0:
            raise AssertionError("world_size must be positive if using store")
        if rank < 0:
            raise AssertionError("rank must be non-negative if using store")
    backend = Backend.UNDEFINED if backend is None else Backend(backend)
    config = BackendConfig(backend)
    if timeout is None:
        timeout = default_pg_timeout
    if store is None:
        if init_method is None:
            init_method = "env://"
        if init_method.startswith("env://"):
            store, rank, world_size = _env_rendezvous(rank, world_size, timeout)
        elif init_method.startswith("tcp://"):
            store, rank, world_size = _tcp_rendezvous(init_method, rank, world_size, timeout)
        else:
            raise RuntimeError(f"No rendezvous handler for {init_method.split(':')[0]}://")
    pg = _c10d._new_process_group(config.runtime_backend(), store, "default_pg/", rank, world_size, timeout)
    _set_world(pg, store)
    _World.group_backends.append((pg, backend, config))


def _set_world(pg, store):
    _World.default_pg = pg
    _World.store = store
    _World.group_ranks = []
    _World.group_backends = []
    _World.groups_made = 0
    GroupMember.WORLD = pg
    group.WORLD = pg
    _c10d._set_default_group_rank(None if pg is None else pg.rank())


def destroy_process_group(group=None):
    if _World.default_pg is None:
        raise ValueError("Invalid process group specified")
    if group is not None and group is not _World.default_pg:
        raise ValueError("Invalid process group specified")
    pg = _World.default_pg
    _set_world(None, None)
    pg._shutdown()


def new_group(ranks=None, timeout=None, backend=None, pg_options=None, use_local_synchronization=False,
              group_desc=None, device_id=None):
    """A group of some ranks (all when None). Every rank of the default group calls it, in the
    same order; a rank outside gets GroupMember.NON_GROUP_MEMBER."""
    default_pg = _get_default_group()
    world_size = default_pg.size()
    ranks = list(range(world_size)) if ranks is None else sorted(ranks)
    for rank in ranks:
        if rank < 0 or rank >= world_size:
            raise ValueError("The new group's rank should be within the world_size set by init_process_group")
    _World.groups_made += 1
    prefix = f"group_{_World.groups_made}/"
    if default_pg.rank() not in ranks:
        return GroupMember.NON_GROUP_MEMBER
    backend = get_backend() if backend is None else Backend(backend)
    config = BackendConfig(backend)
    pg = _c10d._new_process_group(config.runtime_backend(), _World.store, prefix, ranks.index(default_pg.rank()), len(ranks),
                                  default_pg_timeout if timeout is None else timeout)
    _World.group_ranks.append((pg, ranks))
    _World.group_backends.append((pg, backend, config))
    return pg


def _ranks_of(group):
    for pg, ranks in _World.group_ranks:
        if pg is group:
            return ranks
    raise ValueError(f"Group {group} is not registered, please create group with torch.distributed.new_group API")


def get_process_group_ranks(group):
    if group is None or group is _World.default_pg:
        return list(range(_get_default_group().size()))
    return list(_ranks_of(group))


def get_group_rank(group, global_rank):
    if group is _World.default_pg:
        return global_rank
    ranks = _ranks_of(group)
    if global_rank not in ranks:
        raise ValueError(f"Global rank {global_rank} is not part of group {group}")
    return ranks.index(global_rank)


def get_global_rank(group, group_rank):
    if group is _World.default_pg:
        return group_rank
    ranks = _ranks_of(group)
    if group_rank < 0 or group_rank >= len(ranks):
        raise ValueError(f"Group rank {group_rank} is not part of group {group}")
    return ranks[group_rank]


def _rank_not_in_group(group):
    return isinstance(group, int) and group == GroupMember.NON_GROUP_MEMBER


def get_rank(group=None):
    if _rank_not_in_group(group):
        return -1
    return _group_or_default(group).rank()


def get_world_size(group=None):
    if _rank_not_in_group(group):
        return -1
    return _group_or_default(group).size()


def _backend_entry(group):
    if _rank_not_in_group(group):
        raise ValueError("Invalid process group specified")
    pg = _group_or_default(group)
    for known, backend, config in _World.group_backends:
        if known is pg:
            return backend, config
    raise ValueError(f"Process group {pg} is not initialized in the world group map. Please initialize the group first.")


def get_backend(group=None):
    return _backend_entry(group)[0]


def get_backend_config(group=None):
    return str(_backend_entry(group)[1])


def _check_single_tensor(param, param_name):
    if not isinstance(param, torch.Tensor):
        raise TypeError(
            f"Invalid function argument. Expected parameter `{param_name}` of type torch.Tensor\n"
            f"             but got {type(param)} instead.")


def _check_tensor_list(param, param_name):
    if not isinstance(param, list) or not all(isinstance(p, torch.Tensor) for p in param):
        raise TypeError(
            f"Invalid function argument. Expected parameter `{param_name}` of type List[torch.Tensor]\n"
            f"             but got {type(param)} with elements of type {[type(p) for p in param]}.")


def _finish(work, async_op):
    if async_op:
        return work
    work.wait()
    return None


def _group_rank_argument(pg, rank, group_rank, name):
    """The rank in `pg` that a collective's src/dst names: group_src/group_dst as it is, a global
    src/dst translated (0 when neither is given)."""
    if rank is not None and group_rank is not None:
        raise ValueError(f"Can not specify both {name} and group_{name}")
    if group_rank is not None:
        return group_rank
    return get_group_rank(pg, 0 if rank is None else rank)


def _not_in_group(group, op_name):
    """A collective on a group this rank is not in does nothing, with PyTorch's warning."""
    if not _rank_not_in_group(group):
        return False
    global_rank = -1 if GroupMember.WORLD is None else GroupMember.WORLD.rank()
    warnings.warn(f"Running {op_name} on global rank {global_rank} which does not belong to the given group.")
    return True


def barrier(group=None, async_op=False, device_ids=None):
    if _not_in_group(group, "barrier"):
        return None
    return _finish(_group_or_default(group).barrier(), async_op)


def all_reduce(tensor, op=ReduceOp.SUM, group=None, async_op=False):
    _check_single_tensor(tensor, "tensor")
    if _not_in_group(group, "all_reduce"):
        return None
    return _finish(_group_or_default(group).allreduce(tensor, int(op)), async_op)


def broadcast(tensor, src=None, group=None, async_op=False, group_src=None):
    _check_single_tensor(tensor, "tensor")
    if _not_in_group(group, "broadcast"):
        return None
    pg = _group_or_default(group)
    return _finish(pg.broadcast(tensor, _group_rank_argument(pg, src, group_src, "src")), async_op)


def reduce(tensor, dst=None, op=ReduceOp.SUM, group=None, async_op=False, group_dst=None):
    _check_single_tensor(tensor, "tensor")
    if _not_in_group(group, "reduce"):
        return None
    pg = _group_or_default(group)
    return _finish(pg.reduce(tensor, _group_rank_argument(pg, dst, group_dst, "dst"), int(op)), async_op)


def all_gather(tensor_list, tensor, group=None, async_op=False):
    _check_tensor_list(tensor_list, "tensor_list")
    _check_single_tensor(tensor, "tensor")
    if _not_in_group(group, "all_gather"):
        return None
    return _finish(_group_or_default(group).allgather(tensor_list, tensor), async_op)


def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    _check_single_tensor(input_tensor, "input_tensor")
    _check_single_tensor(output_tensor, "output_tensor")
    if _not_in_group(group, "all_gather_into_tensor"):
        return None
    return _finish(_group_or_default(group).allgather_into_tensor(output_tensor, input_tensor), async_op)


def reduce_scatter(output, input_list, op=ReduceOp.SUM, group=None, async_op=False):
    _check_single_tensor(output, "output")
    _check_tensor_list(input_list, "input_list")
    if _not_in_group(group, "reduce_scatter"):
        return None
    return _finish(_group_or_default(group).reduce_scatter(output, input_list, int(op)), async_op)


def reduce_scatter_tensor(output, input, op=ReduceOp.SUM, group=None, async_op=False):
    _check_single_tensor(output, "output")
    _check_single_tensor(input, "input")
    if _not_in_group(group, "reduce_scatter_tensor"):
        return None
    return _finish(_group_or_default(group).reduce_scatter_tensor(output, input, int(op)), async_op)


def gather(tensor, gather_list=None, dst=None, group=None, async_op=False, group_dst=None):
    _check_single_tensor(tensor, "tensor")
    if _not_in_group(group, "gather"):
        return None
    pg = _group_or_default(group)
    dst = _group_rank_argument(pg, dst, group_dst, "dst")
    if pg.rank() == dst:
        if gather_list is None:
            raise ValueError("Argument ``gather_list`` must be specified on destination rank.")
        _check_tensor_list(gather_list, "gather_list")
    elif gather_list:
        raise ValueError("Argument ``gather_list`` must NOT be specified on non-destination ranks.")
    else:
        gather_list = []
    return _finish(pg.gather(gather_list, tensor, dst), async_op)


def scatter(tensor, scatter_list=None, src=None, group=None, async_op=False, group_src=None):
    _check_single_tensor(tensor, "tensor")
    if _not_in_group(group, "scatter"):
        return None
    pg = _group_or_default(group)
    src = _group_rank_argument(pg, src, group_src, "src")
    if pg.rank() == src:
        if scatter_list is None:
            raise ValueError("Argument ``scatter_list`` must be specified on source rank.")
        _check_tensor_list(scatter_list, "scatter_list")
    elif scatter_list:
        raise ValueError("Argument ``scatter_list`` must NOT be specified on non-source ranks.")
    else:
        scatter_list = []
    return _finish(pg.scatter(tensor, scatter_list, src), async_op)


def _check_not_self_rank(pg, rank, rank_type):
    if pg.rank() == rank:
        raise ValueError(f"Invalid {rank_type} rank: {rank_type} rank should not be the same as the rank of the current process.")


def isend(tensor, dst=None, group=None, tag=0, group_dst=None):
    _check_single_tensor(tensor, "tensor")
    if _rank_not_in_group(group):
        _not_in_group(group, "isend")
        return None
    pg = _group_or_default(group)
    return pg.send(tensor, _group_rank_argument(pg, dst, group_dst, "dst"), tag)


def irecv(tensor, src=None, group=None, tag=0, group_src=None):
    """Without src (nor group_src), from whichever rank sends first."""
    _check_single_tensor(tensor, "tensor")
    if _rank_not_in_group(group):
        _not_in_group(group, "irecv")
        return None
    pg = _group_or_default(group)
    if src is None and group_src is None:
        return pg.recv(tensor, -1, tag)
    return pg.recv(tensor, _group_rank_argument(pg, src, group_src, "src"), tag)


def send(tensor, dst=None, group=None, tag=0, group_dst=None):
    pg = _group_or_default(None if _rank_not_in_group(group) else group)
    _check_not_self_rank(pg, _group_rank_argument(pg, dst, group_dst, "dst"), "destination")
    work = isend(tensor, dst=dst, group=group, tag=tag, group_dst=group_dst)
    if work is not None:
        work.wait()


def recv(tensor, src=None, group=None, tag=0, group_src=None):
    """Returns the sender's global rank (-1 when this rank is not in the group)."""
    work = irecv(tensor, src=src, group=group, tag=tag, group_src=group_src)
    if work is None:
        return -1
    work.wait()
    pg = _group_or_default(group)
    sender = work._source_rank() if src is None and group_src is None else _group_rank_argument(pg, src, group_src, "src")
    _check_not_self_rank(pg, sender, "source")
    return get_global_rank(pg, sender)


def _object_to_tensor(obj):
    """An object's bytes as a uint8 tensor. PyTorch pickles it; kiln writes it as torch.save
    does (through a file: kiln's torch.save takes paths), which every kiln rank reads back."""
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "object.pt")
        torch.save(obj, path)
        with open(path, "rb") as f:
            data = f.read()
    return torch.tensor(list(data), dtype=torch.uint8)


def _tensor_to_object(tensor, size):
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "object.pt")
        with open(path, "wb") as f:
            f.write(bytes(tensor[:size].tolist()))
        return torch.load(path, weights_only=False)


def broadcast_object_list(object_list, src=None, group=None, device=None, group_src=None):
    if _not_in_group(group, "broadcast_object_list"):
        return
    pg = _group_or_default(group)
    root = _group_rank_argument(pg, src, group_src, "src")
    if pg.rank() == root:
        payloads = [_object_to_tensor(obj) for obj in object_list]
        sizes = torch.tensor([p.numel() for p in payloads], dtype=torch.long)
    else:
        sizes = torch.zeros(len(object_list), dtype=torch.long)
    pg.broadcast(sizes, root).wait()
    if pg.rank() == root:
        payload = torch.cat(payloads) if payloads else torch.zeros(0, dtype=torch.uint8)
    else:
        payload = torch.zeros(int(sizes.sum().item()), dtype=torch.uint8)
    pg.broadcast(payload, root).wait()
    if pg.rank() != root:
        offset = 0
        for i, size in enumerate(sizes.tolist()):
            object_list[i] = _tensor_to_object(payload[offset:offset + size], size)
            offset += size


def all_gather_object(object_list, obj, group=None):
    if _not_in_group(group, "all_gather_object"):
        return
    pg = _group_or_default(group)
    payload = _object_to_tensor(obj)
    sizes = [torch.zeros(1, dtype=torch.long) for _ in range(pg.size())]
    pg.allgather(sizes, torch.tensor([payload.numel()], dtype=torch.long)).wait()
    longest = max(int(s.item()) for s in sizes)
    padded = torch.zeros(longest, dtype=torch.uint8)
    padded[:payload.numel()] = payload
    gathered = [torch.zeros(longest, dtype=torch.uint8) for _ in range(pg.size())]
    pg.allgather(gathered, padded).wait()
    for i, size in enumerate(sizes):
        object_list[i] = _tensor_to_object(gathered[i], int(size.item()))
