# `a @ b` under autograd as torch 1.13's _matmul_impl records it: the grad_fn and its whole
# next_functions tree (UnsqueezeBackward0 -> MmBackward0 -> SqueezeBackward3, a fold's
# ReshapeAliasBackward0 or CloneBackward0 -> UnsafeViewBackward0 around MmBackward0/MvBackward0,
# ExpandBackward0 -> BmmBackward0 -> UnsafeViewBackward0), for every 1-D/2-D/3-D/4-D pairing with
# and without broadcasting, leaf and non-leaf and transposed operands; the result's strides and
# version, and both gradients' bits. Not: integer matmul (no graph) or its errors (ops.py).
import torch


def chain(fn):
    if fn is None:
        return "None"
    kids = [chain(f) for f, _ in fn.next_functions]
    return fn.name() + ("(" + ", ".join(kids) + ")" if kids else "")


def bits(t):
    return " ".join(x.hex() for x in t.detach().flatten().tolist())


torch.manual_seed(1)
LEFT = [(3,), (2, 3), (4, 2, 3), (5, 4, 2, 3), (1, 2, 3), (4, 1, 2, 3)]
RIGHT = [(3,), (3, 2), (4, 3, 2), (5, 4, 3, 2), (1, 3, 2), (4, 1, 3, 2)]
for sa in LEFT:
    for sb in RIGHT:
        for mode in ("leaf", "nonleaf", "a_transposed", "b_transposed"):
            a = torch.randn(sa, requires_grad=True)
            b = torch.randn(sb, requires_grad=True)
            x, y = a, b
            if mode == "nonleaf":
                x, y = a * 1, b * 1
            if mode == "a_transposed" and a.dim() > 1:   # the same values, read column-major
                x = a.transpose(-2, -1).contiguous().transpose(-2, -1)
            if mode == "b_transposed" and b.dim() > 1:
                y = b.transpose(-2, -1).contiguous().transpose(-2, -1)
            try:
                r = x @ y
            except RuntimeError as e:
                print(sa, sb, mode, "RuntimeError:", e)
                continue
            print(sa, sb, mode, tuple(r.shape), r.stride(), r._version, chain(r.grad_fn))
            r.backward(torch.randn(r.shape))
            print("  out:", bits(r))
            print("  a.grad:", bits(a.grad))
            print("  b.grad:", bits(b.grad))

# torch.matmul and Tensor.matmul record the same graph; without gradients, no graph
a = torch.randn(2, 3, requires_grad=True)
b = torch.randn(4, 3, 5)
print(chain(torch.matmul(a, b).grad_fn))
print(chain(a.matmul(b).grad_fn))
with torch.no_grad():
    print((a @ b).grad_fn, (a @ b).stride())
# a reshape that cannot be a view copies: CloneBackward0 under UnsafeViewBackward0
c = torch.randn(4, 3, 2, requires_grad=True)
print(chain(c.transpose(1, 2).reshape(12, 2).grad_fn))
