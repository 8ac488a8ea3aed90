# A small U-Net for binary segmentation: two encoder stages (conv-BN-ReLU twice, max pooling), a
# bottleneck, decoder stages that upsample with ConvTranspose2d and concatenate the skip
# connection, a 1x1 head; BCEWithLogits plus a soft Dice loss; Adam, compiled by inductor.
import torch
import torch.nn as nn
import torch.nn.functional as F


def double_conv(cin, cout):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
        nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class UNet(nn.Module):
    def __init__(self, channels=1, base=4):
        super().__init__()
        self.down1 = double_conv(channels, base)
        self.down2 = double_conv(base, base * 2)
        self.bottleneck = double_conv(base * 2, base * 4)
        self.up2 = nn.ConvTranspose2d(base * 4, base * 2, kernel_size=2, stride=2)
        self.dec2 = double_conv(base * 4, base * 2)
        self.up1 = nn.ConvTranspose2d(base * 2, base, kernel_size=2, stride=2)
        self.dec1 = double_conv(base * 2, base)
        self.head = nn.Conv2d(base, 1, kernel_size=1)

    def forward(self, x):
        s1 = self.down1(x)
        s2 = self.down2(F.max_pool2d(s1, 2))
        b = self.bottleneck(F.max_pool2d(s2, 2))
        d2 = self.dec2(torch.cat([self.up2(b), s2], dim=1))
        d1 = self.dec1(torch.cat([self.up1(d2), s1], dim=1))
        return self.head(d1)


def dice_loss(logits, target, eps=1.0):
    probs = torch.sigmoid(logits)
    inter = (probs * target).sum(dim=(1, 2, 3))
    total = probs.sum(dim=(1, 2, 3)) + target.sum(dim=(1, 2, 3))
    return (1 - (2 * inter + eps) / (total + eps)).mean()


torch.manual_seed(6)
model = UNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
compiled = torch.compile(model)
images = torch.randn(2, 1, 16, 16)
yy, xx = torch.meshgrid(torch.arange(16.0), torch.arange(16.0), indexing="ij")
masks = (((yy - 8) ** 2 + (xx - 8) ** 2) < 20).float().expand(2, 1, 16, 16)
for step in range(3):
    logits = compiled(images)
    loss = F.binary_cross_entropy_with_logits(logits, masks) + dice_loss(logits, masks)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}", logits.shape)
model.eval()
with torch.no_grad():
    pred = compiled(images) > 0
print(pred.float().mean().item() < 1.0, model.up2)
