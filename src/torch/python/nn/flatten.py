# torch/python/nn/flatten.py: nn.Flatten and nn.Unflatten (torch/nn/modules/flatten.py), which
# call Tensor.flatten and Tensor.unflatten. Not here: named-dimension Unflatten (attn has no names).
from torch.nn.modules.module import Module


class Flatten(Module):
    __constants__ = ['start_dim', 'end_dim']

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return 'start_dim={}, end_dim={}'.format(self.start_dim, self.end_dim)


class Unflatten(Module):
    __constants__ = ['dim', 'unflattened_size']

    def __init__(self, dim, unflattened_size):
        super().__init__()
        if isinstance(dim, int):
            self._require_tuple_int(unflattened_size)
        elif isinstance(dim, str):
            raise NotImplementedError("nn.Unflatten with a named dim: attn has no named dimensions")
        else:
            raise TypeError("invalid argument type for dim parameter")
        self.dim = dim
        self.unflattened_size = unflattened_size

    def _require_tuple_int(self, input):
        if (isinstance(input, (tuple, list))):
            for idx, elem in enumerate(input):
                if not isinstance(elem, int):
                    raise TypeError("unflattened_size must be tuple of ints, " +
                                    "but found element of type {} at pos {}".format(type(elem).__name__, idx))
            return
        raise TypeError("unflattened_size must be a tuple of ints, but found type {}".format(type(input).__name__))

    def forward(self, input):
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self):
        return 'dim={}, unflattened_size={}'.format(self.dim, self.unflattened_size)
