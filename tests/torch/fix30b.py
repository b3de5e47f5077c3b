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
def layout_case(n, label, make_x, make_y, op):
    # X (and Y) drawn in that order, then G: the generator's draws as the generated cases made them
    try:
        X = make_x()
        Y = make_y() if make_y else None
        X.requires_grad_() if X.is_leaf else X.retain_grad()
        Z = op(X, Y)
        G = torch.randn(Z.shape)
        (Z * G).sum().backward()
        print(repr((n, label, tuple(Z.shape), Z.detach().flatten().tolist(), X.grad.flatten().tolist() if X.grad is not None else None)))
    except Exception as e:
        print(n, 'err', type(e).__name__, str(e)[:150])


layout_case(13, '2.0 ** X', lambda: (torch.randn((7,)) * 2)[..., 1::2], lambda: (torch.randn((3,)) * 2), lambda X, Y: 2.0 ** X)
layout_case(29, 'F.silu(X)', lambda: (torch.randn((15, 1, 7)) * 2), lambda: (torch.randn((7, 1, 15)) * 2).transpose(0, 2), lambda X, Y: F.silu(X))
layout_case(30, 'X ** Y', lambda: (torch.randn((17, 3)) * 2), lambda: (torch.randn((17, 1)) * 2).expand((17, 3)), lambda X, Y: X ** Y)
layout_case(42, 'F.silu(X)', lambda: (torch.randn((17, 5, 1, 7)) * 2).transpose(0, 3), lambda: (torch.randn((7, 5, 1, 35)) * 2)[..., 1::2], lambda X, Y: F.silu(X))
layout_case(55, 'torch.pow(X.abs(), Y.abs())', lambda: (torch.randn((1, 15, 8, 5)) * 2).expand((3, 15, 8, 5)), lambda: (torch.randn((5, 15, 8, 3)) * 2).transpose(0, 3), lambda X, Y: torch.pow(X.abs(), Y.abs()))
layout_case(67, 'F.silu(X)', lambda: (torch.randn((31, 2, 7)) * 2), lambda: (torch.randn((31, 2, 7)) * 2), lambda X, Y: F.silu(X))
layout_case(86, 'X ** Y', lambda: (torch.randn((9, 5)) * 2)[..., 1::2], lambda: (torch.randn((2, 9)) * 2).transpose(0, 1), lambda X, Y: X ** Y)
layout_case(88, 'X ** Y', lambda: (torch.randn((17, 11)) * 2)[..., 1::2], lambda: (torch.randn((17, 5)) * 2).permute((0, 1)), lambda X, Y: X ** Y)
layout_case(103, 'X.abs() ** Y', lambda: (torch.randn((5, 31, 2, 1)) * 2).transpose(0, 3), lambda: (torch.randn((1, 1, 2, 5)) * 2).expand((1, 31, 2, 5)), lambda X, Y: X.abs() ** Y)
layout_case(105, 'X.abs() ** Y', lambda: (torch.randn((17,)) * 2), lambda: (torch.randn((17,)) * 2), lambda X, Y: X.abs() ** Y)
layout_case(107, 'X.abs() ** Y', lambda: (torch.randn((2, 2, 63)) * 2)[..., 1::2], lambda: (torch.randn((2, 31, 2)) * 2).permute((0, 2, 1)), lambda X, Y: X.abs() ** Y)
layout_case(111, 'X.abs() ** Y', lambda: (torch.randn((1, 3, 8)) * 2).permute((1, 0, 2)), lambda: (torch.randn((3, 1, 8)) * 2), lambda X, Y: X.abs() ** Y)
layout_case(124, 'torch.pow(X.abs(), Y.abs())', lambda: (torch.randn((3, 1)) * 2).expand((3, 2)).transpose(0, 1), lambda: (torch.randn((2, 3)) * 2).permute((1, 0)), lambda X, Y: torch.pow(X.abs(), Y.abs()))
layout_case(130, 'X.abs() ** Y', lambda: (torch.randn((1,)) * 2).expand((3,)), lambda: (torch.randn((3,)) * 2), lambda X, Y: X.abs() ** Y)
layout_case(132, '2.0 ** X', lambda: (torch.randn((1,)) * 2).expand((33,)), lambda: (torch.randn((33,)) * 2), lambda X, Y: 2.0 ** X)
layout_case(133, 'X.abs() ** Y', lambda: (torch.randn((1, 3, 11)) * 2).expand((11, 3, 11)), lambda: (torch.randn((11, 3, 11)) * 2), lambda X, Y: X.abs() ** Y)
layout_case(155, 'F.silu(X)', lambda: (torch.randn((16, 1)) * 2).expand((16, 2)).transpose(0, 1), lambda: (torch.randn((2, 16)) * 2).permute((1, 0)), lambda X, Y: F.silu(X))
layout_case(162, 'X.abs() ** Y', lambda: (torch.randn((2, 8, 5, 2)) * 2), lambda: (torch.randn((2, 8, 5, 2)) * 2), lambda X, Y: X.abs() ** Y)
layout_case(186, 'X ** Y', lambda: (torch.randn((16, 15, 1)) * 2).transpose(0, 2), lambda: (torch.randn((16, 15, 1)) * 2).transpose(0, 2), lambda X, Y: X ** Y)
layout_case(187, 'F.silu(X)', lambda: (torch.randn((2, 1)) * 2).expand((2, 17)), lambda: (torch.randn((2, 17)) * 2), lambda X, Y: F.silu(X))
layout_case(200, 'F.silu(X)', lambda: (torch.randn((3, 17, 1)) * 2).expand((3, 17, 1)), lambda: (torch.randn((3, 17, 1)) * 2).expand((3, 17, 1)), lambda X, Y: F.silu(X))
layout_case(203, 'F.silu(X)', lambda: (torch.randn((1,)) * 2).expand((17,)), lambda: (torch.randn((17,)) * 2), lambda X, Y: F.silu(X))
layout_case(207, '2.0 ** X', lambda: (torch.randn((3, 1, 2, 9)) * 2).permute((0, 2, 3, 1)), lambda: (torch.randn((3, 2, 9, 3)) * 2)[..., 1::2], lambda X, Y: 2.0 ** X)
layout_case(210, '2.0 ** X', lambda: (torch.randn((3,)) * 2), lambda: (torch.randn((3,)) * 2), lambda X, Y: 2.0 ** X)
layout_case(217, 'F.silu(X)', lambda: (torch.randn((5, 3)) * 2)[..., 1::2], lambda: (torch.randn((1, 5)) * 2).transpose(0, 1), lambda X, Y: F.silu(X))
layout_case(218, 'F.silu(X)', lambda: (torch.randn((17, 31)) * 2), lambda: (torch.randn((31, 17)) * 2).permute((1, 0)), lambda X, Y: F.silu(X))
layout_case(220, 'X.abs() ** Y', lambda: (torch.randn((1,)) * 2).expand((3,)), lambda: (torch.randn((3,)) * 2), lambda X, Y: X.abs() ** Y)
layout_case(226, 'X.abs() ** Y', lambda: (torch.randn((67,)) * 2)[..., 1::2], lambda: (torch.randn((33,)) * 2), lambda X, Y: X.abs() ** Y)
layout_case(230, 'X.abs() ** Y', lambda: (torch.randn((33,)) * 2), lambda: (torch.randn((33,)) * 2), lambda X, Y: X.abs() ** Y)
layout_case(254, 'F.silu(X)', lambda: (torch.randn((1, 1, 17)) * 2).transpose(0, 2), lambda: (torch.randn((17, 1, 3)) * 2)[..., 1::2], lambda X, Y: F.silu(X))
layout_case(255, 'X.abs() ** Y', lambda: (torch.randn((15, 1, 9, 2)) * 2).expand((15, 5, 9, 2)).transpose(0, 3), lambda: (torch.randn((5, 15, 2, 9)) * 2).permute((1, 0, 3, 2)), lambda X, Y: X.abs() ** Y)
layout_case(262, 'F.silu(X)', lambda: (torch.randn((1, 9)) * 2).expand((17, 9)), lambda: (torch.randn((17, 19)) * 2)[..., 1::2], lambda X, Y: F.silu(X))
layout_case(264, 'X.abs() ** Y', lambda: (torch.randn((9, 17, 1, 3)) * 2).expand((9, 17, 5, 3)).transpose(0, 3), lambda: (torch.randn((9, 17, 1, 3)) * 2).expand((9, 17, 5, 3)), lambda X, Y: X.abs() ** Y)
layout_case(283, '2.0 ** X', lambda: (torch.randn((7, 5)) * 2)[..., 1::2], lambda: (torch.randn((7, 2)) * 2).permute((0, 1)), lambda X, Y: 2.0 ** X)
layout_case(284, '2.0 ** X', lambda: (torch.randn((31,)) * 2), lambda: (torch.randn((31,)) * 2), lambda X, Y: 2.0 ** X)
layout_case(296, 'X ** Y', lambda: (torch.randn((2, 9, 16)) * 2).permute((1, 2, 0)), lambda: (torch.randn((9, 16, 5)) * 2)[..., 1::2], lambda X, Y: X ** Y)
layout_case(309, 'X ** Y', lambda: (torch.randn((7,)) * 2), lambda: (torch.randn((7,)) * 2), lambda X, Y: X ** Y)
layout_case(318, 'X.abs() ** Y', lambda: (torch.randn((7,)) * 2), lambda: (torch.randn((15,)) * 2)[..., 1::2], lambda X, Y: X.abs() ** Y)
layout_case(340, '2.0 ** X', lambda: (torch.randn((2, 1)) * 2).transpose(0, 1), lambda: (torch.randn((2, 1)) * 2).permute((1, 0)), lambda X, Y: 2.0 ** X)
layout_case(341, 'torch.pow(X.abs(), Y.abs())', lambda: (torch.randn((1, 31)) * 2).expand((5, 31)).transpose(0, 1), lambda: (torch.randn((5, 31)) * 2), lambda X, Y: torch.pow(X.abs(), Y.abs()))
layout_case(345, 'F.silu(X)', lambda: (torch.randn((2,)) * 2), lambda: (torch.randn((5,)) * 2)[..., 1::2], lambda X, Y: F.silu(X))
layout_case(348, '2.0 ** X', lambda: (torch.randn((2,)) * 2), lambda: (torch.randn((2,)) * 2), lambda X, Y: 2.0 ** X)
layout_case(350, 'X.abs() ** Y', lambda: (torch.randn((1,)) * 2), lambda: (torch.randn((1,)) * 2), lambda X, Y: X.abs() ** Y)
layout_case(363, '2.0 ** X', lambda: (torch.randn((1, 15, 5, 5)) * 2), lambda: (torch.randn((1, 5, 5, 15)) * 2).permute((0, 3, 1, 2)), lambda X, Y: 2.0 ** X)
layout_case(365, 'F.silu(X)', lambda: (torch.randn((8, 5, 1)) * 2).expand((8, 5, 5)).transpose(0, 2), lambda: (torch.randn((1, 5, 5)) * 2).expand((8, 5, 5)), lambda X, Y: F.silu(X))
layout_case(367, 'X ** Y', lambda: (torch.randn((63,)) * 2)[..., 1::2], lambda: (torch.randn((63,)) * 2)[..., 1::2], lambda X, Y: X ** Y)
layout_case(371, 'X.abs() ** Y', lambda: (torch.randn((3, 1, 17)) * 2), lambda: (torch.randn((3, 1, 35)) * 2)[..., 1::2], lambda X, Y: X.abs() ** Y)
layout_case(374, 'torch.pow(X.abs(), Y.abs())', lambda: (torch.randn((5, 1)) * 2).expand((5, 5)).transpose(0, 1), lambda: (torch.randn((5, 5)) * 2), lambda X, Y: torch.pow(X.abs(), Y.abs()))
layout_case(375, '2.0 ** X', lambda: (torch.randn((1, 7, 7)) * 2).expand((5, 7, 7)).transpose(0, 2), lambda: (torch.randn((5, 7, 15)) * 2)[..., 1::2], lambda X, Y: 2.0 ** X)
layout_case(376, '2.0 ** X', lambda: (torch.randn((2, 1)) * 2).expand((2, 33)).transpose(0, 1), lambda: (torch.randn((1, 33)) * 2).expand((2, 33)), lambda X, Y: 2.0 ** X)
layout_case(385, 'X ** Y', lambda: (torch.randn((1,)) * 2).expand((33,)), lambda: (torch.randn((33,)) * 2), lambda X, Y: X ** Y)
layout_case(396, 'X ** Y', lambda: (torch.randn((1, 3)) * 2).expand((16, 3)).transpose(0, 1), lambda: (torch.randn((16, 3)) * 2), lambda X, Y: X ** Y)
