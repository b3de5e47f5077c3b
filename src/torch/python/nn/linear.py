# torch/python/nn/linear.py: Identity, Linear, NonDynamicallyQuantizableLinear and LazyLinear
# (torch/nn/modules/linear.py): Linear's weight drawn by init.kaiming_uniform_(a=sqrt(5)) and its
# bias by init.uniform_(-1/sqrt(fan_in), 1/sqrt(fan_in)), PyTorch's order of draws; LazyLinear
# makes those draws at its first forward, when the input gives in_features, and is printed as a
# Linear from then on (PyTorch's cls_to_become). Until then its weight and bias are
# UninitializedParameter placeholders, which attn keeps out of parameters() (PyTorch lists them).
import math
import torch
import torch.nn.functional as F
from torch.nn import init
from torch.nn.parameter import Parameter
from torch.nn.modules.module import Module


class Identity(Module):

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(torch.empty((out_features, in_features), device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(torch.empty(out_features, device=device, dtype=dtype))
        else:
            self.register_parameter('bias', None)
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return 'in_features={}, out_features={}, bias={}'.format(self.in_features, self.out_features, self.bias is not None)


class NonDynamicallyQuantizableLinear(Linear):
    pass


class UninitializedParameter:
    """torch.nn.parameter.UninitializedParameter's stand-in: a parameter without a shape yet."""

    def __repr__(self):
        return '<UninitializedParameter>'


class LazyLinear(Linear):
    cls_to_become = Linear

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        Module.__init__(self)
        self.in_features = 0
        self.out_features = out_features
        self.weight = UninitializedParameter()
        self.bias = UninitializedParameter() if bias else None
        self._attn_lazy = True

    def has_uninitialized_params(self):
        return self._attn_lazy

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        if self.has_uninitialized_params():
            with torch.no_grad():
                self.in_features = input.shape[-1]
                has_bias = self.bias is not None
                del self.weight
                del self.bias
                self.weight = Parameter(torch.empty((self.out_features, self.in_features)))
                if has_bias:
                    self.bias = Parameter(torch.empty(self.out_features))
                else:
                    self.register_parameter('bias', None)
                self._attn_lazy = False
                self.reset_parameters()

    def forward(self, input):
        self.initialize_parameters(input)
        return F.linear(input, self.weight, self.bias)

    def _get_name(self):
        return 'LazyLinear' if self._attn_lazy else 'Linear'
