# torch/python/nn/loss.py: MSELoss (torch/nn/modules/loss.py); the deprecated size_average= and
# reduce= are refused (use reduction=).
import torch.nn.functional as F
from torch.nn.modules.module import Module


class _Loss(Module):

    def __init__(self, size_average=None, reduce=None, reduction='mean'):
        super().__init__()
        if size_average is not None or reduce is not None:
            raise NotImplementedError(type(self).__name__ + "(): attn does not implement the deprecated size_average= and reduce=: use reduction=")
        self.reduction = reduction


class MSELoss(_Loss):

    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)
