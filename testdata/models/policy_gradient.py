# A REINFORCE policy on a toy bandit-like task: a small MLP policy, actions sampled with
# torch.multinomial from the softmax, log-probabilities picked by gather, discounted returns built
# backwards and normalised, an entropy bonus, gradient clipping by value, trained compiled.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Policy(nn.Module):
    def __init__(self, observations=4, actions=3, hidden=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(observations, hidden), nn.Tanh(), nn.Linear(hidden, actions))

    def forward(self, obs):
        return F.log_softmax(self.net(obs), dim=-1)


def discounted(rewards, gamma=0.9):
    out, running = [], 0.0
    for r in reversed(rewards):
        running = r + gamma * running
        out.append(running)
    returns = torch.tensor(out[::-1])
    return (returns - returns.mean()) / (returns.std() + 1e-8)


torch.manual_seed(5)
policy = Policy()
opt = torch.optim.Adam(policy.parameters(), lr=5e-3)
act = torch.compile(policy)
target = torch.tensor([2, 0, 1, 1, 2, 0, 1, 2])
for episode in range(4):
    obs = torch.randn(8, 4)
    log_probs = act(obs)
    actions = torch.multinomial(log_probs.exp(), 1).squeeze(-1)
    rewards = (actions == target).float().tolist()
    returns = discounted(rewards)
    chosen = log_probs.gather(1, actions.unsqueeze(-1)).squeeze(-1)
    entropy = -(log_probs.exp() * log_probs).sum(dim=-1).mean()
    loss = -(chosen * returns).sum() - 0.01 * entropy
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_value_(policy.parameters(), 0.5)
    opt.step()
    print(episode, actions.tolist(), f"{sum(rewards):.0f}", f"{loss.item():.4f}", f"{entropy.item():.4f}")
