# Findings of tools/torchfuzz.py (the lesson-program fuzzer), cut down, one section per fix, each as
# torch 1.13 prints it (fuzz.expected, from tools/make_torch_expected.py fuzz). Not the fuzzer's
# corpus (tests/torchfuzz/, programs attn already agreed on): the cases where it did not.
import torch


def attempt(f):
    try:
        r = f()
        print(r, getattr(r, "dtype", ""))
    except Exception as e:
        print("!", type(e).__name__, e)


# max() over every element: NaN wins wherever it stands, as amax and min() already did
for v in ([1.0, float("nan"), 3.0], [float("nan"), 1.0], [2.0, 5.0, float("nan")], [float("-inf"), 0.5]):
    x = torch.tensor(v, requires_grad=True)
    m = x.max()
    m.backward()
    print(m, x.min(), x.grad)
print(torch.pow(torch.tensor([-2.0, 2.0]), torch.tensor([0.5, 2.0])).abs().max())

# abs of an integer tensor keeps its dtype (the most negative value stays itself); bool has none
attempt(lambda: torch.tensor([-4, -3, 9, 6]).abs())
attempt(lambda: torch.abs(torch.tensor([[-1, 2], [3, -4]]).t()))
attempt(lambda: torch.tensor([-128, 5], dtype=torch.int8).abs())
attempt(lambda: torch.tensor([200, 3], dtype=torch.uint8).abs())
attempt(lambda: torch.tensor([-9223372036854775808, -3]).abs())
attempt(lambda: (torch.tensor(-6) - torch.tensor(3)).abs())
attempt(lambda: torch.tensor([True, False]).abs())
i = torch.tensor([-2, 7])
i.abs_()
print(i, i.dtype)

# a 0-d bool mask: a new dim of size 1 (True) or 0 (False)
t = torch.tensor(3)
attempt(lambda: t[t > 0])
attempt(lambda: t[t < 0])
y = torch.arange(6.0).reshape(2, 3)
attempt(lambda: y[torch.tensor(True)])
attempt(lambda: y[torch.tensor(False)].shape)
attempt(lambda: y[torch.tensor(True), 1])
attempt(lambda: y[0, torch.tensor(True)])

# tril/triu need two dims: ATen's dim -2 out of range
for f in (lambda: torch.randn(3).tril_(), lambda: torch.zeros(3).triu_(1), lambda: torch.randn(()).tril_(),
          lambda: torch.arange(3).tril(), lambda: torch.triu(torch.ones(2)), lambda: torch.ones(2, 2).tril(-1)):
    attempt(f)

# xlogy's grad_fn names ATen's overload: a number other (2) or a number self (1)
x = torch.tensor([0.5, 2.0], requires_grad=True)
print(type(torch.xlogy(x, 2).grad_fn).__name__, type(torch.xlogy(2, x).grad_fn).__name__,
      type(torch.xlogy(x, torch.tensor(2.0)).grad_fn).__name__, type(x.xlogy(3.0).grad_fn).__name__)
torch.xlogy(2, x).sum().backward()
print(x.grad)

# tril/triu of an empty 1-D tensor: empty, as ATen returns before the dim check
attempt(lambda: torch.tensor([]).tril())
attempt(lambda: torch.tensor([]).triu_(1))

# amin of an empty dim names amin (it is computed through amax or min)
attempt(lambda: torch.zeros(0, 3).amin(0))
attempt(lambda: torch.zeros(0, 3, dtype=torch.int64).amin(0))
attempt(lambda: torch.tensor([[]]).amin(-1))
attempt(lambda: torch.zeros(0).amin())
attempt(lambda: torch.zeros(0, 3).amax(0))

# softmax of a 0-d tensor: exp(x - x), NaN when x is not finite
for v in (2.5, float("nan"), float("inf"), float("-inf")):
    attempt(lambda: torch.tensor(v).softmax(0))
    attempt(lambda: torch.tensor(v).log_softmax(0))

# ~ of a float tensor is a TypeError, as torch.Tensor.__invert__ raises it
attempt(lambda: ~torch.tensor([1.0]))
attempt(lambda: ~torch.tensor([1, -2]))
attempt(lambda: ~torch.tensor([True, False]))

# F.layer_norm: an empty normalized_shape; an integer input (after the shape check)
attempt(lambda: torch.nn.functional.layer_norm(torch.ones(2), ()))
attempt(lambda: torch.nn.functional.layer_norm(torch.ones(()), ()))
attempt(lambda: torch.nn.functional.layer_norm(torch.arange(6).reshape(2, 3), (3,)))
attempt(lambda: torch.nn.LayerNorm(3, elementwise_affine=False)(torch.arange(6).reshape(2, 3)))
attempt(lambda: torch.nn.functional.layer_norm(torch.arange(6).reshape(2, 3), (2,)))

# broadcast errors name the rightmost dims that differ, as ATen's infer_size walks from the last
attempt(lambda: torch.ones(2, 4, 2) + torch.ones(3, 7, 2))
attempt(lambda: torch.pow(torch.zeros(4, 3, 4), torch.zeros(4, 4, 3)))
attempt(lambda: torch.ones(2, 3) * torch.ones(3, 2))

# matmul's shape errors come from the op ATen reaches: mv, mm of a folded operand, or bmm
for sa, sb in [((4, 5, 5), (6, 3)), ((4, 5, 5), (6,)), ((2, 4, 5, 5), (6, 3)), ((5,), (6, 3)), ((5, 5), (6, 3)), ((4, 5), (6,)),
               ((2, 5, 5), (2, 6, 3)), ((5, 5), (2, 6, 3)), ((5,), (2, 6, 3)), ((2, 1, 5, 5), (3, 6, 2)), ((0, 5, 5), (6, 3)),
               ((2, 5, 5), (1, 6, 3)), ((2, 5, 5), (3, 6, 3)), ((5,), (6,)), ((3, 0), (3, 1)), ((2, 1, 1, 3), (4, 2))]:
    attempt(lambda: (torch.ones(sa) @ torch.ones(sb)).shape)
attempt(lambda: torch.ones(4, 5, 3).transpose(1, 2) @ torch.ones(4, 2))   # 3-D with its last dims swapped: bmm
attempt(lambda: torch.ones(4, 2) @ torch.ones(4, 5, 3).transpose(1, 2))
attempt(lambda: torch.matmul(torch.ones(3, 2, 2), torch.ones(3, 1)))

# one integer or one slice as the index of a 0-d tensor: ATen's select / slice errors
for t in (torch.tensor(3), torch.tensor(2.5, requires_grad=True)):
    for f in (lambda: t[0], lambda: t[-1], lambda: t[2], lambda: t[1:], lambda: t[:], lambda: t[None, 0], lambda: t[None][0]):
        attempt(f)
z = torch.tensor(4)
for k in (0, slice(None)):
    try:
        z[k] = 1
    except Exception as e:
        print("!", type(e).__name__, e)

# integer tensor ** integer tensor stays an integer (ATen's powi: by squaring, wrapping around;
# a negative exponent gives 0 but for bases 1 and -1); a large exponent is at once
a = torch.tensor([-4, -3, 9, 6, 1, -1, 0, 2])
attempt(lambda: torch.pow(a, torch.tensor([2, 3, -1, 0, -2, -3, 0, 62])))
attempt(lambda: a.pow(torch.tensor(2)))
attempt(lambda: torch.pow(a, torch.tensor([[1], [2]])))
attempt(lambda: torch.pow(a.to(torch.int8), torch.tensor(2, dtype=torch.int8)))
attempt(lambda: torch.pow(torch.tensor([True, False]), torch.tensor([2, 3])))
attempt(lambda: torch.pow(a, torch.tensor(2.0)))
attempt(lambda: torch.pow(torch.tensor(3), torch.tensor(40)))
attempt(lambda: torch.tensor([2, -1, 1, 3]) ** (10 ** 15))
attempt(lambda: a ** 2)

# clamp with number bounds keeps -0.0 in the vector body too (max_ps/min_ps of two equal values
# return x, as std::max in the tail); a NaN bound alone is ignored
v = torch.tensor([-0.0, 0.0, -0.0, 0.7, float("nan"), -3.0, 0.5, -0.0] * 5)
for f in (lambda: v.clamp(0, 0.5), lambda: v.clamp(-0.0, 0.5), lambda: v.clamp(-1, 0.0), lambda: v.clamp(min=0), lambda: v.clamp(max=-0.0),
          lambda: torch.clamp(v, 0.0, 0.0)):
    r = f()
    print(r[:8], (1 / r).tolist())   # 1 / -0.0 is -inf
w = torch.tensor([1.0, -0.0, float("nan")] * 12)
print(w.clamp(min=float("nan"))[-6:], w.clamp(max=float("nan"))[:6], 1 / torch.clamp_min(w, 0.0)[:3], 1 / torch.clamp_max(w, -0.0)[-3:])

# torch.cat of a 0-d tensor: ATen's error, before any shape is read (attn wrote past the empty shape: SIGSEGV)
t0 = torch.ones(())
attempt(lambda: torch.cat([t0, t0 * 2], dim=0))
attempt(lambda: torch.cat([torch.ones(2), t0]))
attempt(lambda: torch.cat((t0,)))

# roll of a 0-d tensor along a dim: ATen's IndexError (attn read a dim the tensor has not: SIGSEGV)
r0 = torch.tensor(2.5)
for f in (lambda: r0.roll(1), lambda: r0.roll(1, 0), lambda: r0.roll(-3, -1), lambda: r0.roll((1, 1), (0, 0)),
          lambda: torch.ones(2).roll(1, 1), lambda: torch.ones(2).roll(1, -2)):
    attempt(f)

# derivatives attn lacked: remainder (a number or a tensor other), floor_divide and a number % x
# (torch: NotImplemented, raising at backward), x[...] (AliasBackward0), cumprod through zeros
x = torch.tensor([1.5, -2.0, 0.0], requires_grad=True)
for f in (lambda: x % 2, lambda: torch.remainder(x, torch.tensor([2.0, 0.75, -3.0])), lambda: x // 2, lambda: 3 // x,
          lambda: torch.floor_divide(x, x), lambda: 2 % x, lambda: x[...], lambda: x.cumprod(0), lambda: x[0].movedim(0, 0),
          lambda: x.movedim(-1, -1), lambda: x // torch.tensor(2), lambda: x % torch.tensor([2.0, 1.0, 3.0])):
    try:
        y = f()
        print(type(y.grad_fn).__name__, [None if n is None else type(n).__name__ for n, _ in y.grad_fn.next_functions])
        y.backward(torch.tensor([0.5, -1.25, 2.0]).expand(y.shape) if y.dim() else torch.tensor(0.5))
        print(x.grad)
    except Exception as e:
        print("!", type(e).__name__, e)
    x.grad = None
torch.manual_seed(0)
c = torch.tensor([[0.0, 1.5, -2.25, 0.75, 3.0], [1.25, 0.0, 0.0, 2.5, -1.125], [0.5, -1.75, 1.3, 2.1, 0.0],
                  [0.3, 0.7, 0.0, 1.9, -0.6], [0.0, 0.0, 0.0, 1.0, 2.0], [1.1, 1.2, 1.3, 1.4, 1.5]], requires_grad=True)
g = torch.randn(6, 5)
for dim in (0, 1):
    (c * 1).cumprod(dim).backward(g)
    print(c.grad.tolist())
    c.grad = None
r = (torch.rand(4, 7, 3) * 4 - 2).round().requires_grad_(True)   # many zeros
r.cumprod(1).backward(torch.randn(4, 7, 3))
print(r.grad.tolist())

# GELU's backward of one element (ATen's erf kernel, not oneDNN's), both approximations
for approximate in ("none", "tanh"):
    for t in (torch.tensor([0.75]), torch.tensor(-1.5), torch.linspace(-3, 3, 37).reshape(37, 1).t(), torch.linspace(-4, 4, 35)):
        t.requires_grad_(True)
        try:
            torch.nn.functional.gelu(t, approximate=approximate).backward(torch.ones(t.shape) * 0.75)
            print(approximate, t.grad.tolist())
        except Exception as e:
            print("!", approximate, type(e).__name__, e)

# xlogy with a NaN number other: 1.13 gives 0 where x == 0 (a NaN tensor other: NaN)
t = ((torch.arange(6) - 0) * 0.5).reshape((2, 3)).requires_grad_(True)
torch.xlogy(t, float("nan")).rsqrt().norm().backward()
print(t.grad)
for other in (float("nan"), -1.0, 0.0, 2.0):
    for gv in (float("nan"), 1.0, 0.0):
        u = torch.tensor([0.0, 0.5, -0.0], requires_grad=True)
        torch.xlogy(u, other).backward(torch.full((3,), gv))
        v = torch.tensor([0.0, 0.5, -0.0], requires_grad=True)
        torch.xlogy(v, torch.tensor(other)).backward(torch.full((3,), gv))
        print(other, gv, u.grad.tolist(), v.grad.tolist())

# matmul 2-D @ N-D: 1.13 folds b's batch into one mm of the transposed operands, then .mT().contiguous()
a = torch.tensor([[0.5, -1.0], [2.0, 0.25], [1.5, -0.75]], requires_grad=True)
b = torch.arange(12.0).reshape(2, 2, 3).requires_grad_(True)
y = a @ b
print(type(y.grad_fn).__name__, type(y.grad_fn.next_functions[0][0]).__name__,
      type(y.grad_fn.next_functions[0][0].next_functions[0][0]).__name__, y.is_contiguous(), y.shape)
y.backward(torch.linspace(-1, 1, 18).reshape(2, 3, 3))
print(a.grad.tolist(), b.grad.tolist())
print(type((a @ b.transpose(1, 2).transpose(1, 2)).grad_fn).__name__, type((a[0] @ b).grad_fn).__name__)

# torchfuzz seed 2212: logsumexp over an empty dim is recorded (LogsumexpBackward0), its gradient empty or zero
for shape, d, kd in [((3, 3, 2), -2, True), ((3, 0, 2), 1, False), ((0, 4), 0, True), ((2, 3), 1, False)]:
    x = torch.zeros(shape, requires_grad=True)
    y = torch.logsumexp(x.narrow(-2, 0, 0) if shape == (3, 3, 2) else x, d, keepdim=kd)
    print(y, type(y.grad_fn).__name__)
    y.sum().backward()
    print(x.grad.shape, x.grad.sum().item())

# torchfuzz seed 2212: expand's message names a bool tensor's type CPUBoolType, as ATen's toString()
for dt in (torch.bool, torch.int64, torch.float32, torch.uint8):
    try:
        torch.ones(1, 1, dtype=dt).expand(2)
    except RuntimeError as e:
        print(e)

# torchfuzz seed 2212 (5693): index_fill_ of an empty slice checks the view's own storage, then the index
# (out of bounds for the empty dim); index_fill checks its clone's (no storage)
for make, d in [(lambda: torch.tensor([[[6, 1]], [[-2, -6]], [[4, -5]], [[6, 4]]])[-2:2], 0), (lambda: torch.empty(0, 3), 0), (lambda: torch.empty(0, 3), 1),
                (lambda: torch.zeros(4, 3)[:, 3:], 1), (lambda: torch.zeros(4, 3)[:, 3:], 0), (lambda: torch.zeros(4, 3)[4:], 0)]:
    try:
        t = make()
        t.index_fill_(d, torch.tensor([0, 1]), -1)
        print(t.shape)
    except Exception as e:
        print('!', type(e).__name__, e)
    try:
        print(make().index_fill(d, torch.tensor([0]), -1).shape)
    except Exception as e:
        print('!', type(e).__name__, e)

# torchfuzz seed 31877: chunk of an empty dim is split_with_sizes of zeros, and backward goes through it
for chunks in (1, 2, 3):
    x = ((torch.arange(2) - 4) * 0.1).requires_grad_(True)
    e = x[1:-1]
    parts = torch.cat([e, e * 2]).chunk(chunks, 0)
    print(len(parts), [tuple(p.shape) for p in parts], type(parts[-1].grad_fn).__name__)
    parts[-1].sum().backward()
    print(x.grad)
# torchfuzz seed 2212 (1375): max() / min() of +-0 values: the zero reduce_all's lanes leave, not the first
for v in ([-2.0, 2.0, 4.0], [-0.0, 0.0], [0.0, -0.0, -0.0], [-0.0] * 4 + [0.0] * 5, [0.0, -0.0] * 5, [-0.0] * 8 + [0.0, -0.0, 0.0],
          [0.0] * 9 + [-0.0] * 7, [-0.0, -0.0, -0.0, -0.0, 0.0, 0.0, 0.0, 0.0, -0.0], [-0.0, 0.0, -0.0, 0.0, -0.0, 0.0, -0.0, -0.0] * 3):
    x = torch.tensor(v) % -0.5 if len(v) == 3 and v[0] == -2.0 else torch.tensor(v)
    print(x.max(), x.min(), x.amax(), x.amin(), x.reshape(1, -1).max(1).values)

# torchfuzz seed 2212 (2578): softmax over a non-last dim of size-1 inner dims takes ATen's non-last-dim
# kernels (forward and backward), not the last dim's
torch.manual_seed(5)
for fn in (torch.softmax, torch.log_softmax):
    x = torch.randn(4, 3, 1, requires_grad=True)
    s = fn(x, 1)
    s.backward(torch.randn(4, 3, 1))
    print(s.flatten().tolist(), x.grad.flatten().tolist())
w = ((torch.arange(3) - 1) * 1.25).reshape((1, 3)).requires_grad_(True)
s = torch.stack([(w @ torch.linspace(-2, 6, 12).reshape((3, 4))).transpose(0, -1)] * 3, 1)
torch.softmax(s, dim=1).abs().max().backward()
print(w.grad)

# torchfuzz seed 2212 (12776): bool | float of shapes that do not broadcast: the shapes' error first
attempt(lambda: torch.tensor([True, True, False]) | torch.tensor([[[], []], [[], []]]))
attempt(lambda: torch.tensor([True, True, False]) & torch.ones(2))
attempt(lambda: torch.tensor([True, True, False]) ^ torch.ones(3))

# torchfuzz seed 2212 (10854): two `...` in one index: each skips the unnamed dims again, and past the
# last dim PyTorch sees a size of 0
y = torch.arange(80).reshape((4, 4, 5))
for f in (lambda: y[..., ..., -1], lambda: y[..., ..., 0, 0], lambda: y[..., ..., :], lambda: y[..., ..., None],
          lambda: y[..., ...].shape, lambda: y[0, ..., ...].shape, lambda: torch.arange(5)[..., ..., -1]):
    attempt(f)

# einsum of integer and bool tensors computes in their dtype (uint8 wraps), as ATen's bmm / mul / sum / permute
ea, eb = torch.arange(6).reshape(2, 3) - 2, torch.arange(12).reshape(3, 4) * 3
for f in (lambda: torch.einsum("ij,jk->ik", ea, eb), lambda: torch.einsum("ij->ji", ea), lambda: torch.einsum("ij->j", ea),
          lambda: torch.einsum("ij,ij->ij", ea, ea), lambda: torch.einsum("ij,jk->ik", ea, eb.float()),
          lambda: torch.einsum("ij,jk->ik", ea.float(), eb), lambda: torch.einsum("ij,jk->ik", ea > 0, eb > 0),
          lambda: torch.einsum("ij,jk", ea.to(torch.int32), eb.to(torch.int32)), lambda: torch.einsum("i,i->", ea[0], ea[1]),
          lambda: torch.einsum("ij,kj->ik", ea.to(torch.uint8), ea.to(torch.uint8)), lambda: torch.einsum("ij->", ea > 0),
          lambda: torch.einsum("ij,ij->ij", ea > 0, ea > 1), lambda: torch.einsum("ij,jk->ik", torch.full((2, 3), 2**62), torch.full((3, 4), 3)),
          lambda: torch.einsum("ij,ij->ij", ea.to(torch.int32), ea), lambda: torch.einsum("ij,ij->ij", ea, ea.float())):
    attempt(f)

# hostile review: einsum's parse in ATen's order, with its messages (an output subscript given twice computed)
x1, x4 = torch.arange(3.0), torch.arange(4.0)
x2, x23 = torch.arange(9.0).reshape(3, 3), torch.arange(6.0).reshape(2, 3)
for eq, ops in [("i", (x1, x1)), ("i,j", (x1,)), ("i1", (x2,)), ("i", (x2,)), ("ij", (x1,)), ("i->ii", (x1,)), ("ij->iij", (x2,)),
                ("i->j", (x1,)), ("i,i", (x1, x4)), ("ii", (x23,)), ("i->1", (x1,)), ("i,i->", (x1, x1)), ("I->I", (x1,)),
                (" i -> i ", (x1,)), ("i->i->i", (x1,)), ("ij,jk", (x23, x23)), ("i-", (x1,)), ("", (x1,)), ("i,", (x1, x1)),
                ("ii->i", (x2,)), ("i->ii", (x2,)), ("i1->i", (x1, x1)), ("i,j,k", (x1, x1)), ("ii,i->i", (x23, x4)),
                ("i,ii", (x4, x23)), ("i->1", (x2,)), ("ab,1", (x1, x1, x1)), ("ij,j", (x2, torch.ones(1)))]:
    try:
        print(repr(eq), torch.einsum(eq, *ops))
    except RuntimeError as e:
        print(repr(eq), "!", e)

# hostile review 11: an in-place op whose operand partially overlaps what it writes is refused, as TensorIterator does
def attempt(name, f):
    try:
        print(name, f())
    except RuntimeError as e:
        print(name, "!", e)
x = torch.arange(6.)
attempt("add_", lambda: x.view(2, 3).add_(x[:3]))
attempt("sub_", lambda: x.view(2, 3).sub_(x[3:]))
attempt("mul_", lambda: x[1:].mul_(x[:-1]))
attempt("div_", lambda: x[:4].div_(x[2:]))
def iadd():
    y = x.view(2, 3)
    y += x[:3]
    return y
attempt("iadd", iadd)
attempt("full", lambda: x.add_(x))
attempt("disjoint", lambda: x[:3].add_(x[3:]))
attempt("alpha", lambda: x[1:].add_(x[:-1], alpha=2))
attempt("transposed", lambda: x.view(2, 3).t().add_(x.view(3, 2)))
attempt("copy_", lambda: x[1:].copy_(x[:-1]))
print(x)

# hostile review 16: int64's extremes, a grad or Parameter of another dtype, 129 nested lists, index_select's two messages
def show(f):
    try:
        print(f())
    except Exception as e:
        print("!", type(e).__name__, e)
show(lambda: torch.tensor([2**63 - 1, -2**63]))
w = torch.ones(3, requires_grad=True)
def assign_long_grad():
    w.grad = torch.ones(3, dtype=torch.long)
    return w.grad
show(assign_long_grad)
show(lambda: torch.nn.Parameter(torch.ones(2, dtype=torch.long)))
show(lambda: torch.nn.Parameter(torch.ones(2, dtype=torch.long), requires_grad=False).requires_grad)
for n in (128, 129):
    nested = 1.0
    for i in range(n):
        nested = [nested]
    show(lambda: torch.tensor(nested).dim())
for x in (torch.zeros(3), torch.zeros(3, 2), torch.zeros(2, 3), torch.tensor(1.0)):
    for d in (0, -1):
        for idx in ([-1], [3], [0]):
            show(lambda: x.index_select(d, torch.tensor(idx)).shape)

# hostile review 16: torch.manual_seed takes int(seed): a float seeds as its int, NaN is int()'s ValueError
for s in (1.5, 2.0, True, -1.5, float("nan")):
    try:
        torch.manual_seed(s)
        print(s, torch.rand(1), torch.initial_seed())
    except Exception as e:
        print(s, type(e).__name__, e)

# add/sub with alpha= over a broadcast operand (torchfuzz seed 4242): the AVX2 kernel fuses a + alpha*b
# except in the scalar tail of an inner loop whose b has stride 0, where GCC's 4-wide epilogue rounds alpha*b
# first (its first element and the last m % 4 stay fused); the result laid out as TensorIterator lays it out
torch.manual_seed(970080)
t = torch.tensor([[[[2.42], [-5.0], [-5.0], [0.0], [123456.75]], [[1e-08], [0.1], [float('inf')], [3.0], [2.814]]],
                  [[[0.3917004808537332], [3.0], [0.5], [5.0], [-0.9531404553148468]], [[-0.38157745940979826], [-2.722], [-0.12363411464668594], [-0.0], [-5.0]]]])
print(torch.sub(t, torch.randn((2, 1, 1)), alpha=3).tolist())
torch.manual_seed(1)
for sa, sb in [((5,), (5,)), ((37,), (1,)), ((1,), (37,)), ((37,), ()), ((3, 37), (3, 1)), ((3, 37), (37,)), ((3, 1), (3, 37)), ((2, 2, 5, 1), (2, 1, 1)),
               ((4, 40), (4, 1)), ((40, 4), (40, 1)), ((2, 3, 20), (3, 1)), ((20, 3), (1, 3)), ((17, 2, 9), (2, 1)), ((70,), (1,)), ((6, 29), (6, 1))]:
    for tr in (False, True):
        a = torch.randn(sa) * 3
        if tr and a.dim() >= 2:
            a = a.transpose(0, 1).contiguous().transpose(0, 1)
        b = torch.randn(sb)
        for alpha in (3, -0.7):
            r = torch.add(a, b, alpha=alpha)
            print(sa, sb, tr, alpha, r.stride(), r.flatten().tolist(), torch.sub(a, b, alpha=alpha).flatten().tolist()[-8:])
    x = torch.randn(sa)
    try:
        with torch.no_grad():
            x.add_(torch.randn(sb), alpha=0.3)
        print(x.flatten().tolist()[-6:])
    except Exception as e:
        print("!", type(e).__name__, e)

# var/std over several dims at once (1.13: Welford in double per output in memory order, one output: two passes), keepdim,
# unbiased/correction, their errors, and VarBackward0/StdBackward0 (var_backward with unsqueeze_multiple)
torch.manual_seed(0)


def attempt_var(name, f):
    try:
        r = f()
        print(name, tuple(r.shape), r.flatten().tolist()[:6], r.grad_fn.name() if r.grad_fn is not None else None)
    except Exception as e:
        print(name, "!", type(e).__name__, e)


x = torch.randn(3, 4, 5, requires_grad=True)
big = torch.randn(6, 70, 9) * 100 + 3
for name, f in [("var01", lambda: x.var((0, 1))), ("var02k", lambda: x.var((0, 2), keepdim=True)), ("std12", lambda: x.std((1, 2))),
                ("std-1-2", lambda: x.std((-1, -2), unbiased=False)), ("varc0", lambda: x.var((0, 1), correction=0)), ("varc2", lambda: torch.var(x, (0, 2), correction=2, keepdim=True)),
                ("std all3", lambda: x.std((0, 1, 2))), ("var all3 k", lambda: x.var((2, 0, 1), keepdim=True)), ("dup", lambda: x.var((0, 0))),
                ("big", lambda: big.var((0, 2))), ("bigstd", lambda: big.std((0, 1))), ("1x", lambda: torch.randn(1, 4, 1).var((0, 2))),
                ("t", lambda: x.transpose(0, 2).var((0, 1))), ("empty", lambda: torch.zeros(0, 3, 2).var((0, 2))), ("empty2", lambda: torch.zeros(2, 0, 3).var((0, 1))),
                ("corr n", lambda: torch.randn(2, 2, 3).var((0, 1), correction=4)), ("int", lambda: torch.arange(6).reshape(2, 3).var((0, 1))),
                ("1d", lambda: torch.randn(5).var((0,))), ("1dd", lambda: torch.randn(5).var((0, -1))), ("std fn", lambda: torch.std(x, dim=(0, 1), keepdim=True)),
                ("oob", lambda: x.var((0, 3)))]:
    attempt_var(name, f)
for kd in (False, True):
    for dims, c in (((0, 1), 1), ((0, 2), 0), ((1, 2), 2), ((0, 1, 2), 1), ((2, 0), 1)):
        for sq in (False, True):
            x.grad = None
            r = (x.std if sq else x.var)(dims, correction=c, keepdim=kd)
            (r * torch.arange(r.numel()).reshape(r.shape)).sum().backward()
            print(kd, dims, c, sq, x.grad.flatten().tolist()[:8], x.grad.sum().item())


# einsum of three or more integer/bool operands ends in the dtype of 1.13's left-to-right pairwise chain (sum: int64,
# mul: promoted, bmm: one dtype); indexing by a float, str, bytes or another object is torch's IndexError/TypeError


def attempt_chain(name, f):
    try:
        r = f()
        print(name, r, getattr(r, "dtype", ""))
    except Exception as e:
        print(name, "!", type(e).__name__, e)


a = torch.arange(6).reshape(2, 3); b = torch.arange(12).reshape(3, 4); c = torch.arange(4)
i8 = c.to(torch.int8); i32 = c.to(torch.int32); bo = c > 1
for eq, ops in [("ij,jk,k->i", (a, b, c)), ("ij,jk,k->i", (a, b, i32)), ("ij,jk,k->i", (a, b.int(), c)), ("i,j,k->", (c, i8, c)), ("i,j,k->ijk", (i8, i32, bo)),
                ("i,i,i->", (bo, bo, bo)), ("i,i,i->i", (bo, i8, bo)), ("i,j,j->i", (c, i8, i8)), ("i,j,j->i", (i8, c, i8)), ("ij,j,j->", (a, a[0], a[1].float())),
                ("ij,jk,kl->", (a, b, b.t())), ("ab,bc,cd,de->ae", (a, b, b.t(), a.t())), ("i,i,j->j", (c, c, i8)), ("i,j,i->j", (c, i8, c)), ("i,i,i->", (i8, i8, i8)),
                ("i,i,i->", (c.float(), c, c)), ("ii,i,i->i", (b[:, :3], c[:3], c[:3])), ("i,j,k", (c, c, c))]:
    attempt_chain(eq, lambda: torch.einsum(eq, *ops))
t = torch.arange(12.0).reshape(3, 4)
for name, f in [("float", lambda: t[1.0]), ("str", lambda: t["a"]), ("float tuple", lambda: t[0, 1.5]), ("none float", lambda: t[None, 2.0]),
                ("slice float", lambda: t[0.5:2]), ("bytes", lambda: t[b"a"]), ("dict", lambda: t[{}]), ("set", lambda: t[{1}]), ("fn", lambda: t[len]),
                ("class", lambda: t[int]), ("mod", lambda: t[torch])]:
    attempt_chain(name, f)
for key in (1.0, "x", 2.5, {}):
    try:
        t[key] = 0
        print(t)
    except Exception as e:
        print("set", "!", type(e).__name__, e)


# max/min/amax/amin/argmax read a view in place (no copy of an expanded view): the same values, NaN and ±0 winners
torch.manual_seed(5)
n = float("nan")
vals = [torch.tensor([[0.0, -0.0, 1.0], [-0.0, 0.0, -1.0]]), torch.tensor([[1.0, n, 3.0], [n, 2.0, -5.0]]), torch.randn(4, 1, 3).expand(4, 5, 3),
        torch.randn(3, 7).t(), torch.tensor([[-0.0, 0.0], [0.0, -0.0]]).t(), torch.randn(2, 3, 4).permute(2, 0, 1)[:, ::2], torch.tensor(2.5),
        torch.tensor([[3, -1, 7], [7, 2, 0]]).t(), torch.tensor([[n, 1.0], [2.0, n]]).t().expand(3, 2, 2)]
for t in vals:
    out = [t.max().tolist(), t.min().tolist(), t.amax().tolist(), t.amin().tolist(), t.argmax().tolist()]
    for d in range(t.dim()):
        mv, mi = t.max(d)
        nv, ni = t.min(d)
        out += [mv.tolist(), mi.tolist(), nv.tolist(), ni.tolist(), t.amax(d).tolist(), t.amin(d, keepdim=True).tolist(), t.argmax(d).tolist()]
    print([str(v) for v in out])
big = torch.randn(3000, 1).expand(3000, 3000)
print(big.max().item() == big[:, 0].max().item(), big.amax(0).shape, big.argmax().item() == big[:, 0].argmax().item() * 3000, big.min(1).indices.sum().item())

# set_printoptions(precision=-1) (or -2 with sci_mode): printing a float tensor is Python's ValueError from format(), ints and
# integral floats print (no precision used); the default profile restores it
torch.set_printoptions(precision=-1)
for t in [torch.arange(3.0), torch.tensor([1, 2]), torch.zeros(2), torch.tensor([0.5, 1.0]), torch.tensor(float("nan")), torch.tensor([1e10, 1.0]), torch.tensor([])]:
    try:
        print(t)
    except Exception as e:
        print("!", type(e).__name__, e)
torch.set_printoptions(precision=-2, sci_mode=True)
for t in [torch.arange(3.0), torch.tensor([1, 2]), torch.tensor([0.5, 1.0])]:
    try:
        print(t)
    except Exception as e:
        print("!", type(e).__name__, e)
torch.set_printoptions(profile="default")
print(torch.tensor([0.5, 1.0]))

# hardtanh's backward at a NaN input: +0 in the vector body, the incoming grad in the scalar tail
# (torchfuzz seed 2511 #2276), for lengths around the vector width.
for n in (5, 8, 9, 17, 75):
    x = torch.linspace(-2, 2, n)
    x[::3] = float('nan')
    x.requires_grad_(True)
    torch.nn.functional.hardtanh(x).backward(torch.full((n,), 0.5))
    print(n, x.grad)

# torchfuzz seed 910000 #9533: chunk of an empty tensor is split_with_sizes of zeros, whose outputs
# are views of one multi-output node: an in-place write to one is refused, as for split and unbind
for make in (lambda v: v.chunk(2, -1), lambda v: v.split([1, 2]), lambda v: torch.split(v, [2, 1])):
    try:
        parts = make(torch.ones(3, requires_grad=True) * 1.5)
        print([p._is_view() for p in parts], [p.grad_fn.name() for p in parts])
        parts[-1].clamp_(min=0)
    except Exception as e:
        print("!", type(e).__name__, e)
try:
    e = (torch.ones((0,), requires_grad=True) * 1.5).chunk(2, -1)[-1]
    e.clamp_(min=0)
except Exception as e:
    print("!", type(e).__name__, e)

# torchfuzz seed 1300000 #3617: std/var over a dim of a 0-d tensor take dim 0 or -1 only
for dim in (1, -2, 0, -1):
    for f in (torch.std, torch.var):
        try:
            print(dim, f(torch.tensor(3.0), dim), f(torch.tensor(3.0), dim, keepdim=True))
        except Exception as e:
            print("!", type(e).__name__, e)
