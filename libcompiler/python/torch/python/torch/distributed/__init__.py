# torch.distributed: collectives over process groups (Gloo on the CPU), as PyTorch's package. The
# native half is torch._C._distributed_c10d (libcompiler/distributed); an interpreter made
# without it has is_available() False, as a PyTorch built without distributed support.
import torch


class DistError(RuntimeError):
    pass


class DistBackendError(DistError):
    pass


class DistNetworkError(DistError):
    pass


class DistStoreError(DistError):
    pass


def is_available():
    try:
        import torch._C._distributed_c10d
    except ImportError:
        return False
    return True


if is_available():
    from torch._C._distributed_c10d import (TCPStore, Work, ProcessGroup, _compute_bucket_assignment_by_size,
                                            _parameters_reached)
    from torch.distributed.distributed_c10d import (
        Backend, ReduceOp, GroupMember, group, init_process_group, destroy_process_group, is_initialized,
        is_gloo_available, is_nccl_available, is_mpi_available, is_ucc_available, is_backend_available,
        is_torchelastic_launched, get_rank, get_world_size, get_backend, get_backend_config, BackendConfig, barrier,
        all_reduce, broadcast, all_gather,
        all_gather_into_tensor, reduce_scatter, reduce_scatter_tensor, reduce, gather, scatter, new_group,
        get_process_group_ranks, get_group_rank, get_global_rank, send, recv, isend, irecv, broadcast_object_list,
        all_gather_object, _get_default_group, _get_default_store)

    # The size of DDP's first gradient bucket (the parameters defined first, whose gradients come last).
    _DEFAULT_FIRST_BUCKET_BYTES = 1024 * 1024
