# nn.LSTM/GRU/RNN (layers, batch_first, bidirectional, unbatched input, initial states) and the
# cells, computed as ATen computes them; the binary cross entropy family and the L1 losses; a
# compiled function that reads an LSTM runs eagerly, as Dynamo skips RNN modules.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
lstm = nn.LSTM(3, 4, num_layers=2, batch_first=True)
out, (h, c) = lstm(torch.randn(2, 5, 3))
print(lstm, [name for name, _ in lstm.named_parameters()][:5])
print(out[:, -1], h.shape, c.shape)
gru = nn.GRU(3, 2, bidirectional=True)
h0 = torch.randn(2, 4, 2)
o, hn = gru(torch.randn(6, 4, 3), h0)
print(gru, o.shape, hn[1])
rnn = nn.RNN(2, 3, nonlinearity="relu", bias=False)
print(rnn, rnn(torch.randn(4, 2))[0])
cell = nn.GRUCell(3, 2)
print(cell(torch.randn(2, 3), torch.zeros(2, 2)))
lc = nn.LSTMCell(2, 2)
print(lc(torch.randn(1, 2))[0])
probs = torch.rand(3, 4)
target = (torch.rand(3, 4) > 0.5).float()
logits = torch.randn(3, 4, requires_grad=True)
print(F.binary_cross_entropy(probs, target), nn.BCELoss(reduction="sum")(probs, target))
loss = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1.0, 2.0, 0.5, 1.0]))(logits, target)
loss.backward()
print(f"{loss.item():.4f}", logits.grad[0])
print(F.l1_loss(probs, target), F.smooth_l1_loss(probs * 3, target, beta=0.5), nn.HuberLoss(delta=0.3)(probs, target))
try:
    F.binary_cross_entropy(probs, target[:2])
except ValueError as e:
    print("ValueError:", e)
def run(x):
    return lstm(x)[0].sum() * 2
print(f"{torch.compile(run, backend='eager')(torch.ones(1, 2, 3)).item():.4f}")
