# A small vision transformer: patches cut by a strided Conv2d, a learned class token and position
# embedding, pre-norm encoder layers, classification from the class token; AdamW, compiled.
import torch
import torch.nn as nn
import torch.nn.functional as F


class PatchEmbedding(nn.Module):
    def __init__(self, channels=3, patch=4, dim=32):
        super().__init__()
        self.proj = nn.Conv2d(channels, dim, kernel_size=patch, stride=patch)

    def forward(self, images):
        return self.proj(images).flatten(2).transpose(1, 2)


class VisionTransformer(nn.Module):
    def __init__(self, image=16, patch=4, dim=32, depth=2, heads=4, classes=5):
        super().__init__()
        self.patches = PatchEmbedding(3, patch, dim)
        count = (image // patch) ** 2
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.position = nn.Parameter(torch.randn(1, count + 1, dim) * 0.02)
        layer = nn.TransformerEncoderLayer(dim, heads, dim_feedforward=64, dropout=0.0, batch_first=True, norm_first=True, activation="gelu")
        self.encoder = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, images):
        tokens = self.patches(images)
        cls = self.cls_token.expand(tokens.shape[0], -1, -1)
        tokens = torch.cat([cls, tokens], dim=1) + self.position
        return self.head(self.norm(self.encoder(tokens))[:, 0])


torch.manual_seed(3)
model = VisionTransformer()
print(sum(p.numel() for p in model.parameters()))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.05)
compiled = torch.compile(model, backend="aot_eager")
images = torch.randn(6, 3, 16, 16)
labels = torch.tensor([0, 1, 2, 3, 4, 0])
for step in range(3):
    logits = compiled(images)
    loss = F.cross_entropy(logits, labels, label_smoothing=0.1)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}", logits.argmax(-1).tolist())
