# Word2vec skip-gram with negative sampling: centre and context embedding tables, positive pairs
# from a sliding window, negatives drawn with torch.multinomial from the unigram^0.75
# distribution, the logsigmoid objective; SparseAdam-free plain SGD, compiled.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SkipGram(nn.Module):
    def __init__(self, vocab, dim=16):
        super().__init__()
        self.centre = nn.Embedding(vocab, dim)
        self.context = nn.Embedding(vocab, dim)
        nn.init.uniform_(self.centre.weight, -0.5 / dim, 0.5 / dim)
        nn.init.zeros_(self.context.weight)

    def forward(self, centre, context, negatives):
        c = self.centre(centre)
        pos = (c * self.context(context)).sum(-1)
        neg = torch.bmm(self.context(negatives), c.unsqueeze(2)).squeeze(2)
        return -(F.logsigmoid(pos) + F.logsigmoid(-neg).sum(-1)).mean()


torch.manual_seed(17)
corpus = torch.randint(0, 30, (200,))
counts = torch.zeros(30).index_add(0, corpus, torch.ones(200))
noise = counts.pow(0.75)
noise = noise / noise.sum()
pairs = [(corpus[i].item(), corpus[i + d].item()) for i in range(2, 198) for d in (-2, -1, 1, 2)]
centre = torch.tensor([p[0] for p in pairs])
context = torch.tensor([p[1] for p in pairs])
model = SkipGram(30)
opt = torch.optim.SGD(model.parameters(), lr=1.0)
compiled = torch.compile(model)
for epoch in range(3):
    negatives = torch.multinomial(noise, centre.shape[0] * 5, replacement=True).view(-1, 5)
    loss = compiled(centre, context, negatives)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, f"{loss.item():.5f}")
print(model.centre.weight[:2, :4])
