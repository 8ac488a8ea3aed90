# kiln, AOT backends (aot_eager shown; aot_eager_decomp_partition and inductor alike): tensors
# created inside the compiled graph -- torch.ones/zeros/tensor, .long()/.float()/.double()/.bool()
# of a computed value -- come out as *meta* tensors when the graph runs (as if the device of the
# fake tensors it was traced with were baked in): (a + 1).long() is returned on the meta device;
# a * torch.ones(3) fails with "Expected all tensors to be on the same device, but found at least
# two devices, meta and cpu!" (so does F.nll_loss/cross_entropy with a target made in the graph);
# torch.tensor([...]) fails with "std::get: wrong index for variant". PyTorch prints every value.
import torch


def ones_with_input(a):
    return a * torch.ones(3)


def arange_returned(a):
    return torch.arange(3) + 0


def long_of_computed(a):
    return (a + 1).long()


def literal(a):
    return torch.tensor([1.0, -2.0, 0.5])


for fn in [ones_with_input, arange_returned, long_of_computed, literal]:
    torch._dynamo.reset()
    try:
        r = torch.compile(fn, backend="aot_eager")(torch.tensor([0.5, -1.0, 2.0]))
        print(fn.__name__, r.device.type, r.tolist() if r.device.type == "cpu" else "(no values)")
    except Exception as e:
        print(fn.__name__, type(e).__name__, [l for l in str(e).split("\n") if l and "raised" not in l][0][:90])
