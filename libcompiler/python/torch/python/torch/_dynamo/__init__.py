# torch._dynamo: configuration and reset; config assignments are accepted and kept.
import torch
import torch._dynamo.config as config


def reset():
    pass


def disable(fn=None, recursive=True):
    return torch.compiler.disable(fn, recursive)
