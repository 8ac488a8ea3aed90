# A feature pyramid network for dense prediction: a strided conv backbone, lateral 1x1 convs, a
# top-down path that upsamples with F.interpolate (nearest) and adds, a head on the finest level
# upsampled bilinearly to the input size; trained with a cosine schedule under inductor, saved
# with torch.save mid-run, and resumed from the checkpoint into a fresh model and optimizer.
import os

import torch
import torch.nn as nn
import torch.nn.functional as F


class FeaturePyramid(nn.Module):
    def __init__(self, width=8, classes=3):
        super().__init__()
        self.stage1 = nn.Sequential(nn.Conv2d(3, width, 3, stride=2, padding=1), nn.ReLU())
        self.stage2 = nn.Sequential(nn.Conv2d(width, width * 2, 3, stride=2, padding=1), nn.ReLU())
        self.stage3 = nn.Sequential(nn.Conv2d(width * 2, width * 4, 3, stride=2, padding=1), nn.ReLU())
        self.lateral = nn.ModuleList([nn.Conv2d(c, width, 1) for c in (width, width * 2, width * 4)])
        self.smooth = nn.Conv2d(width, width, 3, padding=1)
        self.head = nn.Conv2d(width, classes, 1)
        self.upsample = nn.Upsample(scale_factor=2, mode="nearest")

    def forward(self, images):
        c1 = self.stage1(images)
        c2 = self.stage2(c1)
        c3 = self.stage3(c2)
        p3 = self.lateral[2](c3)
        p2 = self.lateral[1](c2) + F.interpolate(p3, size=c2.shape[-2:], mode="nearest")
        p1 = self.lateral[0](c1) + self.upsample(p2)
        logits = self.head(F.relu(self.smooth(p1)))
        return F.interpolate(logits, size=images.shape[-2:], mode="bilinear", align_corners=False)


def train(model, optimizer, scheduler, steps, images, labels):
    compiled = torch.compile(model)
    for _ in range(steps):
        loss = F.cross_entropy(compiled(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scheduler.step()
        print(f"{loss.item():.4f}", f"{scheduler.get_last_lr()[0]:.5f}")


torch.manual_seed(11)
images = torch.randn(2, 3, 16, 16)
labels = torch.randint(0, 3, (2, 16, 16))
model = FeaturePyramid()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=6)
train(model, optimizer, scheduler, 3, images, labels)

path = os.environ.get("TMPDIR", "/tmp") + "/feature_pyramid_" + str(os.getpid()) + ".pt"
torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "scheduler": scheduler.state_dict()},
           path)
checkpoint = torch.load(path)
os.remove(path)

resumed = FeaturePyramid()
print(resumed.load_state_dict(checkpoint["model"]))
resumed_optimizer = torch.optim.AdamW(resumed.parameters(), lr=3e-3)
resumed_optimizer.load_state_dict(checkpoint["optimizer"])
resumed_scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(resumed_optimizer, T_max=6)
resumed_scheduler.load_state_dict(checkpoint["scheduler"])
train(resumed, resumed_optimizer, resumed_scheduler, 3, images, labels)
