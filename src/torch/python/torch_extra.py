# torch/python/torch_extra.py: names of the torch module written in attn's Python, copied into
# `torch` when it is made: finfo and iinfo (the numbers and reprs 1.13 prints), the default dtype
# (float32 only), the thread count and deterministic-algorithm switches, broadcast_tensors and broadcast_shapes,
# triu_indices and tril_indices (integer positions, listed in row-major order as 1.13 lists them);
# Tensor.register_hook as torch/_tensor.py writes it (a dict of hooks per tensor, one slot in
# the engine: torch._attn_hook_slot) and torch.utils.hooks.RemovableHandle.
# Not here: anything computing on tensors (the op table, in C++). attn's kernels are single-threaded
# and deterministic, so set_num_threads and use_deterministic_algorithms are remembered and change
# none of attn's answers.
import torch

__all__ = ['finfo', 'iinfo', 'get_default_dtype', 'set_default_dtype', 'set_num_threads', 'get_num_threads',
           'use_deterministic_algorithms', 'are_deterministic_algorithms_enabled', 'broadcast_tensors', 'broadcast_shapes',
           'triu_indices', 'tril_indices']

_ints = {'torch.uint8': (8, 0, 255), 'torch.int8': (8, -128, 127), 'torch.int16': (16, -32768, 32767),
         'torch.int32': (32, -2147483648, 2147483647), 'torch.int64': (64, -9223372036854775808, 9223372036854775807)}


def _check_dtype(name, type):
    if not isinstance(type, torch.dtype):
        raise TypeError("{}(): argument 'type' (position 1) must be torch.dtype, not {}".format(name, builtin_type(type).__name__))


builtin_type = type


class finfo:

    def __init__(self, type=None):
        if type is None:
            type = torch.float32
        _check_dtype('finfo', type)
        if type != torch.float32:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle 'torch.finfo'")
        self.bits = 32
        self.eps = 1.1920928955078125e-07
        self.max = 3.4028234663852886e+38
        self.min = -3.4028234663852886e+38
        self.tiny = 1.1754943508222875e-38
        self.smallest_normal = 1.1754943508222875e-38
        self.resolution = 1e-06
        self.dtype = 'float32'

    def __repr__(self):
        return 'finfo(resolution={:g}, min={:g}, max={:g}, eps={:g}, smallest_normal={:g}, tiny={:g}, dtype={})'.format(
            self.resolution, self.min, self.max, self.eps, self.smallest_normal, self.tiny, self.dtype)


class iinfo:

    def __init__(self, type):
        _check_dtype('iinfo', type)
        if str(type) not in _ints:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'")
        self.bits, self.min, self.max = _ints[str(type)]
        self.dtype = str(type)[6:]

    def __repr__(self):
        return 'iinfo(min={:g}, max={:g}, dtype={})'.format(float(self.min), float(self.max), self.dtype)


def get_default_dtype():
    return torch.float32


def set_default_dtype(d):
    if d == torch.float32:
        return None
    if isinstance(d, torch.dtype) and str(d) in _ints or d == torch.bool:
        raise TypeError('only floating-point types are supported as the default type')
    raise TypeError("set_default_dtype(): argument 'd' must be torch.dtype, not {}".format(builtin_type(d).__name__))


_threads = [1]
_deterministic = [False]


def set_num_threads(n):
    if builtin_type(n) is not int:
        raise TypeError('set_num_threads expects an int, but got {}'.format(builtin_type(n).__name__))
    if n <= 0:
        raise RuntimeError('Expected positive number of threads')
    _threads[0] = n


def get_num_threads():
    return _threads[0]


def use_deterministic_algorithms(mode, *, warn_only=False):
    if builtin_type(mode) is not bool:
        raise TypeError("use_deterministic_algorithms(): argument 'mode' (position 1) must be bool, not {}".format(builtin_type(mode).__name__))
    _deterministic[0] = mode


def are_deterministic_algorithms_enabled():
    return _deterministic[0]


def _broadcast(shapes):
    # infer_size over the shapes in turn, with ATen's message
    out = []
    for shape in shapes:
        a, b = list(out), list(shape)
        n = max(len(a), len(b))
        a, b = [1] * (n - len(a)) + a, [1] * (n - len(b)) + b
        for d in range(n):
            if a[d] != b[d] and a[d] != 1 and b[d] != 1:
                raise RuntimeError("The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension {}".format(
                    a[d], b[d], d))
        out = [b[d] if a[d] == 1 else a[d] for d in range(n)]
    return out


def broadcast_tensors(*tensors):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    shape = _broadcast([t.shape for t in tensors])
    return tuple(t.expand(shape) for t in tensors)


def broadcast_shapes(*shapes):
    try:
        return torch.Size(_broadcast([[s] if isinstance(s, int) else s for s in shapes]))
    except RuntimeError:
        raise RuntimeError("Shape mismatch: objects cannot be broadcast to a single shape") from None


def _tri_indices(name, row, col, offset, dtype, upper):
    if row < 0:
        raise RuntimeError('row must be non-negative, got' + str(row))
    if col < 0:
        raise RuntimeError('col must be non-negative, got' + str(col))
    if dtype not in (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8):
        raise RuntimeError('"%s" not implemented for \'%s\'' % (name, {torch.float32: 'Float', torch.bool: 'Bool'}.get(dtype, str(dtype))))
    rows, cols = [], []
    for i in range(row):
        js = range(max(0, i + offset), col) if upper else range(0, max(0, min(col, i + offset + 1)))
        for j in js:
            rows.append(i)
            cols.append(j)
    if not rows:
        return torch.zeros(2, 0, dtype=dtype)
    return torch.tensor([rows, cols], dtype=dtype)


def triu_indices(row, col, offset=0, *, dtype=torch.long, device='cpu', layout=None):
    return _tri_indices('triu_indices', row, col, offset, dtype, True)


def tril_indices(row, col, offset=0, *, dtype=torch.long, device='cpu', layout=None):
    return _tri_indices('tril_indices', row, col, offset, dtype, False)


class RemovableHandle:
    """torch.utils.hooks.RemovableHandle: remove() takes its hook out of the dict it was put in."""
    next_id = 0

    def __init__(self, hooks_dict):
        self.hooks_dict_ref = hooks_dict
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1

    def remove(self):
        hooks_dict = self.hooks_dict_ref
        if hooks_dict is not None and self.id in hooks_dict:
            del hooks_dict[self.id]

    def __enter__(self):
        return self

    def __exit__(self, type, value, tb):
        self.remove()



def _register_hook(self, hook):
    # Tensor.register_hook (torch/_tensor.py): the tensor's dict of hooks gets one slot in the
    # engine when its first hook comes, so hooks and retain_grad() run in 1.13's order.
    if not self.requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    hooks = self._backward_hooks
    if hooks is None:
        hooks = {}
        self._backward_hooks = hooks
        torch._attn_hook_slot(self, lambda grad: _call_hooks(hooks, grad))
    handle = RemovableHandle(hooks)
    hooks[handle.id] = hook
    return handle


def _call_hooks(hooks, grad):
    # PyFunctionTensorPreHook: each hook in turn on the gradient; a result replaces it, checked
    # as check_single_result and check_variable_result check it.
    for hook in list(hooks.values()):
        result = hook(grad)
        if result is None:
            continue
        if grad is None:
            raise RuntimeError("can't replace a None gradient with a non-None value")
        if not isinstance(result, torch.Tensor):
            raise TypeError("expected Variable, but hook returned '" + builtin_type(result).__name__ + "'")
        name = getattr(hook, '__name__', '<unknown>')
        if result.dtype != grad.dtype:
            raise RuntimeError("hook '{}' has changed the type of value (was {} got {})".format(name, grad.type(), result.type()))
        if result.shape != grad.shape:
            raise RuntimeError("hook '{}' has changed the size of value".format(name))
        grad = result
    return grad
