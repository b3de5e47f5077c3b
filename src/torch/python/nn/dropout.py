# torch/python/nn/dropout.py: Dropout (torch/nn/modules/dropout.py): F.dropout's mask, from the
# session's generator, only in training mode.
import torch.nn.functional as F
from torch.nn.modules.module import Module


class _DropoutNd(Module):

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError("dropout probability has to be between 0 and 1, but got {}".format(p))
        self.p = p
        self.inplace = inplace

    def extra_repr(self):
        return 'p={}, inplace={}'.format(self.p, self.inplace)


class Dropout(_DropoutNd):

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)
