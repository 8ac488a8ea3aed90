# What CPU autocast (bfloat16) makes of the ops kiln composes in Python and of table ops: the
# CPU's float32 list (losses, cdist, trace) gives float32, the rest keep bfloat16 or promote.
import torch
import torch.nn.functional as F
x = torch.randn(4, 8).bfloat16(); y = torch.randn(4, 8).bfloat16(); t = torch.rand(4, 8).bfloat16()
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
}
with torch.autocast("cpu", dtype=torch.bfloat16):
    for name, f in cases.items():
        try:
            r = f()
            print(name, r.dtype if r is not None else None)
        except Exception as e:
            print(name, "error", type(e).__name__, str(e)[:60])
