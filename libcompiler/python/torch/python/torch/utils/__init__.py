# torch.utils: data loading.
import torch.utils.data as data
