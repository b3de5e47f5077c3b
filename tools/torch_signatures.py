#!/usr/bin/python3
"""Print the signatures PyTorch 1.13's argument parser has for torch.NAME and Tensor.NAME, in
the order it tries them: the strings a row of attn's op table takes (src/py/op_table.h).

    /usr/bin/python3 tools/torch_signatures.py softmax sum

Needs Debian's python3-torch (its torchgen reads the native_functions.yaml it ships). The order
is the one PyTorch lists in its "invalid combination of arguments" error, which this script
provokes; functions written in Python (torch.einsum, torch.nn.functional.softmax) and the few
methods bound by hand (Tensor.size, .float) are not in native_functions.yaml: read their
signatures in PyTorch's source instead.
"""
import inspect
import os
import re
import sys

import torch
import torchgen
from torchgen.api.python import signature
from torchgen.gen import parse_native_yaml
from torchgen.model import Variant

# python_arg_parser's type names, as FunctionParameter::type_name() prints them.
MESSAGE_TYPES = {
    "Tensor": "Tensor", "Scalar": "Number", "int64_t": "int", "SymInt": "SymInt", "double": "float",
    "bool": "bool", "TensorList": "tuple of Tensors", "IntArrayRef": "tuple of ints",
    "SymIntArrayRef": "tuple of SymInts", "ScalarType": "torch.dtype", "Layout": "torch.layout",
    "Device": "torch.device", "MemoryFormat": "torch.memory_format", "Generator": "torch.Generator",
    "Dimname": "name", "DimnameList": "tuple of names", "c10::string_view": "str",
}


def message_form(sig):
    """sum(Tensor input, *, ScalarType? dtype=None) -> (Tensor input, *, torch.dtype dtype)"""
    params = sig[sig.index("(") + 1:-1]
    out = []
    for p in [p for p in params.split(", ") if p]:
        if p == "*":
            out.append("*")
            continue
        typ, name = p.split("=")[0].rsplit(" ", 1)
        typ = re.sub(r"\[\d*\]|\?", "", typ)
        out.append(MESSAGE_TYPES.get(typ, typ) + " " + name)
    return "(" + ", ".join(out) + ")"


def listed_order(name, method):
    """The overloads as PyTorch's own error lists them (empty for a single overload)."""
    fn = getattr(torch.ones(1) if method else torch, name)
    t = torch.ones(1)
    for args in ((), (t,), (t, t), (t, t, t)):   # PyTorch lists them all once no overload stands out
        try:
            fn(*args, not_a_keyword_of_any_op=1)
        except TypeError as e:
            found = re.findall(r"^ \* (\(.*\))$", str(e), re.M)
            if found:
                return found
        except Exception:
            pass
    return []


def candidates(functions, name, method):
    """Every parser signature torchgen can write for this op, with and without its out= form."""
    variant = Variant.method if method else Variant.function
    out = []
    for f in functions:
        if str(f.func.name.name) != name or variant not in f.variants:
            continue
        sig = signature(f, method=method)
        for text in (sig.signature_str(skip_outputs=True), sig.signature_str()):
            if text not in out:
                out.append(text)
    return out


def accepts_out(name):
    try:
        getattr(torch, name)(torch.ones(1), out=None)
    except TypeError as e:
        return "'out'" not in str(e)
    except Exception:
        pass
    return True


def main():
    here = os.path.join(os.path.dirname(torchgen.__file__), "packaged", "ATen", "native")
    functions = parse_native_yaml(os.path.join(here, "native_functions.yaml"), os.path.join(here, "tags.yaml")).native_functions
    for name in sys.argv[1:]:
        for method in (False, True):
            cands = candidates(functions, name, method)
            if not cands or (method and not hasattr(torch.Tensor, name)) or (not method and not hasattr(torch, name)):
                continue
            print(("Tensor." if method else "torch.") + name + ":")
            if not method and not inspect.isbuiltin(getattr(torch, name)):
                print("  written in Python: " + inspect.getsourcefile(getattr(torch, name)) + " (use its def, in Python style)")
                continue
            order = listed_order(name, method)
            if order:   # several overloads: exactly those PyTorch lists, in its order
                for option in order:
                    match = [c for c in cands if message_form(c) == option]
                    print('  "' + match[0] + '"' if match else "  ?  " + option + "   (not in native_functions.yaml)")
                continue
            plain = [c for c in cands if "Tensor out=None" not in c or method]
            with_out = [c for c in cands if "Tensor out=None" in c]
            pick = with_out if (not method and with_out and accepts_out(name)) else plain
            print('  "' + pick[0] + '"')


if __name__ == "__main__":
    main()
