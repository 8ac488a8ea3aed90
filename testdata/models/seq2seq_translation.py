# A small encoder-decoder translator written by hand: a bidirectional GRU encoder over padded
# source sentences, a decoder that attends to the encoder states with a padding mask
# (masked_fill before softmax) and is fed the gold prefix (teacher forcing), label-smoothed
# cross entropy ignoring padding, Adam with a MultiStepLR, compiled, then greedy decoding.
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD, BOS, EOS = 0, 1, 2


class Encoder(nn.Module):
    def __init__(self, vocab, width):
        super().__init__()
        self.embed = nn.Embedding(vocab, width, padding_idx=PAD)
        self.rnn = nn.GRU(width, width // 2, batch_first=True, bidirectional=True)

    def forward(self, src):
        states, _ = self.rnn(self.embed(src))
        return states


class AttentionDecoder(nn.Module):
    def __init__(self, vocab, width):
        super().__init__()
        self.embed = nn.Embedding(vocab, width, padding_idx=PAD)
        self.query = nn.Linear(width, width, bias=False)
        self.mix = nn.Linear(2 * width, width)
        self.out = nn.Linear(width, vocab)

    def forward(self, prefix, memory, src_padding):
        h = self.embed(prefix)
        scores = self.query(h) @ memory.transpose(1, 2) / memory.size(-1) ** 0.5
        scores = scores.masked_fill(src_padding.unsqueeze(1), float("-inf"))
        context = torch.softmax(scores, dim=-1) @ memory
        return self.out(torch.tanh(self.mix(torch.cat([h, context], dim=-1))))


class Translator(nn.Module):
    def __init__(self, src_vocab=20, tgt_vocab=22, width=16):
        super().__init__()
        self.encoder = Encoder(src_vocab, width)
        self.decoder = AttentionDecoder(tgt_vocab, width)

    def forward(self, src, prefix):
        return self.decoder(prefix, self.encoder(src), src == PAD)


torch.manual_seed(12)
src = torch.randint(3, 20, (4, 7))
src[1, 5:] = PAD
src[3, 4:] = PAD
tgt = torch.cat([torch.full((4, 1), BOS), (src[:, :6] % 19) + 3, torch.full((4, 1), EOS)], dim=1)
tgt[1, 5:] = PAD
model = Translator()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
schedule = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[2, 4], gamma=0.5)
compiled = torch.compile(model)
for step in range(5):
    logits = compiled(src, tgt[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, 22), tgt[:, 1:].reshape(-1), ignore_index=PAD, label_smoothing=0.1)
    opt.zero_grad()
    loss.backward()
    opt.step()
    schedule.step()
    print(step, f"{loss.item():.4f}", schedule.get_last_lr())
with torch.no_grad():
    memory = model.encoder(src)
    prefix = torch.full((4, 1), BOS)
    for _ in range(4):
        nxt = model.decoder(prefix, memory, src == PAD)[:, -1].argmax(-1, keepdim=True)
        prefix = torch.cat([prefix, nxt], dim=1)
print(prefix.tolist())
