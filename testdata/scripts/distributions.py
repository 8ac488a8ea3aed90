# torch.distributions: Normal, Categorical, Bernoulli, Uniform (samples drawn as PyTorch draws them,
# log_prob, entropy, rsample gradients) and kl_divergence; torch.normal and torch.bernoulli.
import torch
from torch.distributions import Bernoulli, Categorical, Normal, Uniform, kl_divergence

torch.manual_seed(0)
print(torch.normal(torch.zeros(3), torch.ones(3)), torch.normal(2.0, 0.5, size=(2,)), torch.normal(torch.arange(3.), 0.1))
print(torch.bernoulli(torch.tensor([0.3, 0.9, 0.5])), torch.bernoulli(torch.ones(2), 0.5))
loc = torch.tensor([0.0, 1.0], requires_grad=True)
scale = torch.tensor([1.0, 0.5], requires_grad=True)
normal = Normal(loc, scale)
print(normal, normal.sample(), normal.sample((2,)).shape, normal.log_prob(torch.tensor([0.5, 0.5])), normal.entropy())
z = normal.rsample()
z.sum().backward()
print(z, loc.grad, scale.grad, normal.mean, normal.stddev, normal.variance, normal.cdf(torch.tensor([0.0, 1.0])))
logits = torch.tensor([[1.0, 2.0, 0.5], [0.0, 0.0, 3.0]])
policy = Categorical(logits=logits)
actions = policy.sample()
print(policy, actions, policy.sample((4,)), policy.log_prob(actions), policy.entropy(), policy.probs)
print(Categorical(probs=torch.tensor([0.2, 0.3, 0.5])).sample((5,)), Categorical(probs=torch.tensor([1.0, 3.0])).probs)
coin = Bernoulli(probs=torch.tensor([0.25, 0.75]))
print(coin.sample(), coin.sample((3,)), coin.log_prob(torch.tensor([1.0, 0.0])), coin.entropy(),
      Bernoulli(logits=torch.tensor([0.0, 2.0])).probs)
box = Uniform(torch.tensor([0.0, -1.0]), torch.tensor([2.0, 1.0]))
print(box.sample(), box.rsample((2,)), box.log_prob(torch.tensor([1.0, 0.5])), box.entropy())
print(kl_divergence(normal, Normal(torch.zeros(2), torch.ones(2))),
      kl_divergence(policy, Categorical(logits=torch.zeros(2, 3))),
      kl_divergence(coin, Bernoulli(probs=torch.tensor([0.5, 0.5]))))
print(torch.broadcast_shapes((2, 1), (3,)), [t.shape for t in torch.broadcast_tensors(torch.ones(2, 1), torch.ones(3))])
