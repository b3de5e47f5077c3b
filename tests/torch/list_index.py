# Python lists as indices: a list of ints or bools is an index tensor; a short list holding slices,
# None or sequences is a tuple of indices (NumPy's rule, as 1.13's treatSequenceAsTuple); floats truncate.
import torch
x = torch.arange(24.).reshape(2, 3, 4)
print(x[[0, 1]].shape, x[[1, 0], [2, 0]], x[torch.arange(2), [1, 2], [3, 0]], x[:, [0, 2]].shape, x[[True, False]].shape)
print(x[[0, slice(None), 1]], x[[1]], x[[]].shape)
y = torch.zeros(5)
y[[0, 3]] = 1.0
print(y)
print(x[[0.5]], x[[1.7, 0.2]].shape)
