# Models on the GPU (tests/device/compare): a transformer block with causal attention, a CNN with
# batch norm, an LSTM, and a training step of each, printing rounded losses and output sums.
# Ops Kiln has no CUDA kernel for yet run through its CPU fallback (it says which on stderr).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self, dim=32, heads=4):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(self.norm1(x)).split(c, dim=2)
        q = q.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        k = k.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        v = v.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) / (c // self.heads) ** 0.5
        mask = torch.tril(torch.ones(t, t, device=x.device)).bool()
        att = att.masked_fill(~mask, float("-inf")).softmax(-1)
        y = (att @ v).transpose(1, 2).contiguous().view(b, t, c)
        x = x + self.proj(y)
        return x + self.mlp(self.norm2(x))


def train(name, model, inputs, target, loss_fn, steps=3):
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(steps):
        loss = loss_fn(model(inputs), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(name, step, round(loss.item(), 4))


embedding = nn.Embedding(50, 32)
gpt = nn.Sequential(Block(), nn.LayerNorm(32), nn.Linear(32, 50))
tokens = torch.randint(0, 50, (2, 8))
model = nn.Sequential(embedding, gpt).cuda()
train("gpt", model, tokens.cuda(), torch.randint(0, 50, (2, 8)).cuda(),
      lambda logits, y: F.cross_entropy(logits.view(-1, 50), y.view(-1)))

# No conv bias before batch norm: its gradient is rounding noise, which Adam would turn into
# steps of either sign.
cnn = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
                    nn.Flatten(), nn.Linear(8 * 4 * 4, 10)).cuda()
images = torch.randn(4, 3, 8, 8).cuda()
train("cnn", cnn, images, torch.tensor([1, 2, 3, 4]).cuda(), F.cross_entropy)
cnn.eval()
print("cnn eval", round(cnn(images).sum().item(), 3))

lstm = nn.LSTM(6, 12, batch_first=True).cuda()
sequence = torch.randn(3, 5, 6).cuda()
output, (h, c) = lstm(sequence)
# PyTorch runs an LSTM on the GPU through cuDNN, in TF32 by default (torch.backends.cudnn.allow_tf32):
# its sums agree with float32 ones to about 1e-3 (seen: -4.8269 against Kiln's -4.8254).
print("lstm", output.shape, round(output.sum().item(), 1), round(h.sum().item(), 2))
