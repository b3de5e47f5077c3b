# torch/python/utils/data/collate.py: torch.utils.data._utils.collate as PyTorch 1.13 writes it:
# default_collate (tensors stacked on a new first dim, Python ints to an int64 tensor, strings kept
# as lists, dicts, namedtuples, tuples and lists collated field by field) over collate() and its
# table of element types, and default_convert.
# What it is not: NumPy's arrays (attn has no NumPy), or float64: PyTorch collates Python floats
# into torch.float64, which attn cannot represent, so a batch of floats raises in one line.
import torch

string_classes = (str,)   # attn has no bytes

default_collate_err_msg_format = (
    "default_collate: batch must contain tensors, numpy arrays, numbers, "
    "dicts or lists; found {}")


def _is_namedtuple(data):
    # attn's collections.namedtuple classes are not tuple subclasses: _asdict marks them too.
    return hasattr(data, '_fields') and (isinstance(data, tuple) or hasattr(data, '_asdict'))


def default_convert(data):
    elem_type = type(data)
    if isinstance(data, torch.Tensor):
        return data
    elif isinstance(data, dict):
        try:
            return elem_type({key: default_convert(data[key]) for key in data})
        except TypeError:
            return {key: default_convert(data[key]) for key in data}
    elif _is_namedtuple(data):
        return elem_type(*(default_convert(d) for d in data))
    elif isinstance(data, tuple):
        return [default_convert(d) for d in data]
    elif isinstance(data, list):
        try:
            return elem_type([default_convert(d) for d in data])
        except TypeError:
            return [default_convert(d) for d in data]
    else:
        return data


def _collate_sequence(batch, elem, collate_fn_map):
    it = iter(batch)
    elem_size = len(next(it))
    if not all(len(elem) == elem_size for elem in it):
        raise RuntimeError('each element in list of batch should be of equal size')
    transposed = list(zip(*batch))
    if isinstance(elem, tuple):
        return [collate(samples, collate_fn_map=collate_fn_map) for samples in transposed]
    try:
        return type(elem)([collate(samples, collate_fn_map=collate_fn_map) for samples in transposed])
    except TypeError:
        return [collate(samples, collate_fn_map=collate_fn_map) for samples in transposed]


def collate(batch, *, collate_fn_map=None):
    elem = batch[0]
    elem_type = type(elem)
    if collate_fn_map is not None:
        if elem_type in collate_fn_map:
            return collate_fn_map[elem_type](batch, collate_fn_map=collate_fn_map)
        for collate_type in collate_fn_map:
            if isinstance(elem, collate_type):
                return collate_fn_map[collate_type](batch, collate_fn_map=collate_fn_map)
    if isinstance(elem, dict):
        try:
            return elem_type({key: collate([d[key] for d in batch], collate_fn_map=collate_fn_map) for key in elem})
        except TypeError:
            return {key: collate([d[key] for d in batch], collate_fn_map=collate_fn_map) for key in elem}
    elif _is_namedtuple(elem):
        return elem_type(*(collate(samples, collate_fn_map=collate_fn_map) for samples in zip(*batch)))
    elif isinstance(elem, (list, tuple)):
        return _collate_sequence(batch, elem, collate_fn_map)
    raise TypeError(default_collate_err_msg_format.format(elem_type))


def collate_tensor_fn(batch, *, collate_fn_map=None):
    return torch.stack(batch, 0)


def collate_float_fn(batch, *, collate_fn_map=None):
    # torch.tensor(batch, dtype=torch.float64) in PyTorch.
    raise NotImplementedError("attn has no torch.float64: default_collate makes one of a batch of Python "
                              "floats (return a float32 tensor from the dataset instead)")


def collate_int_fn(batch, *, collate_fn_map=None):
    return torch.tensor(batch)


def collate_str_fn(batch, *, collate_fn_map=None):
    return batch


default_collate_fn_map = {torch.Tensor: collate_tensor_fn}
default_collate_fn_map[float] = collate_float_fn
default_collate_fn_map[int] = collate_int_fn
default_collate_fn_map[string_classes] = collate_str_fn


def default_collate(batch):
    return collate(batch, collate_fn_map=default_collate_fn_map)
