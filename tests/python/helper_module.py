# tests/python/helper_module.py: a helper file the import cases and the imports lesson read, as
# an instructor shares code across lessons (`from helper_module import ...`).
import torch
import torch.nn as nn

print("helper_module runs once, as", __name__)

SCALE = 2


def scaled(x):
    return x * SCALE


def broken(x):
    return x + undefined_in_helper


class Doubler(nn.Module):
    def __init__(self):
        super().__init__()
        self.factor = 2

    def forward(self, x):
        return x * self.factor


if __name__ == "__main__":
    print("never printed on import")
