# torch/python/autograd.py: the torch.autograd package as PyTorch 1.13's torch/autograd/__init__.py,
# function.py, variable.py and anomaly_mode.py define it: backward(), grad() (first order), custom
# Functions (Function.apply, FunctionCtx: save_for_backward, saved_tensors, needs_input_grad,
# mark_non_differentiable, set_materialize_grads), the legacy Variable, detect_anomaly /
# set_detect_anomaly, and grad mode's no_grad, enable_grad, set_grad_enabled, inference_mode.
# The engine is native (autograd_natives.cpp over core's autograd_engine.cpp).
# What it is not: create_graph (higher-order gradients), torch.autograd.functional, gradcheck
# (needs float64), forward-mode AD, hooks or mark_dirty: each refused in one line. Anomaly
# detection is accepted and changes nothing: no number, no extra traceback.
import warnings
import torch
from torch import no_grad, enable_grad, set_grad_enabled, inference_mode

Variable = torch._attn_Variable


def _refuse(what, why):
    raise NotImplementedError(what + " is not implemented: " + why)


def _tensor_or_tensors_to_tuple(tensors, length):
    if tensors is None:
        return (None, ) * length
    if isinstance(tensors, torch.Tensor):
        return (tensors, )
    return tuple(tensors)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None, inputs=None):
    if grad_variables is not None:
        warnings.warn("'grad_variables' is deprecated. Use 'grad_tensors' instead.")
        if grad_tensors is None:
            grad_tensors = grad_variables
        else:
            raise RuntimeError("'grad_tensors' and 'grad_variables' (deprecated) "
                               "arguments both passed to backward(). Please only "
                               "use 'grad_tensors'.")
    if inputs is not None and len(inputs) == 0:
        raise RuntimeError("'inputs' argument to backward() cannot be empty.")
    if create_graph:
        _refuse("torch.autograd.backward(create_graph=True)", "attn computes first-order gradients only")
    if inputs is not None:
        _refuse("torch.autograd.backward(inputs=...)", "attn accumulates into every leaf")
    tensors = (tensors, ) if isinstance(tensors, torch.Tensor) else tuple(tensors)
    grad_tensors_ = _tensor_or_tensors_to_tuple(grad_tensors, len(tensors))
    if retain_graph is None:
        retain_graph = create_graph
    torch._attn_run_backward(tensors, grad_tensors_, retain_graph, None, False)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=False, is_grads_batched=False):
    t_outputs = (outputs, ) if isinstance(outputs, torch.Tensor) else tuple(outputs)
    t_inputs = (inputs, ) if isinstance(inputs, torch.Tensor) else tuple(inputs)
    if not only_inputs:
        warnings.warn("only_inputs argument is deprecated and is ignored now "
                      "(defaults to True). To accumulate gradient for other "
                      "parts of the graph, please use torch.autograd.backward.")
    if create_graph:
        _refuse("torch.autograd.grad(create_graph=True)", "attn computes first-order gradients only")
    if is_grads_batched:
        _refuse("torch.autograd.grad(is_grads_batched=True)", "attn has no vmap")
    grad_outputs_ = _tensor_or_tensors_to_tuple(grad_outputs, len(t_outputs))
    if retain_graph is None:
        retain_graph = create_graph
    return torch._attn_run_backward(t_outputs, grad_outputs_, retain_graph, t_inputs, allow_unused)


class FunctionCtx(object):
    def save_for_backward(self, *tensors):
        self.to_save = tensors

    def save_for_forward(self, *tensors):
        _refuse("FunctionCtx.save_for_forward", "attn has no forward-mode AD")

    @property
    def saved_tensors(self):
        return tuple(getattr(self, 'to_save', ()))

    def mark_dirty(self, *args):
        _refuse("FunctionCtx.mark_dirty", "a custom Function's forward must not modify its inputs in place in attn")

    def mark_shared_storage(self, *pairs):
        warnings.warn(
            'mark_shared_storage is deprecated. '
            'Tensors with shared storages are automatically tracked. Note '
            'that calls to `set_()` are not tracked')

    def mark_non_differentiable(self, *args):
        self.non_differentiable = args

    def set_materialize_grads(self, value):
        self.materialize_grads = value


class Function(FunctionCtx):
    def __init__(self, *args, **kwargs):
        cls = self.__class__
        warnings.warn(f"{cls} should not be instantiated. Methods on autograd functions"
                      "are all static, so you should invoke them on the class itself. "
                      "Instantiating an autograd function will raise an "
                      "error in a future version of PyTorch.", DeprecationWarning)

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. "
            "Please use new-style autograd function with static forward method. "
            "(Example: https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    is_traceable = False

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom"
                                  " autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward "
                                  "mode AD.")

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError("You must implement the jvp function for custom "
                                  "autograd.Function to use it with forward mode AD.")

    @classmethod
    def apply(cls, *args):
        ctx = FunctionCtx()
        ctx.needs_input_grad = tuple(isinstance(a, torch.Tensor) and a.requires_grad for a in args)
        with torch.no_grad():
            outputs = cls.forward(ctx, *args)
        if not torch.is_grad_enabled() or not any(ctx.needs_input_grad):
            return outputs
        is_tuple = isinstance(outputs, tuple)
        outs = outputs if is_tuple else (outputs, )
        made = torch._attn_record_function(cls.__name__ + "Backward", outs, args, ctx, cls.backward,
                                           getattr(ctx, 'to_save', ()), getattr(ctx, 'non_differentiable', ()),
                                           getattr(ctx, 'materialize_grads', True))
        return made if is_tuple else made[0]


class InplaceFunction(Function):
    def __init__(self, inplace=False):
        super(InplaceFunction, self).__init__()
        self.inplace = inplace


def once_differentiable(fn):
    return fn


class detect_anomaly(object):
    def __init__(self, check_nan=True):
        self.prev = torch.is_anomaly_enabled()
        self.check_nan = check_nan
        self.prev_check_nan = torch.is_anomaly_check_nan_enabled()
        warnings.warn('Anomaly Detection has been enabled. '
                      'This mode will increase the runtime '
                      'and should only be enabled for debugging.', stacklevel=2)

    def __enter__(self):
        torch.set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *args):
        torch.set_anomaly_enabled(self.prev, self.prev_check_nan)


class set_detect_anomaly(object):
    def __init__(self, mode, check_nan=True):
        self.prev = torch.is_anomaly_enabled()
        self.prev_check_nan = torch.is_anomaly_check_nan_enabled()
        torch.set_anomaly_enabled(mode, check_nan)

    def __enter__(self):
        pass

    def __exit__(self, *args):
        torch.set_anomaly_enabled(self.prev, self.prev_check_nan)


def gradcheck(*args, **kwargs):
    _refuse("torch.autograd.gradcheck", "it needs float64 tensors and attn's are float32")


def gradgradcheck(*args, **kwargs):
    _refuse("torch.autograd.gradgradcheck", "it needs float64 tensors and attn's are float32")


def __getattr__(name):
    if name == 'variable':
        import torch.autograd.variable as m
        return m
    if name == 'function':
        import torch.autograd.function as m
        return m
    if name == 'grad_mode':
        import torch.autograd.grad_mode as m
        return m
    if name == 'anomaly_mode':
        import torch.autograd.anomaly_mode as m
        return m
    if name in ('functional', 'forward_ad', 'profiler', 'graph'):
        _refuse("torch.autograd." + name, "attn's torch.autograd has backward, grad, Function, Variable and grad mode")
    raise AttributeError("module 'torch.autograd' has no attribute '" + name + "'")
