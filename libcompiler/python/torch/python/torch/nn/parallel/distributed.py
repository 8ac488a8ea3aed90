# torch.nn.parallel.DistributedDataParallel in eager mode, as PyTorch 2.11's: the module's
# parameters and buffers are broadcast from rank 0 at construction, gradients are packed into
# buckets (bucket_cap_mb, the first small) and each bucket's all-reduce starts from the autograd
# hooks as soon as its last gradient is accumulated, overlapping the rest of backward; the
# averaged gradients are written back to .grad when the last bucket has been reduced.
import sys
from contextlib import contextmanager

import torch
import torch.compiler
import torch.distributed as dist
from torch.nn import Module


class _Bucket:
    """Gradients of some parameters packed end to end in one flat tensor, all-reduced at once."""

    def __init__(self, indices, parameters):
        self.indices = indices
        self.offsets = []
        numel = 0
        for i in indices:
            self.offsets.append(numel)
            numel += parameters[i].numel()
        first = parameters[indices[0]]
        self.flat = torch.zeros(numel, dtype=first.dtype, device=first.device)
        self.pending = len(indices)
        self.work = None

    def view_of(self, position, parameter):
        offset = self.offsets[position]
        return self.flat[offset:offset + parameter.numel()]


class _Reducer:
    """PyTorch's c10d Reducer: parameter hooks fill the buckets, full buckets are all-reduced in
    order, and finalize writes the averages back into .grad."""

    def __init__(self, parameters, bucket_indices, process_group, find_unused_parameters, bucket_bytes_cap,
                 first_bucket_bytes_cap, rebuild):
        self.parameters = parameters
        self.process_group = process_group
        self.find_unused_parameters = find_unused_parameters
        self.bucket_bytes_cap = bucket_bytes_cap
        self.first_bucket_bytes_cap = first_bucket_bytes_cap
        self.world_size = process_group.size()
        self.expect_hooks = False
        # Buckets are rebuilt once, after the first backward, in the order gradients became
        # ready, unless unused parameters are searched for (their order may change).
        self.should_rebuild = rebuild
        self.ready_order = []
        self.locally_used = [False] * len(parameters)
        self._install_buckets(bucket_indices)
        self.hook_handles = []
        for index, parameter in enumerate(parameters):
            self.hook_handles.append(parameter.register_post_accumulate_grad_hook(self._hook_for(index)))

    def _hook_for(self, index):
        return lambda parameter: self._mark_ready(index, from_hook=True)

    def _install_buckets(self, bucket_indices):
        self.buckets = [_Bucket(indices, self.parameters) for indices in bucket_indices]
        self.location = {}
        for b, bucket in enumerate(self.buckets):
            for position, index in enumerate(bucket.indices):
                self.location[index] = (b, position)

    def rebuild_buckets(self):
        """After the first backward: the buckets again, in the order gradients became ready."""
        if not self.should_rebuild or len(self.ready_order) != len(self.parameters):
            return False
        self.should_rebuild = False
        tensors = [self.parameters[i] for i in self.ready_order]
        bucket_indices, _ = dist._compute_bucket_assignment_by_size(
            tensors, [self.first_bucket_bytes_cap, self.bucket_bytes_cap], None, self.ready_order)
        self._install_buckets(bucket_indices)
        return True

    def prepare_for_backward(self, outputs):
        if self.expect_hooks:
            raise RuntimeError(
                "Expected to have finished reduction in the prior iteration before starting a new one. "
                "This error indicates that your module has parameters that were not used in producing loss. "
                "You can enable unused parameter detection by passing the keyword argument "
                "`find_unused_parameters=True` to `torch.nn.parallel.DistributedDataParallel`, and by \n"
                "making sure all `forward` function outputs participate in calculating loss.")
        self.expect_hooks = True
        self.next_bucket = 0
        self.locally_used = [False] * len(self.parameters)
        for bucket in self.buckets:
            bucket.pending = len(bucket.indices)
            bucket.work = None
        if self.find_unused_parameters:
            reached = dist._parameters_reached(outputs, self.parameters)
            for index, used in enumerate(reached):
                if not used:
                    self._mark_ready(index, from_hook=False)

    def _mark_ready(self, index, from_hook):
        if not self.expect_hooks:
            return  # no_sync(), or a backward DDP's forward did not prepare
        if from_hook and self.should_rebuild:
            self.ready_order.append(index)
        b, position = self.location[index]
        bucket = self.buckets[b]
        parameter = self.parameters[index]
        view = bucket.view_of(position, parameter)
        with torch.no_grad():
            if from_hook and parameter.grad is not None:
                self.locally_used[index] = True
                # Divided in the bucket, as the reducer's mul_out(bucket, grad, 1 / world_size).
                view.copy_(parameter.grad.reshape(-1))
                view.mul_(1.0 / self.world_size)
            else:
                view.zero_()
        bucket.pending -= 1
        while self.next_bucket < len(self.buckets) and self.buckets[self.next_bucket].pending == 0:
            launched = self.buckets[self.next_bucket]
            launched.work = self.process_group.allreduce(launched.flat, int(dist.ReduceOp.SUM))
            self.next_bucket += 1
        if self.next_bucket == len(self.buckets):
            self._finalize()

    def _finalize(self):
        self.expect_hooks = False
        globally_used = None
        if self.find_unused_parameters:
            used = torch.tensor([1 if u else 0 for u in self.locally_used], dtype=torch.int32)
            self.process_group.allreduce(used, int(dist.ReduceOp.SUM)).wait()
            globally_used = used.tolist()
        with torch.no_grad():
            for bucket in self.buckets:
                bucket.work.wait()
                for position, index in enumerate(bucket.indices):
                    parameter = self.parameters[index]
                    averaged = bucket.view_of(position, parameter).view(parameter.shape)
                    if parameter.grad is not None:
                        parameter.grad.copy_(averaged)
                    elif globally_used is not None and globally_used[index]:
                        # Unused here but used on another rank: the average is its gradient.
                        parameter.grad = averaged.clone()


class DistributedDataParallel(Module):
    _active_ddp_module = None

    def __init__(self, module, device_ids=None, output_device=None, dim=0, broadcast_buffers=True, init_sync=True,
                 process_group=None, bucket_cap_mb=None, find_unused_parameters=False, check_reduction=False,
                 gradient_as_bucket_view=False, static_graph=False, delay_all_reduce_named_params=None,
                 param_to_hook_all_reduce=None, mixed_precision=None, device_mesh=None, skip_all_reduce_unused_params=False):
        super().__init__()
        self.module = module
        self.process_group = dist.distributed_c10d._get_default_group() if process_group is None else process_group
        self.device_ids = device_ids
        self.output_device = output_device
        self.dim = dim
        self.broadcast_buffers = broadcast_buffers
        self.find_unused_parameters = find_unused_parameters
        self.gradient_as_bucket_view = gradient_as_bucket_view
        self.static_graph = static_graph
        self.require_backward_grad_sync = True
        self.require_forward_param_sync = True
        parameters = [p for p in module.parameters() if p.requires_grad]
        if not parameters:
            raise RuntimeError(
                "DistributedDataParallel is not needed when a module doesn't have any parameter that requires a gradient.")
        self.bucket_bytes_cap_default = bucket_cap_mb is None
        if bucket_cap_mb is None:
            bucket_cap_mb = 25
        self.bucket_bytes_cap = int(bucket_cap_mb * 1024 * 1024)
        self.modules_buffers = list(module.buffers())
        if init_sync:
            self._sync_module_states()
        # Before the first backward the order gradients come in is unknown: without unused
        # parameter search, one bucket of everything (rebuilt after it); with it, buckets by size
        # in reverse definition order, the first-defined parameters in a small last bucket.
        if static_graph or not find_unused_parameters:
            limits = [sys.maxsize]
        elif self.bucket_bytes_cap_default:
            limits = [dist._DEFAULT_FIRST_BUCKET_BYTES, self.bucket_bytes_cap]
        else:
            limits = [self.bucket_bytes_cap]
        bucket_indices, _ = dist._compute_bucket_assignment_by_size(parameters, limits)
        first_bucket_bytes = dist._DEFAULT_FIRST_BUCKET_BYTES if self.bucket_bytes_cap_default else self.bucket_bytes_cap
        self.reducer = _Reducer(parameters, list(reversed(bucket_indices)), self.process_group, find_unused_parameters,
                                self.bucket_bytes_cap, first_bucket_bytes, static_graph or not find_unused_parameters)

    # PyTorch broadcasts module states and buffers in 250 MB buckets (_broadcast_coalesced); a
    # broadcast per tensor gives the same values.
    def _sync_module_states(self):
        with torch.no_grad():
            for tensor in list(self.module.parameters()) + self.modules_buffers:
                self.process_group.broadcast(tensor.detach(), 0).wait()

    def _sync_buffers(self):
        with torch.no_grad():
            for buffer in self.modules_buffers:
                self.process_group.broadcast(buffer.detach(), 0).wait()

    def forward(self, *inputs, **kwargs):
        self._pre_forward()
        # Capture does not resume inside `try`: the rest of this frame runs eagerly and the
        # wrapped module's forward is a frame of its own, compiled while this module is active,
        # as under PyTorch's _inside_ddp_forward.
        try:
            self._enter_ddp_forward()
            output = self.module(*inputs, **kwargs)
        finally:
            DistributedDataParallel._active_ddp_module = None
        return self._post_forward(output)

    @classmethod
    def _get_active_ddp_module(cls):
        return cls._active_ddp_module

    # While a module is active, torch.compile splits the graphs it captures at the module's bucket
    # boundaries (DDPOptimizer, torch._dynamo.config.optimize_ddp).
    @torch.compiler.disable
    def _enter_ddp_forward(self):
        DistributedDataParallel._active_ddp_module = self

    # The reducer's bookkeeping runs eagerly around the module, also when DDP is compiled: the
    # graph breaks there and torch.compile captures the wrapped module alone, as Dynamo does.
    @torch.compiler.disable
    def _pre_forward(self):
        self._grad_sync = torch.is_grad_enabled() and self.require_backward_grad_sync
        if self._grad_sync:
            self.reducer.rebuild_buckets()
        if self.broadcast_buffers and self.modules_buffers and self.require_forward_param_sync:
            self._sync_buffers()

    @torch.compiler.disable
    def _post_forward(self, output):
        if self._grad_sync:
            self.require_forward_param_sync = True
            self.reducer.prepare_for_backward(_tensors_in(output) if self.find_unused_parameters else [])
        else:
            self.require_forward_param_sync = False
        return output

    @contextmanager
    def no_sync(self):
        old_require_backward_grad_sync = self.require_backward_grad_sync
        self.require_backward_grad_sync = False
        try:
            yield
        finally:
            self.require_backward_grad_sync = old_require_backward_grad_sync


def _tensors_in(value):
    """The tensors of a forward's output (a tensor, or lists, tuples and dicts of them)."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for item in value for t in _tensors_in(item)]
    if isinstance(value, dict):
        return [t for item in value.values() for t in _tensors_in(item)]
    return []
