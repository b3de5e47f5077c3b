# Tensor.register_hook as PyTorch 1.13 runs it: hooks on leaves (before .grad accumulates) and on
# non-leaves (before their grad_fn runs), None keeping the gradient and a returned tensor replacing
# it, several hooks in registration order, the handle's remove(), retain_grad() before and after a
# hook (1.13 runs them in the order they were asked for), and the hooks' errors.
# Errors are printed as "Type - message".
import torch


def show(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + " -", e)


x = torch.tensor([1., 2., 3.], requires_grad=True)
h = x.register_hook(lambda g: print("leaf hook", g))
y = x * 2
y.retain_grad()                      # retain_grad first: .grad is the gradient before the hook
hy = y.register_hook(lambda g: g * 10)
z = y * y
z.register_hook(lambda g: print("z hook", g))
z.sum().backward()
print(x.grad, y.grad)
print(type(h).__name__, type(hy).__name__)

h.remove()
hy.remove()
h.remove()                           # twice: nothing
x.grad = None
y = x * 2
y.register_hook(lambda g: g + 1)
y.retain_grad()                      # after the hook: .grad sees the hook's result
(y * 3).sum().backward()
print(x.grad, y.grad)

# several hooks in order; a removed one skipped; a leaf hook's result is what accumulates
x.grad = None
order = []
w = x * 1
w.register_hook(lambda g: order.append("a"))
hb = w.register_hook(lambda g: order.append("b") or g * 2)
w.register_hook(lambda g: order.append("c") or g + 1)
hb.remove()
hx = x.register_hook(lambda g: g * 0 + 7)
(w * 5).sum().backward()
print(order, x.grad)
hx.remove()

# the hook sees the summed gradient of a tensor used twice, once; backward twice runs it twice
x.grad = None
seen = []
v = x * 1
v.register_hook(lambda g: seen.append(g.tolist()))
(v * v + v).sum().backward(retain_graph=True)
(v * 3).sum().backward()
print(seen, x.grad)

# a hook registered inside a no_grad block still runs; grad mode is off inside hooks
x.grad = None
u = x * 4
with torch.no_grad():
    u.register_hook(lambda g: print("inside:", torch.is_grad_enabled(), g.requires_grad))
u.sum().backward()
print(x.grad)

# hooks through torch.autograd.grad on a non-leaf
a = torch.tensor([1., 2.], requires_grad=True)
b = a * 3
b.register_hook(lambda g: g * 100)
print(torch.autograd.grad((b * b).sum(), a))

# errors
show(lambda: torch.ones(2).register_hook(lambda g: g))
a = torch.ones(2, requires_grad=True)
b = a * 1
b.register_hook(lambda g: torch.ones(3))
show(lambda: b.sum().backward())
c = a * 1
c.register_hook(lambda g: 5)
show(lambda: c.sum().backward())
print(a.grad)
e = a * 1
e.register_hook(lambda g: 1 / 0)
show(lambda: e.sum().backward())


def named(g):
    return g[:1]


f = a * 1
f.register_hook(named)
show(lambda: f.sum().backward())
k = a * 1
k.register_hook(lambda g: g.long())
show(lambda: k.sum().backward())
print(a.grad)
