# torch.optim: the optimizers (one module each, as PyTorch's) and the learning-rate schedulers.
import torch.optim.lr_scheduler as lr_scheduler
from torch.optim.optimizer import Optimizer
from torch.optim.sgd import SGD
from torch.optim.adam import Adam
from torch.optim.adamw import AdamW
from torch.optim.rmsprop import RMSprop
from torch.optim.adagrad import Adagrad
from torch.optim.adamax import Adamax
from torch.optim.nadam import NAdam
from torch.optim.radam import RAdam
