# nn.TransformerEncoderLayer in inference takes PyTorch's fast path (torch._transformer_encoder_layer_fwd)
# with and without masks, post- and pre-norm, relu and gelu: the same numbers as the slow path.
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(2, 5, 8)
padding = torch.tensor([[False, False, False, True, True], [False] * 5])
causal = torch.triu(torch.full((5, 5), float("-inf")), diagonal=1)
for norm_first in (False, True):
    for activation in ("relu", "gelu"):
        layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True,
                                           norm_first=norm_first, activation=activation)
        for kwargs in ({}, {"src_key_padding_mask": padding}, {"src_mask": causal},
                       {"src_mask": causal, "src_key_padding_mask": padding}):
            layer.train()
            slow = layer(x, **kwargs)
            layer.eval()
            with torch.no_grad():
                fast = layer(x, **kwargs)
            print(norm_first, activation, sorted(kwargs), torch.allclose(slow, fast, atol=1e-5),
                  fast[0, :2, :3].mul(1e3).round().div(1e3))
