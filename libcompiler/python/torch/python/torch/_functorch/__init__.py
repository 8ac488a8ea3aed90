# torch._functorch: its config module (what repro files and the compiler bisector set).
import torch._functorch.config as config
