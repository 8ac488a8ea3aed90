# A compiled module's graph holds for the submodules and settings it was compiled with: replacing
# a submodule, changing a setting a submodule's forward reads, or switching train/eval runs the
# module as it now is.
import torch


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = torch.nn.LayerNorm(4)
        self.drop = torch.nn.Dropout(0.5)
        self.act = torch.nn.LeakyReLU(0.1)
        self.scale = 2.0

    def forward(self, x):
        return self.act(self.drop(self.norm(x))) * self.scale


torch.manual_seed(0)
block = Block()
x = torch.randn(2, 4)
compiled = torch.compile(block, backend="eager")
block.eval()
with torch.no_grad():
    print(compiled(x))
    block.act.negative_slope = 0.5
    print(compiled(x))
    block.norm.eps = 1.0
    print(compiled(x))
    block.act = torch.nn.Tanh()
    print(compiled(x))
    block.act = torch.nn.Identity()
    print(compiled(x))
    block.act = torch.nn.ReLU()
    print(compiled(x))
    block.scale = 3.0
    print(compiled(x))
    block.train()
    torch.manual_seed(1)
    print(compiled(x))
