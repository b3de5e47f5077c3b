# tests/python/mypkg/model.py: the module a lesson imports from (`from mypkg.model import GPT`).
from .layers import Scale
from . import util
from .sub import deep


class GPT:
    def __init__(self):
        self.scale = Scale(3)

    def forward(self, x):
        return util.double(self.scale(x)) + deep.DEPTH
