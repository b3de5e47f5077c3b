# Review 30's last-bit findings, as PyTorch 1.13 prints them (AVX2; attn's --cpu avx2).
# #11: an in-place op whose source shares self's memory where get_overlap_status says TOO_HARD
# (neither is dense: a[:, 1:] and a[:, :-1]) reads what its own loop already wrote. The vector
# body moves 2 vectors of 32 bytes at a time (16 float32/int32, 8 int64, 64 uint8); bitwise ops,
# clamp_ with one tensor bound (maximum/minimum), add_/sub_ with alpha= and the float kernels of
# pow_, //=, %=, fmod_, remainder_ are vectorised; integer pow/floor_divide/remainder/fmod and
# shifts run element by element (an integer 0 written earlier, read as a divisor: ZeroDivisionError).
import torch
torch.manual_seed(0)
def fresh(dt=torch.float32, n=19):
    if dt == torch.float32:
        return (torch.randn(3, n) * 3).round() / 2 + 0.25
    return torch.randint(1, 9, (3, n), dtype=dt)
ops = [
 ("pow_", lambda d, s: d.pow_(s)), ("ipow", lambda d, s: d.__ipow__(s)),
 ("ifloordiv", lambda d, s: d.__ifloordiv__(s)), ("imod", lambda d, s: d.__imod__(s)),
 ("sub_alpha", lambda d, s: d.sub_(s, alpha=2)), ("add_alpha", lambda d, s: d.add_(s, alpha=0.5)),
 ("add_alpha3", lambda d, s: d.add_(s, alpha=3)),
 ("clamp_min_t", lambda d, s: d.clamp_(min=s)),
 ("fmod_", lambda d, s: d.fmod_(s)), ("remainder_", lambda d, s: d.remainder_(s)),
 ("copy_t", lambda d, s: d.copy_(s)), ("mul_", lambda d, s: d.mul_(s)), ("div_", lambda d, s: d.div_(s)),
 ("iadd", lambda d, s: d.__iadd__(s)),
 ("iand", lambda d, s: d.__iand__(s)), ("ior", lambda d, s: d.__ior__(s)), ("ixor", lambda d, s: d.__ixor__(s)),
 ("ilshift", lambda d, s: d.__ilshift__(s)), ("irshift", lambda d, s: d.__irshift__(s)),
 ("setitem", lambda d, s: d.__setitem__((slice(None), slice(None)), s)),
]
for name, f in ops:
    for dt in [torch.float32, torch.int64, torch.int32]:
        for sh, n in [("row", 19), ("row", 40), ("col", 19), ("t", 3)]:
            try:
                a = fresh(dt, n)
                if name in ("ilshift", "irshift") and dt != torch.float32: a = a % 4
                if sh == "row": d, s = a[:, 1:], a[:, :-1]
                elif sh == "col": d, s = a[1:, :], a[:-1, :]
                else: d, s = a, a.t()
                f(d, s)
                print(name, dt, sh, n, a.flatten().tolist())
            except Exception as e:
                print(name, dt, sh, n, type(e).__name__, str(e)[:120])
# review 30 #11's reproducer
for dt in [torch.int64, torch.int32, torch.float32, torch.uint8, torch.int16]:
    a = torch.arange(80, dtype=dt).view(1, 80) if dt != torch.uint8 else torch.arange(80, dtype=dt).view(1, 80)
    a = torch.cat([a, a]).clone()
    a[:, 1:].copy_(a[:, :-1])
    print("copy_", dt, a[0].tolist())
for dt in [torch.int64, torch.float32]:
    a = torch.arange(1, 41, dtype=dt).view(2, 20)
    a[:, 1:].add_(a[:, :-1])
    print("add_", dt, a[0].tolist())
a = torch.arange(1., 41.).view(2, 20)
a[:, 1:].sub_(a[:, :-1], alpha=2)
print("sub_ alpha", a[0].tolist())
a = (torch.arange(40.).view(2, 20) % 5) + 1
a[:, 1:].pow_(a[:, :-1] * 0.5)
print("pow_", a[0].tolist())
a = torch.arange(40.).view(2, 20) - 20
a[:, 1:].clamp_(min=a[:, :-1])
print("clamp_ min=t", a[0].tolist())
a = torch.arange(1, 41).view(2, 20)
a[:, 1:] |= a[:, :-1]
print("ior", a[0].tolist())
a = torch.arange(1, 41).view(2, 20)
a[:, 1:] = a[:, :-1]
print("setitem", a[0].tolist())

# review 30 #9: silu and pow backward (and 2.0 ** X) over permuted, expanded, sliced and transposed
# operands: TensorIterator(dy, x) runs the scalar loop for some layouts (glibc's exp/powf throughout),
# and pow's backward takes x.pow(exponent - 1) with exponent - 1 in exponent's layout.
import torch.nn.functional as F
torch.manual_seed(0)
for k in range(3):   # review 30 #9's reproducer: silu's X transposed to strides (1, 10, 1, 30); pow's exponent transposed
    X = (torch.randn(17, 3, 10, 1) * 2).transpose(0, 3).requires_grad_()   # (1, 3, 10, 17)
    G = torch.randn(1, 3, 10, 17)                                           # (1, 3, 10, 17)
    (F.silu(X) * G).sum().backward()
    print("silu grad", X.grad.flatten().tolist())
    A = (torch.randn(9, 17) * 2).abs().requires_grad_()                     # (9, 17)
    E = (torch.randn(17, 9) * 2).t().requires_grad_()                       # (9, 17) strides (1, 9)
    G2 = torch.randn(9, 17)
    (A ** E * G2).sum().backward()
    print("pow grads", A.grad.flatten().tolist(), E.grad.flatten().tolist())
# generated layouts (gen_layouts.py seed 1300200: silu, pow, 2.0 ** X), values and X.grad
try:
    X = (torch.randn((7,)) * 2)[..., 1::2]
    Y = (torch.randn((3,)) * 2)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = 2.0 ** X
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((13, '2.0 ** X', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(13, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((15, 1, 7)) * 2)
    Y = (torch.randn((7, 1, 15)) * 2).transpose(0, 2)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = F.silu(X)
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((29, 'F.silu(X)', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(29, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((17, 3)) * 2)
    Y = (torch.randn((17, 1)) * 2).expand((17, 3))
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = X ** Y
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((30, 'X ** Y', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(30, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((17, 5, 1, 7)) * 2).transpose(0, 3)
    Y = (torch.randn((7, 5, 1, 35)) * 2)[..., 1::2]
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = F.silu(X)
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((42, 'F.silu(X)', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(42, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((1, 15, 8, 5)) * 2).expand((3, 15, 8, 5))
    Y = (torch.randn((5, 15, 8, 3)) * 2).transpose(0, 3)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = torch.pow(X.abs(), Y.abs())
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((55, 'torch.pow(X.abs(), Y.abs())', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(55, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((31, 2, 7)) * 2)
    Y = (torch.randn((31, 2, 7)) * 2)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = F.silu(X)
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((67, 'F.silu(X)', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(67, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((9, 5)) * 2)[..., 1::2]
    Y = (torch.randn((2, 9)) * 2).transpose(0, 1)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = X ** Y
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((86, 'X ** Y', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(86, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((17, 11)) * 2)[..., 1::2]
    Y = (torch.randn((17, 5)) * 2).permute((0, 1))
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = X ** Y
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((88, 'X ** Y', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(88, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((5, 31, 2, 1)) * 2).transpose(0, 3)
    Y = (torch.randn((1, 1, 2, 5)) * 2).expand((1, 31, 2, 5))
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = X.abs() ** Y
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((103, 'X.abs() ** Y', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(103, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((17,)) * 2)
    Y = (torch.randn((17,)) * 2)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = X.abs() ** Y
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((105, 'X.abs() ** Y', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(105, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((2, 2, 63)) * 2)[..., 1::2]
    Y = (torch.randn((2, 31, 2)) * 2).permute((0, 2, 1))
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = X.abs() ** Y
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((107, 'X.abs() ** Y', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(107, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((1, 3, 8)) * 2).permute((1, 0, 2))
    Y = (torch.randn((3, 1, 8)) * 2)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = X.abs() ** Y
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((111, 'X.abs() ** Y', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(111, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((3, 1)) * 2).expand((3, 2)).transpose(0, 1)
    Y = (torch.randn((2, 3)) * 2).permute((1, 0))
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = torch.pow(X.abs(), Y.abs())
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((124, 'torch.pow(X.abs(), Y.abs())', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(124, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((1,)) * 2).expand((3,))
    Y = (torch.randn((3,)) * 2)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = X.abs() ** Y
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((130, 'X.abs() ** Y', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(130, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((1,)) * 2).expand((33,))
    Y = (torch.randn((33,)) * 2)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = 2.0 ** X
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((132, '2.0 ** X', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(132, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((1, 3, 11)) * 2).expand((11, 3, 11))
    Y = (torch.randn((11, 3, 11)) * 2)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = X.abs() ** Y
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((133, 'X.abs() ** Y', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(133, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((16, 1)) * 2).expand((16, 2)).transpose(0, 1)
    Y = (torch.randn((2, 16)) * 2).permute((1, 0))
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = F.silu(X)
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((155, 'F.silu(X)', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(155, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((2, 8, 5, 2)) * 2)
    Y = (torch.randn((2, 8, 5, 2)) * 2)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = X.abs() ** Y
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((162, 'X.abs() ** Y', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(162, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((16, 15, 1)) * 2).transpose(0, 2)
    Y = (torch.randn((16, 15, 1)) * 2).transpose(0, 2)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = X ** Y
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((186, 'X ** Y', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(186, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((2, 1)) * 2).expand((2, 17))
    Y = (torch.randn((2, 17)) * 2)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = F.silu(X)
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((187, 'F.silu(X)', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(187, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((3, 17, 1)) * 2).expand((3, 17, 1))
    Y = (torch.randn((3, 17, 1)) * 2).expand((3, 17, 1))
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = F.silu(X)
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((200, 'F.silu(X)', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(200, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((1,)) * 2).expand((17,))
    Y = (torch.randn((17,)) * 2)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = F.silu(X)
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((203, 'F.silu(X)', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(203, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((3, 1, 2, 9)) * 2).permute((0, 2, 3, 1))
    Y = (torch.randn((3, 2, 9, 3)) * 2)[..., 1::2]
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = 2.0 ** X
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((207, '2.0 ** X', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(207, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((3,)) * 2)
    Y = (torch.randn((3,)) * 2)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = 2.0 ** X
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((210, '2.0 ** X', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(210, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((5, 3)) * 2)[..., 1::2]
    Y = (torch.randn((1, 5)) * 2).transpose(0, 1)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = F.silu(X)
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((217, 'F.silu(X)', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(217, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((17, 31)) * 2)
    Y = (torch.randn((31, 17)) * 2).permute((1, 0))
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = F.silu(X)
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((218, 'F.silu(X)', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(218, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((1,)) * 2).expand((3,))
    Y = (torch.randn((3,)) * 2)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = X.abs() ** Y
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((220, 'X.abs() ** Y', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(220, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((67,)) * 2)[..., 1::2]
    Y = (torch.randn((33,)) * 2)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = X.abs() ** Y
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((226, 'X.abs() ** Y', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(226, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((33,)) * 2)
    Y = (torch.randn((33,)) * 2)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = X.abs() ** Y
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((230, 'X.abs() ** Y', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(230, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((1, 1, 17)) * 2).transpose(0, 2)
    Y = (torch.randn((17, 1, 3)) * 2)[..., 1::2]
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = F.silu(X)
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((254, 'F.silu(X)', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(254, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((15, 1, 9, 2)) * 2).expand((15, 5, 9, 2)).transpose(0, 3)
    Y = (torch.randn((5, 15, 2, 9)) * 2).permute((1, 0, 3, 2))
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = X.abs() ** Y
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((255, 'X.abs() ** Y', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(255, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((1, 9)) * 2).expand((17, 9))
    Y = (torch.randn((17, 19)) * 2)[..., 1::2]
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = F.silu(X)
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((262, 'F.silu(X)', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(262, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((9, 17, 1, 3)) * 2).expand((9, 17, 5, 3)).transpose(0, 3)
    Y = (torch.randn((9, 17, 1, 3)) * 2).expand((9, 17, 5, 3))
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = X.abs() ** Y
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((264, 'X.abs() ** Y', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(264, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((7, 5)) * 2)[..., 1::2]
    Y = (torch.randn((7, 2)) * 2).permute((0, 1))
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = 2.0 ** X
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((283, '2.0 ** X', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(283, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((31,)) * 2)
    Y = (torch.randn((31,)) * 2)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = 2.0 ** X
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((284, '2.0 ** X', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(284, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((2, 9, 16)) * 2).permute((1, 2, 0))
    Y = (torch.randn((9, 16, 5)) * 2)[..., 1::2]
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = X ** Y
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((296, 'X ** Y', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(296, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((7,)) * 2)
    Y = (torch.randn((7,)) * 2)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = X ** Y
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((309, 'X ** Y', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(309, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((7,)) * 2)
    Y = (torch.randn((15,)) * 2)[..., 1::2]
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = X.abs() ** Y
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((318, 'X.abs() ** Y', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(318, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((2, 1)) * 2).transpose(0, 1)
    Y = (torch.randn((2, 1)) * 2).permute((1, 0))
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = 2.0 ** X
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((340, '2.0 ** X', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(340, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((1, 31)) * 2).expand((5, 31)).transpose(0, 1)
    Y = (torch.randn((5, 31)) * 2)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = torch.pow(X.abs(), Y.abs())
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((341, 'torch.pow(X.abs(), Y.abs())', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(341, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((2,)) * 2)
    Y = (torch.randn((5,)) * 2)[..., 1::2]
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = F.silu(X)
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((345, 'F.silu(X)', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(345, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((2,)) * 2)
    Y = (torch.randn((2,)) * 2)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = 2.0 ** X
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((348, '2.0 ** X', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(348, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((1,)) * 2)
    Y = (torch.randn((1,)) * 2)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = X.abs() ** Y
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((350, 'X.abs() ** Y', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(350, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((1, 15, 5, 5)) * 2)
    Y = (torch.randn((1, 5, 5, 15)) * 2).permute((0, 3, 1, 2))
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = 2.0 ** X
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((363, '2.0 ** X', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(363, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((8, 5, 1)) * 2).expand((8, 5, 5)).transpose(0, 2)
    Y = (torch.randn((1, 5, 5)) * 2).expand((8, 5, 5))
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = F.silu(X)
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((365, 'F.silu(X)', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(365, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((63,)) * 2)[..., 1::2]
    Y = (torch.randn((63,)) * 2)[..., 1::2]
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = X ** Y
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((367, 'X ** Y', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(367, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((3, 1, 17)) * 2)
    Y = (torch.randn((3, 1, 35)) * 2)[..., 1::2]
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = X.abs() ** Y
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((371, 'X.abs() ** Y', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(371, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((5, 1)) * 2).expand((5, 5)).transpose(0, 1)
    Y = (torch.randn((5, 5)) * 2)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = torch.pow(X.abs(), Y.abs())
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((374, 'torch.pow(X.abs(), Y.abs())', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(374, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((1, 7, 7)) * 2).expand((5, 7, 7)).transpose(0, 2)
    Y = (torch.randn((5, 7, 15)) * 2)[..., 1::2]
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = 2.0 ** X
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((375, '2.0 ** X', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(375, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((2, 1)) * 2).expand((2, 33)).transpose(0, 1)
    Y = (torch.randn((1, 33)) * 2).expand((2, 33))
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = 2.0 ** X
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((376, '2.0 ** X', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(376, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((1,)) * 2).expand((33,))
    Y = (torch.randn((33,)) * 2)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = X ** Y
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((385, 'X ** Y', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(385, 'err', type(e).__name__, str(e)[:150])
try:
    X = (torch.randn((1, 3)) * 2).expand((16, 3)).transpose(0, 1)
    Y = (torch.randn((16, 3)) * 2)
    X.requires_grad_() if X.is_leaf else X.retain_grad()
    Z = X ** Y
    G = torch.randn(Z.shape)
    (Z * G).sum().backward()
    print(repr((396, 'X ** Y', tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
except Exception as e:
    print(396, 'err', type(e).__name__, str(e)[:150])
