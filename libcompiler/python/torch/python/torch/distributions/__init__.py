# torch.distributions: the distributions training scripts reach for (policies, VAEs, dropout-style
# masks), drawing from the generator exactly as PyTorch's do, and kl_divergence between them.
from torch.distributions.distribution import Distribution
from torch.distributions.normal import Normal
from torch.distributions.categorical import Categorical
from torch.distributions.bernoulli import Bernoulli
from torch.distributions.uniform import Uniform
from torch.distributions.kl import kl_divergence, register_kl
