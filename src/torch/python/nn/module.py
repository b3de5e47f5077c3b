# torch/python/nn/module.py: torch.nn.Module, in attn's Python, as PyTorch 1.13 writes it
# (torch/nn/modules/module.py): parameters and children registered by __setattr__ into
# _parameters / _buffers / _modules and found again by __getattr__, walked once each
# (named_modules keeps a memo, so a module that holds itself is walked once), state_dict() and
# load_state_dict() in PyTorch's order, train()/eval(), zero_grad(), apply(), and the repr tree
# with extra_repr().
#
# What it is: the module machinery, written once; the numerics are torch.* and F.* functions
# (native, bit-exact: src/torch/*.cpp over src/core). What it is not: hooks, lazy modules,
# quantization. parameters(), named_parameters(), buffers(), children(), modules() and their
# named_ forms are generators, as PyTorch's.
# torch/nn/*.py each hold the layers of one PyTorch file (linear.py: Linear, ...); attn runs a
# file in a session the first time one of its names is asked for (torch_module.cpp), so a lesson
# pays only for the layers it uses.
import torch
from _attn_collections import OrderedDict   # the native class (collections.OrderedDict); not collections.py, which every session would then parse
from torch.nn.parameter import Parameter


def _has_attr(module, name):
    # hasattr(module, name), as PyTorch's register_* ask it, without a failing __getattr__: the
    # same answer (Module.__getattr__ finds only these three dicts), and no exception raised for
    # every new parameter (an exception costs attn microseconds, CPython nanoseconds).
    return (name in module.__dict__ or hasattr(type(module), name) or name in module._parameters or
            name in module._buffers or name in module._modules)


def _addindent(s_, numSpaces):
    s = s_.split('\n')
    if len(s) == 1:
        return s_
    first = s.pop(0)
    s = [(numSpaces * ' ') + line for line in s]
    s = '\n'.join(s)
    s = first + '\n' + s
    return s


class Module:
    dump_patches = False
    _version = 1

    def __init__(self):
        object.__setattr__(self, 'training', True)
        object.__setattr__(self, '_parameters', OrderedDict())
        object.__setattr__(self, '_buffers', OrderedDict())
        object.__setattr__(self, '_non_persistent_buffers_set', {})
        object.__setattr__(self, '_modules', OrderedDict())

    def forward(self, *input):
        raise NotImplementedError('Module [' + type(self).__name__ + '] is missing the required "forward" function')

    def __call__(self, *input, **kwargs):
        return self.forward(*input, **kwargs)

    def register_buffer(self, name, tensor, persistent=True):
        if '_buffers' not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        elif not isinstance(name, str):
            raise TypeError("buffer name should be a string. Got " + torch.typename(name))
        elif '.' in name:
            raise KeyError("buffer name can't contain \".\"")
        elif name == '':
            raise KeyError("buffer name can't be empty string \"\"")
        elif _has_attr(self, name) and name not in self._buffers:
            raise KeyError("attribute '" + name + "' already exists")
        elif tensor is not None and not isinstance(tensor, torch.Tensor):
            raise TypeError("cannot assign '" + torch.typename(tensor) + "' object to buffer '" + name + "' (torch Tensor or None required)")
        else:
            self._buffers[name] = tensor
            if persistent:
                if name in self._non_persistent_buffers_set:
                    del self._non_persistent_buffers_set[name]
            else:
                self._non_persistent_buffers_set[name] = True

    def register_parameter(self, name, param):
        if '_parameters' not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        elif not isinstance(name, str):
            raise TypeError("parameter name should be a string. Got " + torch.typename(name))
        elif '.' in name:
            raise KeyError("parameter name can't contain \".\"")
        elif name == '':
            raise KeyError("parameter name can't be empty string \"\"")
        elif _has_attr(self, name) and name not in self._parameters:
            raise KeyError("attribute '" + name + "' already exists")
        if param is None:
            self._parameters[name] = None
        elif not isinstance(param, Parameter):
            raise TypeError("cannot assign '" + torch.typename(param) + "' object to parameter '" + name + "' (torch.nn.Parameter or None required)")
        elif param.grad_fn:
            raise ValueError("Cannot assign non-leaf Tensor to parameter '" + name + "'. Model parameters must be created explicitly. To express '" + name + "' as a function of another Tensor, compute the value in the forward() method.")
        else:
            self._parameters[name] = param

    def add_module(self, name, module):
        if not isinstance(module, Module) and module is not None:
            raise TypeError(torch.typename(module) + " is not a Module subclass")
        elif not isinstance(name, str):
            raise TypeError("module name should be a string. Got " + torch.typename(name))
        elif _has_attr(self, name) and name not in self._modules:
            raise KeyError("attribute '" + name + "' already exists")
        elif '.' in name:
            raise KeyError("module name can't contain \".\", got: " + name)
        elif name == '':
            raise KeyError("module name can't be empty string \"\"")
        self._modules[name] = module

    def register_module(self, name, module):
        self.add_module(name, module)

    def get_submodule(self, target):
        if target == "":
            return self
        mod = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    def get_parameter(self, target):
        module_path, _, param_name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, param_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + param_name + "`")
        param = getattr(mod, param_name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + param_name + "` is not an nn.Parameter")
        return param

    def apply(self, fn):
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def cpu(self):
        return self

    def cuda(self, device=None):
        raise NotImplementedError("Module.cuda(): attn computes on the CPU only")

    def float(self):
        return self

    def to(self, *args, **kwargs):
        torch._attn_check_to("Module.to", args, kwargs)   # the CPU and float32: attn's only device and dtype
        return self

    def __getattr__(self, name):
        if '_parameters' in self.__dict__:
            _parameters = self.__dict__['_parameters']
            if name in _parameters:
                return _parameters[name]
        if '_buffers' in self.__dict__:
            _buffers = self.__dict__['_buffers']
            if name in _buffers:
                return _buffers[name]
        if '_modules' in self.__dict__:
            modules = self.__dict__['_modules']
            if name in modules:
                return modules[name]
        raise AttributeError("'" + type(self).__name__ + "' object has no attribute '" + name + "'")

    def __setattr__(self, name, value):
        params = self.__dict__.get('_parameters')
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            _remove_from(name, self.__dict__, self._buffers, self._modules, self._non_persistent_buffers_set)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError("cannot assign '" + torch.typename(value) + "' as parameter '" + name + "' (torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        else:
            modules = self.__dict__.get('_modules')
            if isinstance(value, Module):
                if modules is None:
                    raise AttributeError("cannot assign module before Module.__init__() call")
                _remove_from(name, self.__dict__, self._parameters, self._buffers, self._non_persistent_buffers_set)
                modules[name] = value
            elif modules is not None and name in modules:
                if value is not None:
                    raise TypeError("cannot assign '" + torch.typename(value) + "' as child module '" + name + "' (torch.nn.Module or None expected)")
                modules[name] = value
            else:
                buffers = self.__dict__.get('_buffers')
                if buffers is not None and name in buffers:
                    if value is not None and not isinstance(value, torch.Tensor):
                        raise TypeError("cannot assign '" + torch.typename(value) + "' as buffer '" + name + "' (torch.Tensor or None expected)")
                    buffers[name] = value
                else:
                    object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            if name in self._non_persistent_buffers_set:
                del self._non_persistent_buffers_set[name]
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()

    def state_dict(self, *args, destination=None, prefix='', keep_vars=False):
        if len(args) > 0:
            if destination is None:
                destination = args[0]
            if len(args) > 1 and prefix == '':
                prefix = args[1]
            if len(args) > 2 and keep_vars is False:
                keep_vars = args[2]
        if destination is None:
            destination = OrderedDict()
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + '.', keep_vars=keep_vars)
        return destination

    def load_state_dict(self, state_dict, strict=True):
        missing_keys = []
        unexpected_keys = []
        own = self.state_dict(keep_vars=True)
        for key, param in own.items():
            if key not in state_dict:
                missing_keys.append(key)
                continue
            value = state_dict[key]
            if value.shape != param.shape:
                raise RuntimeError("Error(s) in loading state_dict for " + self._get_name() + ":\n\tsize mismatch for " + key +
                                   ": copying a param with shape " + str(value.shape) + " from checkpoint, the shape in current model is " + str(param.shape) + ".")
            with torch.no_grad():
                param.copy_(value)
        for key in state_dict.keys():
            if key not in own:
                unexpected_keys.append(key)
        if strict and (missing_keys or unexpected_keys):
            msgs = []
            if unexpected_keys:
                msgs.append('Unexpected key(s) in state_dict: ' + ', '.join(['"' + k + '"' for k in unexpected_keys]) + '. ')
            if missing_keys:
                msgs.append('Missing key(s) in state_dict: ' + ', '.join(['"' + k + '"' for k in missing_keys]) + '. ')
            raise RuntimeError('Error(s) in loading state_dict for ' + self._get_name() + ':\n\t' + '\n\t'.join(msgs))
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    def _named_members(self, get_members_fn, prefix='', recurse=True):
        memo = set()
        modules = self.named_modules(prefix=prefix) if recurse else [(prefix, self)]
        for module_prefix, module in modules:
            members = get_members_fn(module)
            for k, v in members:
                if v is None or v in memo:
                    continue
                memo.add(v)
                name = module_prefix + ('.' if module_prefix else '') + k
                yield name, v

    def parameters(self, recurse=True):
        for name, param in self.named_parameters(recurse=recurse):
            yield param

    def named_parameters(self, prefix='', recurse=True):
        gen = self._named_members(lambda module: module._parameters.items(), prefix=prefix, recurse=recurse)
        for elem in gen:
            yield elem

    def buffers(self, recurse=True):
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def named_buffers(self, prefix='', recurse=True):
        gen = self._named_members(lambda module: module._buffers.items(), prefix=prefix, recurse=recurse)
        for elem in gen:
            yield elem

    def children(self):
        for name, module in self.named_children():
            yield module

    def named_children(self):
        memo = set()
        for name, module in self._modules.items():
            if module is not None and module not in memo:
                memo.add(module)
                yield name, module

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_modules(self, memo=None, prefix='', remove_duplicate=True):
        if memo is None:
            memo = set()
        if self not in memo:
            if remove_duplicate:
                memo.add(self)
            yield prefix, self
            for name, module in self._modules.items():
                if module is None:
                    continue
                submodule_prefix = prefix + ('.' if prefix else '') + name
                for m in module.named_modules(memo, submodule_prefix, remove_duplicate):
                    yield m

    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=False):
        for p in self.parameters():
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    if p.grad.grad_fn is not None:
                        p.grad.detach_()
                    else:
                        p.grad.requires_grad_(False)
                    p.grad.zero_()

    def _get_name(self):
        return self.__class__.__name__

    def extra_repr(self):
        return ''

    def __repr__(self):
        extra_lines = []
        extra_repr = self.extra_repr()
        if extra_repr:
            extra_lines = extra_repr.split('\n')
        child_lines = []
        for key, module in self._modules.items():
            mod_str = repr(module)
            mod_str = _addindent(mod_str, 2)
            child_lines.append('(' + key + '): ' + mod_str)
        lines = extra_lines + child_lines
        main_str = self._get_name() + '('
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main_str += extra_lines[0]
            else:
                main_str += '\n  ' + '\n  '.join(lines) + '\n'
        main_str += ')'
        return main_str


class _IncompatibleKeys:

    def __init__(self, missing_keys, unexpected_keys):
        self.missing_keys = missing_keys
        self.unexpected_keys = unexpected_keys

    def __iter__(self):
        return iter([self.missing_keys, self.unexpected_keys])

    def __getitem__(self, k):
        return [self.missing_keys, self.unexpected_keys][k]

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return '<All keys matched successfully>'
        return '_IncompatibleKeys(missing_keys={}, unexpected_keys={})'.format(self.missing_keys, self.unexpected_keys)


def _remove_from(name, *dicts):
    for d in dicts:
        if name in d:
            del d[name]
