# Issue 20's torch items on reductions and masks, as PyTorch 1.13 prints them: logsumexp over
# several dims (tuples, negative dims, keepdim, (), infinities, empty inputs) with its gradient's
# bits; masked_fill with masks of every dtype (1.13's kernel reads each element's low byte, which
# must be 0 or 1: a float 1.0 fills nothing), masked_select's and where's refusals of such masks,
# torch.where(condition); cumsum/cumprod to an integer dtype of an input that requires grad; tril_/triu_
# on an expanded view that requires grad.
# Errors are printed as "Type - message".
import torch


def show(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + " -", e)


def bits(t):
    return repr(t.flatten().tolist())


# ---- logsumexp over several dims ----
torch.manual_seed(0)
x = torch.randn(3, 4, 5, requires_grad=True)
for dims, kd in [((0, 2), False), ((-1, 0), True), ((1,), False), ((), False), ((), True), ((-3, -2, -1), True),
                 ([2, 1], False), (1, True), ((0, 1, 2), False)]:
    try:
        y = torch.logsumexp(x, dims, keepdim=kd)
    except Exception as e:
        print(dims, kd, type(e).__name__ + " -", e)
        continue
    print(dims, kd, tuple(y.shape), y.grad_fn.name(), bits(y))
    x.grad = None
    (y * torch.arange(1., y.numel() + 1).reshape(y.shape)).sum().backward()
    print("  grad", bits(x.grad))
print(bits(x.logsumexp((0, 1))), bits(torch.logsumexp(x * 40, (2, 0))))
show(lambda: torch.logsumexp(x, (0, 0)))
show(lambda: torch.logsumexp(x, (0, 3)))
show(lambda: torch.logsumexp(torch.tensor([[float("inf"), 1.], [float("-inf"), float("-inf")]]), (0, 1)))
show(lambda: torch.logsumexp(torch.tensor([[float("-inf"), 1.], [float("-inf"), float("-inf")]]), (0,)))
show(lambda: torch.logsumexp(torch.tensor([[float("nan"), 1.], [2., float("-inf")]]), (-1, -2), keepdim=True))
show(lambda: torch.logsumexp(torch.ones(0, 3), (0, 1)))
show(lambda: torch.logsumexp(torch.ones(0, 3), (0,), True))
show(lambda: torch.logsumexp(torch.tensor([[1, 2], [3, 4]]), (0, 1)))
show(lambda: torch.logsumexp(torch.tensor(2.5), (0,)))

# ---- masks of other dtypes ----
m = torch.arange(6.).reshape(2, 3)
show(lambda: m.masked_fill(torch.tensor([[1., 0., 1.], [0., 0., 1.]]), -1.))
show(lambda: m.masked_fill(torch.tensor([[1., 0., 2.], [1e-45, -0.0, 3e-45]]), -1.))
show(lambda: m.masked_fill(torch.tensor([[1., 0., 2.], [1e-45, -0.0, 4.]]), -1.))
show(lambda: m.masked_fill(torch.tensor([[0.1, 0., 1.], [0., 0., 1.]]), -1.))
show(lambda: m.masked_fill(torch.tensor([[1, 0, 1], [0, 0, 1]]), -1.))
show(lambda: m.masked_fill(torch.tensor([[256, 0, 1], [257, 512, 3]]), -1.))
show(lambda: m.masked_fill(torch.tensor([[256, 0, 1], [257, 512, 1]]), -1.))
show(lambda: m.masked_fill(torch.tensor([[256, 0, 1], [257, -256, 1]], dtype=torch.int32), -1.))
show(lambda: m.masked_fill(torch.tensor([[256, 0, 1], [257, -255, 1]], dtype=torch.int16), -1.))
show(lambda: m.masked_fill(torch.tensor([[1, 0, 1], [0, -1, 1]], dtype=torch.int8), -1.))
show(lambda: m.masked_fill(torch.tensor([[1, 0, 2], [0, 0, 1]], dtype=torch.uint8), -1.))
show(lambda: m.masked_fill(torch.tensor([1e-45, 0., 1.]), -1.))
show(lambda: m.masked_fill(torch.tensor(1e-45), -1.))
show(lambda: m.masked_fill(torch.tensor(1.), 3.))
show(lambda: m.masked_fill(torch.tensor([[1e-45], [1.]]).expand(2, 3), -1.))
show(lambda: m.t().masked_fill(torch.tensor([[1e-45, 0.], [1., 1e-45], [0., 0.]]), -1.))
show(lambda: torch.arange(6).reshape(2, 3).masked_fill(torch.tensor([[1e-45, 0., 1.], [1e-45, -0.0, 2.]]), 7))
show(lambda: m.clone().masked_fill_(torch.tensor([[1e-45, 0., 1.], [1e-45, -0.0, 2.]]), 7))
show(lambda: m.masked_fill(torch.tensor([[1e-45, 0., 1.], [1e-45, -0.0, 2.]]), torch.tensor(5.)))
w = torch.ones(2, 3, requires_grad=True)
y = w.masked_fill(torch.tensor([[1e-45, 0., 1.], [1e-45, -0.0, 2.]]), 0.)
y.sum().backward()
print(y, w.grad)
show(lambda: m.masked_select(torch.tensor([[1., 0., 1.], [0., 0., 1.]])))
show(lambda: m.masked_select(torch.tensor([[1, 0, 1], [0, 0, 1]])))
show(lambda: m.masked_select(torch.tensor([[1, 0, 1], [0, 0, 1]], dtype=torch.int8)))
show(lambda: m.masked_select(torch.tensor([[1, 0, 1], [0, 0, 1]], dtype=torch.uint8)))
show(lambda: torch.where(torch.tensor([[1., 0., 1.], [0., 0., 1.]]), m, -m))
show(lambda: torch.where(torch.tensor([[1, 0, 1], [0, 0, 1]]), m, -m))
show(lambda: torch.where(torch.tensor([[1, 0, 1], [0, 0, 1]], dtype=torch.int32), m, 0.))
show(lambda: torch.where(torch.tensor([[1, 0, 1], [0, 0, 1]], dtype=torch.uint8), m, -m))
show(lambda: m.where(torch.tensor([[1, 0, 1], [0, 0, 1]]), -m))
show(lambda: torch.where(torch.tensor([[1, 0, 1], [0, 0, 1]])))
show(lambda: torch.where(torch.tensor([[1., 0., 1.], [0., 0., 1.]])))
show(lambda: torch.where(torch.tensor([True, False, True])))

# ---- cumsum / cumprod to an integer dtype of an input that requires grad ----
f = torch.tensor([1.5, 2.5, -1.5], requires_grad=True)
show(lambda: torch.cumsum(f, 0, dtype=torch.int64))
show(lambda: f.cumsum(dim=0, dtype=torch.int32))
show(lambda: f.cumprod(0, dtype=torch.int64))
show(lambda: f.cumsum(0, dtype=torch.bool))
show(lambda: f.cumsum(0, dtype=torch.float32))
with torch.no_grad():
    show(lambda: f.cumsum(0, dtype=torch.int64))
show(lambda: f.detach().cumsum(0, dtype=torch.int8))

# ---- tril_ / triu_ on an expanded view that requires grad: through its strides, as ATen ----
w = torch.ones(3, requires_grad=True)
show(lambda: w.expand(3, 3).tril_())
show(lambda: w.expand(3, 3).triu_(1))
wc = w * 1
ex = wc.expand(3, 3)
show(lambda: ex.tril_())
print(wc, wc.grad_fn.name(), ex.grad_fn.name())
show(lambda: ex.clone().tril_())
wc2 = w * 2
ex2 = wc2.expand(2, 3)
show(lambda: ex2.triu_(1))
print(wc2, wc2.grad_fn.name())
q = (torch.arange(6.).reshape(2, 3) * w).tril_(0)
print(q, q.grad_fn.name())
q.sum().backward()
print(w.grad)
