# nn.MultiheadAttention (weights returned or not, key padding and attention masks, batch_first)
# and nn.TransformerEncoder(Layer) (post- and pre-norm, gelu) in training, as PyTorch's slow path
# computes them; the encoder trained compiled by aot_eager, whose dropout draws from the eager
# generator.
import torch
import torch.nn as nn
torch.manual_seed(0)
mha = nn.MultiheadAttention(8, 2, batch_first=True)
x = torch.randn(2, 5, 8)
pad = torch.tensor([[False] * 5, [False, False, False, True, True]])
out, weights = mha(x, x, x, key_padding_mask=pad)
print(out[1, 0], weights[1, 2], weights.shape)
causal = nn.Transformer.generate_square_subsequent_mask(5) if hasattr(nn, "Transformer") else torch.triu(torch.full((5, 5), float("-inf")), 1)
out2, none = mha(x, x, x, attn_mask=causal, need_weights=False)
print(out2[0, 4], none)
layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.1, batch_first=True)
encoder = nn.TransformerEncoder(layer, num_layers=2)
print(encoder.layers[0].linear1.weight.sum().item() == encoder.layers[1].linear1.weight.sum().item())
y = encoder(x, src_key_padding_mask=pad)
print(y[1, 1], y.grad_fn.name())
pre = nn.TransformerEncoderLayer(8, 4, 16, dropout=0.0, activation="gelu", norm_first=True)
print(pre(x.transpose(0, 1))[2, 1])
opt = torch.optim.SGD(encoder.parameters(), lr=0.1)
step = torch.compile(encoder, backend="aot_eager")
for i in range(3):
    loss = step(x, src_key_padding_mask=pad).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(i, f"{loss.item():.4f}")
