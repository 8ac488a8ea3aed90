# nn pieces real models use: PixelShuffle/Unshuffle, InstanceNorm1d/2d (running stats), F.unfold/fold and
# Unfold/Fold, Bilinear, EmbeddingBag (sum/mean/max, offsets, padding_idx), pad_sequence, weight_norm,
# margin/triplet losses, PairwiseDistance; CyclicLR, MultiplicativeLR, ChainedScheduler. (EmbeddingBag's
# grad_fn is EmbeddingBagBackward0 in PyTorch, index_add's here: its results are printed detached.)
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pad_sequence
torch.manual_seed(0)
x = torch.randn(2, 8, 3, 3)
ps = nn.PixelShuffle(2); pu = nn.PixelUnshuffle(2)
print(ps, ps(x).shape, torch.equal(pu(ps(x)), x), ps(x)[0, 0])
inorm = nn.InstanceNorm2d(8, affine=True, track_running_stats=True)
print(inorm, inorm(x)[1, 2, 0], inorm.running_mean[:3], inorm(x[0]).shape)
print(nn.InstanceNorm1d(3)(torch.randn(2, 3, 5))[0])
img = torch.arange(2 * 3 * 5 * 5, dtype=torch.float32).view(2, 3, 5, 5)
cols = F.unfold(img, kernel_size=(2, 3), padding=1, stride=2)
print(cols.shape, cols[0, :4, :5])
back = F.fold(cols, (5, 5), kernel_size=(2, 3), padding=1, stride=2)
print(back.shape, back[1, 2])
print(nn.Unfold(3)(torch.randn(1, 2, 4, 4)).shape, nn.Fold((4, 4), 2)(torch.randn(1, 8, 9)).shape, nn.Fold(4, 2))
bl = nn.Bilinear(4, 5, 3)
print(bl, bl(torch.randn(6, 4), torch.randn(6, 5)))
eb = nn.EmbeddingBag(10, 3, mode="sum")
print(eb, eb(torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]), torch.tensor([0, 4])).detach())
print(nn.EmbeddingBag(10, 3)(torch.tensor([[1, 2], [3, 3]])).detach(), F.embedding_bag(torch.tensor([1, 2, 3]), eb.weight, torch.tensor([0, 1]), mode="max").detach())
print(F.embedding_bag(torch.tensor([1, 2, 3, 0]), eb.weight, torch.tensor([0, 2]), mode="mean", padding_idx=0).detach())
seqs = [torch.ones(2, 2), torch.full((3, 2), 2.), torch.zeros(1, 2)]
print(pad_sequence(seqs, batch_first=True, padding_value=-1), pad_sequence(seqs).shape, pad_sequence(seqs, padding_side="left", batch_first=True)[2])
lin = nn.utils.weight_norm(nn.Linear(4, 3))
print(lin.weight_g.shape, lin.weight_v.shape, sorted(n for n, _ in lin.named_parameters()))
out = lin(torch.randn(2, 4)); out.sum().backward(); print(out, lin.weight_g.grad.view(-1))
nn.utils.remove_weight_norm(lin); print(sorted(n for n, _ in lin.named_parameters()))
print(F.triplet_margin_loss(torch.randn(4, 3), torch.randn(4, 3), torch.randn(4, 3)), nn.MarginRankingLoss(0.5)(torch.randn(4), torch.randn(4), torch.tensor([1., -1., 1., -1.])))
print(nn.PairwiseDistance()(torch.randn(2, 3), torch.randn(2, 3)))
opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1, momentum=0.9)
sch = torch.optim.lr_scheduler.CyclicLR(opt, 0.01, 0.1, step_size_up=3, mode="triangular2")
lrs = []
for _ in range(10):
    opt.step(); sch.step(); lrs.append((round(sch.get_last_lr()[0], 6), round(opt.param_groups[0]["momentum"], 6)))
print(lrs)
opt = torch.optim.Adam([torch.zeros(1, requires_grad=True)], lr=0.1)
s1 = torch.optim.lr_scheduler.ExponentialLR(opt, 0.9); s2 = torch.optim.lr_scheduler.MultiplicativeLR(opt, lambda e: 0.95)
ch = torch.optim.lr_scheduler.ChainedScheduler([s1, s2])
for _ in range(3):
    opt.step(); ch.step()
print(ch.get_last_lr(), torch.optim.lr_scheduler.CyclicLR(opt, 0.001, 0.01, mode="exp_range", gamma=0.99).get_last_lr(), opt.param_groups[0]["betas"])

class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.InstanceNorm2d(8, affine=True)
        self.shuffle = nn.PixelShuffle(2)
        self.bag = nn.EmbeddingBag(10, 4, mode="mean")
        self.bil = nn.Bilinear(4, 4, 2)
    def forward(self, x, ids):
        y = self.shuffle(self.norm(x))
        cols = F.unfold(y, 2, stride=2)
        z = F.fold(cols, (6, 6), 2, stride=2)
        e = self.bag(ids)
        return z.mean((1, 2, 3)) + self.bil(e, e).sum(-1)
m = M()
x = torch.randn(2, 8, 3, 3); ids = torch.tensor([[1, 2, 3], [4, 5, 6]])
ref = m(x, ids)
for backend in ["eager", "aot_eager", "inductor"]:
    torch._dynamo.reset()
    out = torch.compile(m, backend=backend)(x, ids)
    out.sum().backward()
    print(backend, torch.allclose(out, ref, atol=1e-5))
