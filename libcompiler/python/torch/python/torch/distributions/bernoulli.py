# Bernoulli(probs= or logits=): sampling by torch.bernoulli, log_prob and entropy through
# binary_cross_entropy_with_logits, as PyTorch computes them.
import torch
import torch.nn.functional as F
from torch.distributions.distribution import Distribution
from torch.distributions.utils import broadcast_all, logits_to_probs, probs_to_logits


class Bernoulli(Distribution):
    arg_constraints = {"probs": None, "logits": None}

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            (self._probs,) = broadcast_all(probs)
            self._logits = None
            shape = self._probs.size()
        else:
            (self._logits,) = broadcast_all(logits)
            self._probs = None
            shape = self._logits.size()
        super().__init__(shape, validate_args=validate_args)

    @property
    def probs(self):
        if self._probs is None:
            self._probs = logits_to_probs(self._logits, is_binary=True)
        return self._probs

    @property
    def logits(self):
        if self._logits is None:
            self._logits = probs_to_logits(self._probs, is_binary=True)
        return self._logits

    @property
    def mean(self):
        return self.probs

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            return torch.bernoulli(self.probs.expand(shape))

    def log_prob(self, value):
        logits, value = torch.broadcast_tensors(self.logits, value)
        return -F.binary_cross_entropy_with_logits(logits, value, reduction="none")

    def entropy(self):
        return F.binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")

    def _shown_parameters(self):
        return [(name, value) for name, value in (("probs", self._probs), ("logits", self._logits)) if value is not None]
