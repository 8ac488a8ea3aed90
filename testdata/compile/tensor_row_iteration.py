# Iterating a tensor inside a compiled function: a for loop over its rows and the unpacking of a
# tensor into names read its first size, not its data: Dynamo traces one getitem per row (no graph
# break), and a tensor with another number of rows recompiles.
import torch


@torch.compile(backend="eager")
def weighted_rows(x):
    total = torch.zeros_like(x[0])
    for i, row in enumerate(x):
        total = total + row * (i + 1)
    first, second = x[:2]
    return total + first * second


print(weighted_rows(torch.arange(6.0).view(3, 2)))
print(weighted_rows(torch.arange(8.0).view(4, 2)))
qkv = torch.randn(3, 2, 4)


@torch.compile(backend="aot_eager")
def attention_scores(qkv):
    q, k, v = qkv
    return (q @ k.t()).softmax(-1) @ v


print(attention_scores(qkv).shape)
