# Categorical(probs= or logits=): normalised parameters, sampling by torch.multinomial as PyTorch
# samples, log_prob by gathering the normalised logits, entropy.
import torch
from torch.distributions.distribution import Distribution
from torch.distributions.utils import logits_to_probs, probs_to_logits


class Categorical(Distribution):
    arg_constraints = {"probs": None, "logits": None}

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self._probs = probs / probs.sum(-1, keepdim=True)
            self._logits = None
            param = self._probs
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self._logits = logits - logits.logsumexp(dim=-1, keepdim=True)
            self._probs = None
            param = self._logits
        self._num_events = param.size(-1)
        super().__init__(param.size()[:-1], validate_args=validate_args)

    @property
    def probs(self):
        if self._probs is None:
            self._probs = logits_to_probs(self._logits)
        return self._probs

    @property
    def logits(self):
        if self._logits is None:
            self._logits = probs_to_logits(self._probs)
        return self._logits

    @property
    def param_shape(self):
        return (self._probs if self._probs is not None else self._logits).size()

    @property
    def mean(self):
        return torch.full(self._extended_shape(), float("nan"), dtype=self.probs.dtype)

    @property
    def mode(self):
        return self.probs.argmax(dim=-1)

    def sample(self, sample_shape=torch.Size()):
        sample_shape = torch.Size(sample_shape)
        probs_2d = self.probs.reshape(-1, self._num_events)
        samples_2d = torch.multinomial(probs_2d, sample_shape.numel(), True).T
        return samples_2d.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value):
        value = value.long().unsqueeze(-1)
        value, log_pmf = torch.broadcast_tensors(value, self.logits)
        value = value[..., :1]
        return log_pmf.gather(-1, value).squeeze(-1)

    def entropy(self):
        min_real = torch.finfo(self.logits.dtype).min
        logits = torch.clamp(self.logits, min=min_real)
        return -(logits * self.probs).sum(-1)

    def _shown_parameters(self):
        return [(name, value) for name, value in (("probs", self._probs), ("logits", self._logits)) if value is not None]
