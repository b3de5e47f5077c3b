# torch/python/nn/functional_extra.py: the functions of torch.nn.functional that 1.13 writes in
# Python on top of other ops (torch/nn/functional.py): l1_loss, softsign, softmin; copied into
# torch.nn.functional when it is made, so their grad_fn chains are those of the ops they call.
# Not here: functions with their own kernel or backward node (the op table, in C++).
# (warnings: imported on the line that warns, not here: ~1 ms of parsing in every torch.nn lesson)

import torch

__all__ = ['l1_loss', 'softsign', 'softmin']


def _reduction_enum(reduction):
    if reduction == 'none' or reduction == 'mean' or reduction == 'sum':
        return reduction
    raise ValueError("{} is not a valid value for reduction".format(reduction))


def _legacy_reduction(size_average=None, reduce=None, emit_warning=True):
    warning = "size_average and reduce args will be deprecated, please use reduction='{}' instead."
    if size_average is None:
        size_average = True
    if reduce is None:
        reduce = True
    if size_average and reduce:
        ret = 'mean'
    elif reduce:
        ret = 'sum'
    else:
        ret = 'none'
    if emit_warning:
        import warnings; warnings.warn(warning.format(ret))
    return ret


def l1_loss(input, target, size_average=None, reduce=None, reduction='mean'):
    if not (target.size() == input.size()):
        import warnings; warnings.warn(
            "Using a target size ({}) that is different to the input size ({}). "
            "This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.".format(target.size(), input.size()),
            stacklevel=2,
        )
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    reduction = _reduction_enum(reduction)
    diff = (input - target).abs()
    if reduction == 'mean':
        return diff.mean()
    if reduction == 'sum':
        return diff.sum()
    return diff


def softsign(input):
    return input / (input.abs() + 1)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        raise NotImplementedError("F.softmin without dim=: attn asks for the dim (PyTorch's implicit choice is deprecated)")
    if dtype is None:
        return (-input).softmax(dim)
    return (-input).softmax(dim, dtype=dtype)
