# A BERT-style sentence classifier on nn.TransformerEncoderLayer: token, position and segment
# embeddings, a 2-layer post-norm encoder (gelu, dropout 0.1, batch_first) with a key-padding
# mask, the first token pooled through tanh, SGD with momentum and a LinearLR warm-up, compiled
# with aot_eager (dropout drawn by the eager generator), then evaluation of the uncompiled model
# under no_grad.
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD, CLS = 0, 1


class BertClassifier(nn.Module):
    def __init__(self, vocab=50, width=16, heads=4, layers=2, length=12, classes=3):
        super().__init__()
        self.tokens = nn.Embedding(vocab, width, padding_idx=PAD)
        self.positions = nn.Embedding(length, width)
        self.segments = nn.Embedding(2, width)
        self.norm = nn.LayerNorm(width)
        block = nn.TransformerEncoderLayer(width, heads, dim_feedforward=4 * width, dropout=0.1, activation="gelu",
                                           batch_first=True)
        self.encoder = nn.TransformerEncoder(block, layers)
        self.pool = nn.Linear(width, width)
        self.classify = nn.Linear(width, classes)

    def forward(self, ids, segments):
        positions = torch.arange(ids.size(1)).unsqueeze(0)
        x = self.norm(self.tokens(ids) + self.positions(positions) + self.segments(segments))
        x = self.encoder(x, src_key_padding_mask=ids == PAD)
        return self.classify(torch.tanh(self.pool(x[:, 0])))


torch.manual_seed(21)
ids = torch.randint(2, 50, (6, 12))
ids[:, 0] = CLS
for row, length in enumerate([12, 9, 7, 12, 5, 10]):
    ids[row, length:] = PAD
segments = (torch.arange(12) >= 6).long().expand(6, 12)
labels = torch.tensor([0, 1, 2, 1, 0, 2])
model = BertClassifier()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
warmup = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.25, total_iters=3)
compiled = torch.compile(model, backend="aot_eager")
for step in range(5):
    model.train()
    loss = F.cross_entropy(compiled(ids, segments), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    warmup.step()
    print(step, f"{loss.item():.4f}", [round(lr, 6) for lr in warmup.get_last_lr()])
model.eval()
with torch.no_grad():
    print(model(ids, segments).argmax(-1).tolist())
