# nn.TransformerDecoderLayer / TransformerDecoder / nn.Transformer (post- and pre-norm, causal and padding
# masks), padding modules, RMSNorm, Dropout2d, Softmin, LogSigmoid, Threshold: values and reprs.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
layer = nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, batch_first=True)
print(layer)
tgt, memory = torch.randn(2, 4, 8), torch.randn(2, 5, 8)
causal = nn.Transformer.generate_square_subsequent_mask(4)
print(causal)
print(layer(tgt, memory)[0, :2, :4].mul(1e4).round().div(1e4))
print(layer(tgt, memory, tgt_mask=causal, tgt_is_causal=True)[0, :2, :4].mul(1e4).round().div(1e4))
decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, norm_first=True), 2, nn.LayerNorm(8))
padding = torch.tensor([[False, False, False, False, True], [False] * 5])
out = decoder(tgt.transpose(0, 1), memory.transpose(0, 1), tgt_mask=causal, memory_key_padding_mask=padding)
print(out.shape, out[0, 0, :4].mul(1e4).round().div(1e4))
model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=16, dropout=0.0,
                       batch_first=True)
y = model(torch.randn(2, 5, 8), tgt, tgt_mask=causal)
y.sum().backward()
print(y.shape, y[1, -1, :4].mul(1e4).round().div(1e4), model.encoder.layers[0].linear1.weight.grad.abs().sum().mul(1e3).round())
print(sum(p.numel() for p in model.parameters()), [n for n, _ in model.named_parameters()][:6])
x = torch.arange(8.).reshape(1, 1, 2, 4)
for module in [nn.ZeroPad2d(1), nn.ZeroPad1d((1, 2)), nn.ConstantPad2d(2, 3.5), nn.ReflectionPad2d((1, 1, 0, 1)),
               nn.ReplicationPad2d((1, 0, 1, 0)), nn.CircularPad2d(1)]:
    print(module, module(x)[0, 0])
norm = nn.RMSNorm(4)
print(norm, nn.RMSNorm([2, 4], eps=1e-6, elementwise_affine=False), norm(torch.randn(3, 4)), F.rms_norm(x, (4,)))
torch.manual_seed(3)
d2 = nn.Dropout2d(0.5)
print(d2, d2(torch.ones(2, 3, 2, 2))[:, :, 0, 0], nn.Softmin(1)(torch.tensor([[1., 2., 3.]])), nn.LogSigmoid()(torch.tensor([0., 2.])),
      nn.Threshold(0.5, -1.0)(torch.tensor([0.2, 0.7])), nn.Threshold(0.1, 20.))
