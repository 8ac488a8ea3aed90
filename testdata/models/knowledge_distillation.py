# Knowledge distillation: a frozen teacher in eval mode, a smaller student trained on a mix of the
# hard-label cross entropy and the KL divergence between temperature-softened distributions
# (scaled by T^2); the student compiled, the teacher under no_grad.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Student(nn.Module):
    def __init__(self, features=10, hidden=16, classes=4):
        super().__init__()
        self.hidden = nn.Linear(features, hidden)
        self.out = nn.Linear(hidden, classes)

    def forward(self, x):
        return self.out(F.relu(self.hidden(x)))


torch.manual_seed(9)
teacher = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Dropout(0.5), nn.Linear(64, 4)).eval()
for p in teacher.parameters():
    p.requires_grad_(False)
student = Student()
opt = torch.optim.Adam(student.parameters(), lr=5e-3)
compiled = torch.compile(student)
kl = nn.KLDivLoss(reduction="batchmean")
T, alpha = 3.0, 0.7
x = torch.randn(32, 10)
labels = torch.randint(0, 4, (32,))
for step in range(4):
    with torch.no_grad():
        soft = F.softmax(teacher(x) / T, dim=-1)
    logits = compiled(x)
    distill = kl(F.log_softmax(logits / T, dim=-1), soft) * T * T
    loss = alpha * distill + (1 - alpha) * F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{distill.item():.4f}", f"{loss.item():.4f}")
print((compiled(x).argmax(-1) == teacher(x).argmax(-1)).float().mean().item())
