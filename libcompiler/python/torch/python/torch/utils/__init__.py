# torch.utils: data loading and activation checkpointing.
import torch.utils.data as data
import torch.utils.checkpoint as checkpoint
import torch.utils.hooks as hooks
