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
