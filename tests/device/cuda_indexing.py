# The index-driven ops on CUDA (gather, scatter, index_select, embedding and its backward,
# index_add, cat, stack, tril, arange, nll_loss), eagerly and compiled, printed the same under
# Kiln and PyTorch (tests/device/compare). Sums that atomics reorder are rounded.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
a = torch.randn(4, 6).cuda()
idx = torch.tensor([[0, 5, 2], [1, 1, 4], [3, 0, 0], [5, 2, 1]]).cuda()
print(torch.gather(a, 1, idx))
print(torch.gather(a.t(), 0, idx.t()[:, :3]))
print(torch.index_select(a, 0, torch.tensor([3, 0, 3]).cuda()))
print(torch.index_select(a, 1, torch.tensor([5, 1], dtype=torch.int32).cuda()))
print(a.scatter(1, idx, 7.5))
print(torch.zeros(4, 6, device="cuda").scatter_add(1, idx, torch.ones(4, 3, device="cuda")))
print(torch.ones(5, 6, device="cuda").index_add(0, torch.tensor([4, 0, 4, 2]).cuda(), a, alpha=2).round(decimals=4))
w = torch.randn(10, 3).cuda().requires_grad_()
tokens = torch.tensor([[1, 2, 1], [9, 0, 1]]).cuda()
e = F.embedding(tokens, w)
print(e)
(e * torch.arange(18.0, device="cuda").view(2, 3, 3)).sum().backward()
print(w.grad.round(decimals=4))
pad = torch.nn.Embedding(10, 3, padding_idx=1).cuda()
pad(tokens).sum().backward()
print(pad.weight.grad)
print(torch.cat([a, a[:2] * 2], 0), torch.cat([a[:, :2], a.t()[:2].t()], 1))
print(torch.stack([a[0], a[1]], 1))
print(torch.ones(5, 5, device="cuda").tril(), a.triu(1))
print(torch.arange(5, device="cuda"), torch.arange(1.0, 3.0, 0.5, device="cuda"))
logits = torch.randn(6, 5).cuda().requires_grad_()
target = torch.tensor([0, 4, 2, 2, 1, 3]).cuda()
loss = F.cross_entropy(logits, target)
loss.backward()
print(loss, logits.grad)
print(F.cross_entropy(logits, target, reduction="sum", ignore_index=2))


@torch.compile
def masked_attention_scores(q, k, tokens, w):
    t = q.shape[0]
    scores = (q @ k.t()).masked_fill(~torch.ones(t, t, dtype=torch.bool, device=q.device).tril(), float("-inf"))
    return scores.softmax(-1) + torch.arange(t, device=q.device), F.embedding(tokens, w)


q, k = torch.randn(4, 8).cuda(), torch.randn(4, 8).cuda()
print(masked_attention_scores(q, k, tokens, w.detach()))
