# torch._higher_order_ops: what PyTorch's repro files reach of it.
import torch._higher_order_ops.triton_kernel_wrap as triton_kernel_wrap
