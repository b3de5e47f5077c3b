# F.cross_entropy / nn.CrossEntropyLoss with label_smoothing= and class-probability targets, as
# PyTorch 1.13's cross_entropy_loss composes them: every reduction, with weight= and ignore_index=,
# 1-D, 2-D and K-dimensional inputs; the loss's bits, its grad_fn chain and the input's gradient
# bits; the errors. Errors are printed as "Type - message".
import torch
import torch.nn.functional as F


def show(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + " -", e)


def bits(t):
    return repr(t.flatten().tolist())


def chain(fn, depth=0):   # the grad_fn nodes, one per line, indented by depth
    if fn is None:
        return
    print("  " * depth + type(fn).__name__)
    for nxt, _ in fn.next_functions:
        chain(nxt, depth + 1)


def run(x, target, **kw):
    x = x.detach().requires_grad_()
    loss = F.cross_entropy(x, target, **kw)
    print(sorted(kw.items()), tuple(loss.shape), bits(loss))
    (loss * torch.arange(1., loss.numel() + 1).reshape(loss.shape)).sum().backward()
    print("  grad", bits(x.grad))
    return loss


torch.manual_seed(0)
x = torch.randn(6, 5) * 3                      # (N, C)
t = torch.tensor([1, 0, -100, 4, 2, 4])        # (N,), one ignored
w = torch.rand(5) + 0.5                        # (C,)
t4 = torch.tensor([1, 0, 3, 4, 2, 4])          # (N,), class 4 ignored below
for red in ["mean", "sum", "none"]:
    for ls in [0.1, 0.25, 1.0]:
        run(x, t, label_smoothing=ls, reduction=red)
        run(x, t, label_smoothing=ls, reduction=red, weight=w)
    run(x, t4, label_smoothing=0.3, reduction=red, ignore_index=4)
    run(x, t4, label_smoothing=0.3, reduction=red, ignore_index=4, weight=w)

# the graph 1.13 records
chain(F.cross_entropy(x.detach().requires_grad_(), t, label_smoothing=0.1).grad_fn)
chain(F.cross_entropy(x.detach().requires_grad_(), t, label_smoothing=0.1, weight=w).grad_fn)
chain(F.cross_entropy(x.detach().requires_grad_(), t, label_smoothing=0.1, reduction="sum").grad_fn)
chain(F.cross_entropy(x.detach().requires_grad_(), t, label_smoothing=0.1, reduction="none").grad_fn)

# 1-D input with a 0-d target; K-dimensional input (N, C, d1, d2)
v = torch.randn(7) * 2
run(v, torch.tensor(3), label_smoothing=0.2)
run(v, torch.tensor(3), label_smoothing=0.2, ignore_index=3)
run(v, torch.tensor(3), label_smoothing=0.2, weight=torch.rand(7))
k = torch.randn(2, 4, 3, 2) * 2
kt = torch.tensor([[[0, 3], [1, -100], [2, 2]], [[3, 3], [0, 1], [-100, 0]]])
for red in ["mean", "sum", "none"]:
    run(k, kt, label_smoothing=0.15, reduction=red)
    run(k, kt, label_smoothing=0.15, reduction=red, weight=torch.tensor([0.5, 2., 1., 0.25]))
chain(F.cross_entropy(k.detach().requires_grad_(), kt, label_smoothing=0.1).grad_fn)

# every target ignored: nan for 'mean', as 1.13
run(x, torch.full((6,), -100), label_smoothing=0.1)
run(x, torch.full((6,), -100), label_smoothing=0.1, weight=w)

# class-probability targets (the input's shape), with and without smoothing
p = torch.softmax(torch.randn(6, 5), 1)
for red in ["mean", "sum", "none"]:
    for ls in [0.0, 0.2]:
        run(x, p, label_smoothing=ls, reduction=red)
        run(x, p, label_smoothing=ls, reduction=red, weight=w)
run(v, torch.softmax(torch.randn(7), 0), label_smoothing=0.1)
run(k, torch.softmax(torch.randn(2, 4, 3, 2), 1), label_smoothing=0.1, reduction="none")
run(k, torch.softmax(torch.randn(2, 4, 3, 2), 1), weight=torch.tensor([0.5, 2., 1., 0.25]))
run(torch.randn(0, 5), torch.rand(0, 5))
run(torch.randn(0, 5), torch.rand(0, 5), reduction="sum")
chain(F.cross_entropy(x.detach().requires_grad_(), p, label_smoothing=0.1).grad_fn)
chain(F.cross_entropy(x.detach().requires_grad_(), p, weight=w, reduction="none").grad_fn)
chain(F.cross_entropy(x.detach().requires_grad_(), p.detach().requires_grad_(), label_smoothing=0.1, weight=w).grad_fn)
pt = p.detach().requires_grad_()
F.cross_entropy(x, pt, label_smoothing=0.2).backward()
print("target grad", bits(pt.grad))

# nn.CrossEntropyLoss passes label_smoothing on
crit = torch.nn.CrossEntropyLoss(label_smoothing=0.1, ignore_index=0)
print(crit, bits(crit(x, t4)))
crit = torch.nn.CrossEntropyLoss(weight=w, label_smoothing=0.05, reduction="sum")
print(crit, bits(crit(x, t)))

# errors
show(lambda: F.cross_entropy(x, t, label_smoothing=1.5))
show(lambda: F.cross_entropy(x, p, label_smoothing=1.25))
show(lambda: F.cross_entropy(x, t, label_smoothing=-0.5))
show(lambda: F.cross_entropy(x, p, label_smoothing=-0.5))
show(lambda: F.cross_entropy(x, torch.ones(6, 5, dtype=torch.long)))
show(lambda: F.cross_entropy(x, p, ignore_index=2))
show(lambda: F.cross_entropy(x, p, weight=torch.ones(3)))
show(lambda: F.cross_entropy(x, torch.tensor([1, 0, 7, 4, 2, 4]), label_smoothing=0.1))
show(lambda: F.cross_entropy(x, t[:4], label_smoothing=0.1))
show(lambda: F.cross_entropy(x, t.float(), label_smoothing=0.1))
show(lambda: F.cross_entropy(x, t, weight=torch.ones(3), label_smoothing=0.1))
show(lambda: F.cross_entropy(x, p[:, :4]))
show(lambda: F.cross_entropy(x, torch.ones(6, 2, dtype=torch.long)))
show(lambda: F.cross_entropy(x, torch.ones(6, 2), label_smoothing=0.1))
show(lambda: F.cross_entropy(x, t, reduction="bad", label_smoothing=0.1))
show(lambda: F.cross_entropy(x, p, reduction="bad"))
