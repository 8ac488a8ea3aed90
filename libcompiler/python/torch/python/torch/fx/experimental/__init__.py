# torch.fx.experimental: what repro files import (proxy_tensor.make_fx is native: libcompiler/repro).
