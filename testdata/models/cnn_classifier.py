# A small residual CNN on 3x16x16 images: conv-bn-relu stem, max pooling, two residual blocks
# (one downsampling through a strided 1x1 projection), global average pooling and a linear head;
# trained for a few steps with SGD momentum and a cosine schedule under torch.compile, then
# evaluated with the running statistics of its batch norms.
import torch
import torch.nn as nn
import torch.nn.functional as F


class ResidualBlock(nn.Module):
    def __init__(self, channels_in, channels_out, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(channels_in, channels_out, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels_out)
        self.conv2 = nn.Conv2d(channels_out, channels_out, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels_out)
        self.shortcut = nn.Sequential()
        if stride != 1 or channels_in != channels_out:
            self.shortcut = nn.Sequential(nn.Conv2d(channels_in, channels_out, 1, stride=stride, bias=False),
                                          nn.BatchNorm2d(channels_out))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + self.shortcut(x))


class SmallResNet(nn.Module):
    def __init__(self, classes=5):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8), nn.ReLU(),
                                  nn.MaxPool2d(2))
        self.layer1 = ResidualBlock(8, 8, 1)
        self.layer2 = ResidualBlock(8, 16, 2)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(16, classes))

    def forward(self, images):
        return self.head(self.pool(self.layer2(self.layer1(self.stem(images)))))


torch.manual_seed(3)
images = torch.randn(8, 3, 16, 16)
labels = torch.randint(0, 5, (8,))
model = SmallResNet()
print(sum(p.numel() for p in model.parameters()), model.layer2.shortcut)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
schedule = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4)
compiled = torch.compile(model)
for step in range(4):
    model.train()
    loss = F.cross_entropy(compiled(images), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    schedule.step()
    print(step, f"{loss.item():.4f}", f"{schedule.get_last_lr()[0]:.4f}")
print(model.stem[1].num_batches_tracked, model.layer1.bn1.running_mean[:3])
model.eval()
with torch.no_grad():
    logits = compiled(images)
print(logits.argmax(dim=1).tolist(), f"{logits.abs().sum().item():.3f}")
