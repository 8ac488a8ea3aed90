# Compiled frames that read closure variables and change containers they were given: each
# closure of one code runs with its own model (the closure's variables are frame inputs, guarded
# like arguments); a frame that appends to a list or fills a dict keyed by tensors replays those
# changes after its graph, with the new tensors the graph made; a dict it read the keys of
# recompiles the frame when its keys change.
import torch


def closure_over(seed):
    torch.manual_seed(seed)
    model = torch.nn.Linear(3, 2)

    def forward(x):
        return model(x).sum()

    return torch.compile(forward)


print([round(float(closure_over(seed)(torch.ones(1, 3))), 4) for seed in (0, 1, 2)])

state = {}


def init(params, gathered):
    for p in params:
        entry = state.setdefault(p, {})
        if len(entry) == 0:
            entry["count"] = torch.tensor(0.0)
            entry["zeros"] = torch.zeros_like(p)
        entry["count"] += 1
        gathered.append(entry["zeros"] + entry["count"])
    return len(gathered)


compiled_init = torch.compile(init)
a, b = torch.ones(2), torch.ones(3)
for step in range(3):
    gathered = []
    n = compiled_init([a, b], gathered)
    print(step, n, [t.tolist() for t in gathered], [e["count"].item() for e in state.values()])
