# A word-level LSTM language model: embedding, a 2-layer LSTM with dropout between layers
# (batch_first), the hidden state carried across batches and detached (truncated BPTT), a tied
# decoder, gradient clipping, and perplexity on held-out text in eval mode. A GRU variant runs
# the same loop, compiled with aot_eager. Dynamo does not trace RNN modules: the compiled forward
# breaks around the recurrent layer, which runs eagerly.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class RNNLanguageModel(nn.Module):
    def __init__(self, kind, vocab=40, width=16, layers=2, dropout=0.25):
        super().__init__()
        self.kind = kind
        self.embed = nn.Embedding(vocab, width)
        self.rnn = getattr(nn, kind)(width, width, num_layers=layers, dropout=dropout, batch_first=True)
        self.drop = nn.Dropout(dropout)
        self.decode = nn.Linear(width, vocab)
        self.decode.weight = self.embed.weight

    def forward(self, tokens, hidden=None):
        output, hidden = self.rnn(self.drop(self.embed(tokens)), hidden)
        return self.decode(self.drop(output)), hidden


def detach(hidden):
    return tuple(h.detach() for h in hidden) if isinstance(hidden, tuple) else hidden.detach()


torch.manual_seed(8)
corpus = torch.randint(0, 40, (2, 60))
held_out = torch.randint(0, 40, (2, 20))
for kind in ["LSTM", "GRU"]:
    model = RNNLanguageModel(kind)
    print(model.rnn, sum(p.numel() for p in model.parameters()))
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    step = torch.compile(model, backend="aot_eager")
    hidden = None
    for start in range(0, 48, 12):
        x = corpus[:, start:start + 12]
        y = corpus[:, start + 1:start + 13]
        model.train()
        logits, hidden = step(x, hidden)
        hidden = detach(hidden)
        loss = F.cross_entropy(logits.reshape(-1, 40), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        opt.step()
        print(kind, start, f"{loss.item():.4f}")
    model.eval()
    with torch.no_grad():
        logits, _ = model(held_out[:, :-1])
        nll = F.cross_entropy(logits.reshape(-1, 40), held_out[:, 1:].reshape(-1))
    print(kind, f"perplexity {math.exp(nll.item()):.3f}")
