# torch/python/optim.py: torch.optim's Optimizer, SGD, Adam and AdamW, in attn's Python, as PyTorch
# 1.13 writes them (torch/optim/optimizer.py, sgd.py, adam.py, adamw.py): param_groups (a list of
# dicts, one per group, with each group's settings), state (a defaultdict(dict) keyed by
# parameter), zero_grad(set_to_none=False), add_param_group, state_dict()/load_state_dict() (state
# keyed by integer ids, each group's 'params' a list of them), and PyTorch's repr
# ("SGD (\nParameter Group 0\n    dampening: 0 ..."). torch.optim.lr_scheduler is lr_scheduler.py,
# loaded the first time it is named (__getattr__ below).
#
# What it is: the bookkeeping, here; each step() hands its lists of tensors to the for-loop
# implementation PyTorch's CPU runs (_single_tensor_sgd / _single_tensor_adam /
# _single_tensor_adamw, foreach=None), native and bit-exact in both kernel families
# (src/torch/optim.cpp). What it is not: the foreach and fused paths (foreach=True runs the for
# loop), capturable or differentiable optimizers, the profiler hooks PyTorch wraps step() in, or
# the other optimizers (RMSprop, Adagrad, ...).
import torch
from collections import defaultdict as _defaultdict


class _RequiredParameter:
    __module__ = 'torch.optim.optimizer'

    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


def _cast(param, value, key=None):
    # load_state_dict's cast: a deep copy of value, its tensors (but 'step') in param's dtype and device.
    if isinstance(value, torch.Tensor):
        if key != "step":
            if param.is_floating_point():
                value = value.to(param.dtype)
            value = value.to(param.device)
        return value
    elif isinstance(value, dict):
        return {k: _cast(param, v, key=k) for k, v in value.items()}
    elif isinstance(value, (list, tuple)):
        return type(value)(_cast(param, v) for v in value)
    return value


class Optimizer:
    __module__ = 'torch.optim.optimizer'

    def __init__(self, params, defaults):
        self.defaults = defaults
        if isinstance(params, torch.Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, but got " + torch.typename(params))
        self.state = _defaultdict(dict)
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{'params': param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def __getstate__(self):
        return {'defaults': self.defaults, 'state': self.state, 'param_groups': self.param_groups}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.defaults.setdefault('differentiable', False)

    def __repr__(self):
        format_string = self.__class__.__name__ + ' ('
        for i, group in enumerate(self.param_groups):
            format_string += '\n'
            format_string += 'Parameter Group {0}\n'.format(i)
            for key in sorted(group.keys()):
                if key != 'params':
                    format_string += '    {0}: {1}\n'.format(key, group[key])
        format_string += ')'
        return format_string

    def zero_grad(self, set_to_none=False):
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        if p.grad.grad_fn is not None:
                            p.grad.detach_()
                        else:
                            p.grad.requires_grad_(False)
                        p.grad.zero_()

    def state_dict(self):
        param_mappings = {}
        packed_groups = []
        start_index = 0
        for group in self.param_groups:   # pack_group: the settings, then 'params' as indices
            packed = {k: v for k, v in group.items() if k != 'params'}
            for i, p in enumerate(group['params'], start_index):
                if id(p) not in param_mappings:
                    param_mappings[id(p)] = i
            packed['params'] = [param_mappings[id(p)] for p in group['params']]
            start_index += len(packed['params'])
            packed_groups.append(packed)
        packed_state = {(param_mappings[id(k)] if isinstance(k, torch.Tensor) else k): v for k, v in self.state.items()}
        return {'state': packed_state, 'param_groups': packed_groups}

    def load_state_dict(self, state_dict):
        from copy import deepcopy
        state_dict = deepcopy(state_dict)
        groups = self.param_groups
        saved_groups = state_dict['param_groups']
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g['params']) != len(s['params']) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size of optimizer's group")
        id_map = {}
        for g, s in zip(groups, saved_groups):
            for old_id, p in zip(s['params'], g['params']):
                id_map[old_id] = p
        state = _defaultdict(dict)
        for k, v in state_dict['state'].items():
            if k in id_map:
                param = id_map[k]
                state[param] = _cast(param, v)
            else:
                state[k] = v
        param_groups = []
        for g, ng in zip(groups, saved_groups):
            ng['params'] = g['params']
            param_groups.append(ng)
        self.__setstate__({'state': state, 'param_groups': param_groups})

    def step(self, closure):
        raise NotImplementedError

    def add_param_group(self, param_group):
        assert isinstance(param_group, dict), "param group must be a dict"
        params = param_group['params']
        if isinstance(params, torch.Tensor):
            param_group['params'] = [params]
        elif isinstance(params, set):
            raise TypeError('optimizer parameters need to be organized in ordered collections, but the ordering of tensors in sets will change between runs. Please use a list instead.')
        else:
            param_group['params'] = list(params)
        for param in param_group['params']:
            if not isinstance(param, torch.Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is " + torch.typename(param))
            if not self.defaults.get('differentiable', None) and not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError("parameter group didn't specify a value of required optimization parameter " + name)
            else:
                param_group.setdefault(name, default)
        params = param_group['params']
        if len(params) != len(set(params)):
            import warnings
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this will cause an error; "
                          "see github.com/pytorch/pytorch/issues/40967 for more information", stacklevel=3)
        param_set = set()
        for group in self.param_groups:
            param_set.update(set(group['params']))
        if not param_set.isdisjoint(set(param_group['params'])):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)


class SGD(Optimizer):
    __module__ = 'torch.optim.sgd'

    def __init__(self, params, lr=required, momentum=0, dampening=0, weight_decay=0, nesterov=False, *, maximize=False,
                 foreach=None, differentiable=False):
        if lr is not required and lr < 0.0:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if momentum < 0.0:
            raise ValueError("Invalid momentum value: {}".format(momentum))
        if weight_decay < 0.0:
            raise ValueError("Invalid weight_decay value: {}".format(weight_decay))
        if differentiable:
            raise NotImplementedError("SGD(): attn does not implement differentiable=True (its optimizers step without recording a graph)")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay, nesterov=nesterov,
                        maximize=maximize, foreach=foreach, differentiable=differentiable)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault('nesterov', False)
            group.setdefault('maximize', False)
            group.setdefault('foreach', None)
            group.setdefault('differentiable', False)

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            params_with_grad = []
            d_p_list = []
            momentum_buffer_list = []
            for p in group['params']:
                if p.grad is not None:
                    params_with_grad.append(p)
                    d_p_list.append(p.grad)
                    state = self.state[p]
                    momentum_buffer_list.append(state.get('momentum_buffer'))
            torch._attn_sgd(params_with_grad, d_p_list, momentum_buffer_list, group['weight_decay'], group['momentum'],
                            group['lr'], group['dampening'], group['nesterov'], group['maximize'])
            for p, momentum_buffer in zip(params_with_grad, momentum_buffer_list):
                self.state[p]['momentum_buffer'] = momentum_buffer
        return loss


def _step_to_tensor(state):
    # Adam's and AdamW's __setstate__: a state saved with a number of steps gets a float32 tensor.
    state_values = list(state.values())
    step_is_tensor = (len(state_values) != 0) and isinstance(state_values[0]['step'], torch.Tensor)
    if not step_is_tensor:
        for s in state_values:
            s['step'] = torch.tensor(float(s['step']))


def _adam_step(opt, closure, kernel):
    # Adam.step and AdamW.step: lazy state, the lists of each group, then the native for loop.
    loss = None
    if closure is not None:
        with torch.enable_grad():
            loss = closure()
    for group in opt.param_groups:
        params_with_grad = []
        grads = []
        exp_avgs = []
        exp_avg_sqs = []
        max_exp_avg_sqs = []
        state_steps = []
        amsgrad = group['amsgrad']
        beta1, beta2 = group['betas']
        for p in group['params']:
            if p.grad is None:
                continue
            params_with_grad.append(p)
            grads.append(p.grad)
            state = opt.state[p]
            if len(state) == 0:
                state['step'] = torch.tensor(0.)
                state['exp_avg'] = torch.zeros_like(p)
                state['exp_avg_sq'] = torch.zeros_like(p)
                if amsgrad:
                    state['max_exp_avg_sq'] = torch.zeros_like(p)
            exp_avgs.append(state['exp_avg'])
            exp_avg_sqs.append(state['exp_avg_sq'])
            if amsgrad:
                max_exp_avg_sqs.append(state['max_exp_avg_sq'])
            state_steps.append(state['step'])
        kernel(params_with_grad, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, amsgrad, beta1, beta2,
               group['lr'], group['weight_decay'], group['eps'], group['maximize'])
    return loss


class Adam(Optimizer):
    __module__ = 'torch.optim.adam'

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *, foreach=None,
                 maximize=False, capturable=False, differentiable=False, fused=False):
        if not 0.0 <= lr:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if not 0.0 <= eps:
            raise ValueError("Invalid epsilon value: {}".format(eps))
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError("Invalid beta parameter at index 0: {}".format(betas[0]))
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError("Invalid beta parameter at index 1: {}".format(betas[1]))
        if not 0.0 <= weight_decay:
            raise ValueError("Invalid weight_decay value: {}".format(weight_decay))
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad, maximize=maximize,
                        foreach=foreach, capturable=capturable, differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        if fused:
            if differentiable:
                raise RuntimeError("`fused` cannot be `differentiable`")
            raise RuntimeError("FusedAdam requires all the params to be CUDA, floating point")
        if capturable:
            raise NotImplementedError("Adam(): attn does not implement capturable=True (it runs on the CPU)")
        if differentiable:
            raise NotImplementedError("Adam(): attn does not implement differentiable=True (its optimizers step without recording a graph)")

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault('amsgrad', False)
            group.setdefault('maximize', False)
            group.setdefault('foreach', None)
            group.setdefault('capturable', False)
            group.setdefault('differentiable', False)
            group.setdefault('fused', False)
        _step_to_tensor(self.state)

    @torch.no_grad()
    def step(self, closure=None, *, grad_scaler=None):
        return _adam_step(self, closure, torch._attn_adam)


class AdamW(Optimizer):
    __module__ = 'torch.optim.adamw'

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *, maximize=False,
                 foreach=None, capturable=False):
        if not 0.0 <= lr:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if not 0.0 <= eps:
            raise ValueError("Invalid epsilon value: {}".format(eps))
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError("Invalid beta parameter at index 0: {}".format(betas[0]))
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError("Invalid beta parameter at index 1: {}".format(betas[1]))
        if not 0.0 <= weight_decay:
            raise ValueError("Invalid weight_decay value: {}".format(weight_decay))
        if capturable:
            raise NotImplementedError("AdamW(): attn does not implement capturable=True (it runs on the CPU)")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad, foreach=foreach,
                        maximize=maximize, capturable=capturable)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault('amsgrad', False)
            group.setdefault('maximize', False)
            group.setdefault('foreach', None)
            group.setdefault('capturable', False)
        _step_to_tensor(self.state)

    @torch.no_grad()
    def step(self, closure=None):
        return _adam_step(self, closure, torch._attn_adamw)


def __getattr__(name):
    # torch.optim.lr_scheduler after `import torch` (PyTorch's torch/optim/__init__.py imports it):
    # lr_scheduler.py runs the first time it is named.
    if name == 'lr_scheduler':
        import torch.optim.lr_scheduler
        return torch.optim.lr_scheduler
    raise AttributeError("module 'torch.optim' has no attribute '" + name + "'")
