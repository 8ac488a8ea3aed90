# A small transformer text classifier trained in bfloat16 mixed precision: the forward pass and
# the loss under torch.autocast("cpu"), the backward outside it, gradient clipping and AdamW with
# a linear warm-up, compiled by inductor; evaluation under autocast in inference mode.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self, vocab=50, width=32, heads=4, classes=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.position = nn.Parameter(torch.zeros(1, 12, width))
        self.encoder = nn.TransformerEncoderLayer(width, heads, dim_feedforward=64, dropout=0.0, batch_first=True)
        self.norm = nn.LayerNorm(width)
        self.head = nn.Linear(width, classes)

    def forward(self, tokens):
        h = self.encoder(self.embed(tokens) + self.position[:, : tokens.size(1)])
        return self.head(self.norm(h.mean(dim=1)))


torch.manual_seed(5)
model = Classifier()
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=0.01)
warmup = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: min(1.0, (step + 1) / 3))
compiled = torch.compile(model)
tokens = torch.randint(0, 50, (6, 12))
labels = torch.randint(0, 3, (6,))
for step in range(4):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        logits = compiled(tokens)
        loss = F.cross_entropy(logits, labels)
    optimizer.zero_grad()
    loss.backward()
    norm = nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    warmup.step()
    # bfloat16 kernels round differently from PyTorch's (both within the accuracy rules' bf16
    # tolerance): one decimal of the loss is what the two agree on.
    print(step, logits.dtype, loss.dtype, f"{loss.item():.1f}", f"{norm.item():.0f}")
model.eval()
with torch.inference_mode(), torch.autocast("cpu"):
    predictions = compiled(tokens).argmax(dim=-1)
print(predictions.dtype, predictions.shape, model.head.weight.dtype)
