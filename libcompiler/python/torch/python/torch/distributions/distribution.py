# Distribution: shapes (batch, event, the extended shape of a sample) and what every distribution
# derives from sample/log_prob.
import torch


class Distribution:
    has_rsample = False

    def __init__(self, batch_shape=torch.Size(), event_shape=torch.Size(), validate_args=None):
        self._batch_shape = torch.Size(batch_shape)
        self._event_shape = torch.Size(event_shape)

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def event_shape(self):
        return self._event_shape

    def _extended_shape(self, sample_shape=torch.Size()):
        return torch.Size(list(sample_shape) + list(self._batch_shape) + list(self._event_shape))

    def sample(self, sample_shape=torch.Size()):
        with torch.no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=torch.Size()):
        raise NotImplementedError

    def sample_n(self, n):
        return self.sample(torch.Size((n,)))

    @property
    def stddev(self):
        return self.variance.sqrt()

    def perplexity(self):
        return torch.exp(self.entropy())

    def _shown_parameters(self):
        # The parameters made so far (a lazily computed one appears once it has been used).
        return [(name, self.__dict__[name]) for name in self.arg_constraints if name in self.__dict__]

    def __repr__(self):
        shown = ", ".join(f"{name}: {value if value.numel() == 1 else value.size()}"
                          for name, value in self._shown_parameters())
        return type(self).__name__ + "(" + shown + ")"
