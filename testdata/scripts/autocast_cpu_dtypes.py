# What CPU autocast (bfloat16) makes of the ops kiln composes in Python and of table ops: the
# CPU's float32 list (losses, cdist, trace, reflect/replicate padding) gives float32, its lower
# precision list (matmuls, convolutions, prelu) bfloat16; a bfloat16 batch_norm with float32
# statistics stays bfloat16; the rest keep their dtype or promote.
import torch
import torch.nn.functional as F
x = torch.randn(4, 8).bfloat16(); y = torch.randn(4, 8).bfloat16(); t = torch.rand(4, 8).bfloat16()
sq = (torch.randn(4, 4) + 4 * torch.eye(4)).bfloat16()
img = torch.randn(1, 2, 4, 4).bfloat16()
cases = {"l1_loss": lambda: F.l1_loss(x, y), "smooth_l1_loss": lambda: F.smooth_l1_loss(x, y), "huber_loss": lambda: F.huber_loss(x, y),
 "bce_logits": lambda: F.binary_cross_entropy_with_logits(x, t), "bce": lambda: F.binary_cross_entropy(t, t),
 "cosine_similarity": lambda: F.cosine_similarity(x, y), "margin_ranking": lambda: F.margin_ranking_loss(x, y, torch.ones(4, 8).bfloat16()),
 "triplet": lambda: F.triplet_margin_loss(x, y, x), "logsumexp": lambda: torch.logsumexp(x, 1), "cdist": lambda: torch.cdist(x, y),
 "interp_nearest": lambda: F.interpolate(img, scale_factor=2), "interp_bilinear": lambda: F.interpolate(img, scale_factor=2, mode="bilinear"),
 "exp": lambda: torch.exp(x), "softmax": lambda: torch.softmax(x, 1), "sum": lambda: x.sum(), "layer_norm": lambda: F.layer_norm(x, (8,)),
 "mse": lambda: F.mse_loss(x, y), "kl_div": lambda: F.kl_div(x, y), "cross_entropy": lambda: F.cross_entropy(x, torch.zeros(4, dtype=torch.long)),
 "nll": lambda: F.nll_loss(x, torch.zeros(4, dtype=torch.long)), "prod": lambda: x.prod(), "group_norm": lambda: F.group_norm(img, 2),
 "pow": lambda: x.pow(2), "trace": lambda: torch.trace(x), "soft_margin": lambda: F.soft_margin_loss(x, y),
 "hinge": lambda: F.hinge_embedding_loss(x, y), "poisson_nll": lambda: F.poisson_nll_loss(x, y), "multi_margin": lambda: F.multi_margin_loss(x, torch.zeros(4, dtype=torch.long)),
 "avg_pool2d": lambda: F.avg_pool2d(img, 2), "max_pool2d": lambda: F.max_pool2d(img, 2), "adaptive_avg_pool2d": lambda: F.adaptive_avg_pool2d(img, 1),
 "cumsum": lambda: x.cumsum(1), "norm": lambda: x.norm(), "stack": lambda: torch.stack([x, x.float()]), "dot": lambda: torch.dot(x[0], y[0]),
 "pad_reflect": lambda: F.pad(img, (1, 1, 1, 1), mode="reflect"),
 "pad_replicate": lambda: F.pad(img, (1, 1, 1, 1), mode="replicate"),
 "pad_constant": lambda: F.pad(img, (1, 1)),
 "cosine_embedding": lambda: F.cosine_embedding_loss(x, y, torch.ones(4)),
 "baddbmm": lambda: torch.baddbmm(sq[None], sq[None], sq[None]),
 "addbmm": lambda: torch.addbmm(sq, sq[None], sq[None]),
 "addmv": lambda: torch.addmv(sq[0], sq, sq[1]),
 "prelu": lambda: F.prelu(x, torch.tensor([0.25])),
 "einsum": lambda: torch.einsum("ij,jk->ik", sq, sq),
 "mv": lambda: torch.mv(sq, sq[0]),
 "matmul_f32": lambda: x.float() @ y.float().t(),
 "linear": lambda: F.linear(x.float(), y.float()),
 "sdpa": lambda: F.scaled_dot_product_attention(x[None].float(), x[None].float(), x[None].float()),
 "gru": lambda: torch.nn.GRU(8, 4)(x.float()[None])[0],
 "mha": lambda: torch.nn.MultiheadAttention(8, 2)(x.float()[None], x.float()[None], x.float()[None])[0],
 "conv1d": lambda: F.conv1d(img[0].float(), torch.randn(3, 4, 3)),
 "conv_transpose2d": lambda: F.conv_transpose2d(img.float(), torch.randn(2, 3, 3, 3)),
 "group_norm": lambda: F.group_norm(img, 2),
 "batch_norm": lambda: F.batch_norm(img, torch.zeros(2), torch.ones(2)),
 "instance_norm": lambda: F.instance_norm(img),
 "std": lambda: x.std(),
 "var": lambda: x.var(),
 "topk": lambda: x.topk(2)[0],
 "sort": lambda: x.sort()[0]
}
with torch.autocast("cpu", dtype=torch.bfloat16):
    for name, f in cases.items():
        try:
            r = f()
            print(name, r.dtype if r is not None else None)
        except Exception as e:
            print(name, "error", type(e).__name__, str(e)[:60])
