# A graph neural network written with scatter operations: messages along edges gathered by
# index_select, summed per node with index_add, degree-normalised with scatter_add, two rounds of
# message passing, mean-pooled per graph by a membership matrix, trained compiled with SGD.
import torch
import torch.nn as nn
import torch.nn.functional as F


class MessagePassing(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.message = nn.Linear(2 * width, width)
        self.update = nn.Linear(2 * width, width)

    def forward(self, h, src, dst):
        messages = F.relu(self.message(torch.cat([h.index_select(0, src), h.index_select(0, dst)], dim=-1)))
        summed = torch.zeros_like(h).index_add(0, dst, messages)
        degree = torch.zeros(h.size(0)).scatter_add(0, dst, torch.ones(dst.size(0)))
        mean = summed / degree.clamp(min=1.0).unsqueeze(-1)
        return torch.tanh(self.update(torch.cat([h, mean], dim=-1)))


class GNN(nn.Module):
    def __init__(self, features=5, width=12, classes=2):
        super().__init__()
        self.encode = nn.Linear(features, width)
        self.layers = nn.ModuleList([MessagePassing(width), MessagePassing(width)])
        self.classify = nn.Linear(width, classes)

    def forward(self, x, src, dst, membership):
        h = self.encode(x)
        for layer in self.layers:
            h = h + layer(h, src, dst)
        pooled = membership @ h / membership.sum(dim=1, keepdim=True)
        return self.classify(pooled)


torch.manual_seed(11)
nodes, edges, graphs = 9, 20, 3
x = torch.randn(nodes, 5)
src = torch.randint(0, nodes, (edges,))
dst = torch.randint(0, nodes, (edges,))
membership = (torch.arange(nodes).unsqueeze(0) % graphs == torch.arange(graphs).unsqueeze(1)).float()
labels = torch.tensor([0, 1, 1])
model = GNN()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
compiled = torch.compile(model)
for epoch in range(5):
    loss = F.cross_entropy(compiled(x, src, dst, membership), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, f"{loss.item():.4f}")
print(compiled(x, src, dst, membership).argmax(dim=-1).tolist())
