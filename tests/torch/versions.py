# tests/torch/versions.py: Tensor._version of fresh results (0: an op's own writes into its result
# are not in-place ops; 1 after matmul 1-D @ 2-D, whose ATen squeeze_ counts), against torch 1.13.
# It decides the "is at version N; expected version M" of the saved-tensor refusal (torchfuzz seed 2211).
import torch
a = torch.ones(2, 3, requires_grad=True) * 1.5
for name, f in [("stack", lambda: torch.stack([a, a, a], 0)), ("cat", lambda: torch.cat([a, a])), ("1d@2d", lambda: torch.ones(3) @ torch.ones(3, 4)),
                ("2d@1d", lambda: torch.ones(4, 3) @ torch.ones(3)), ("3d@2d", lambda: torch.ones(2, 4, 3) @ torch.ones(3, 5)), ("3d@1d", lambda: torch.ones(2, 4, 3) @ torch.ones(3)),
                ("1d@3d", lambda: torch.ones(3) @ torch.ones(2, 3, 4)), ("hstack", lambda: torch.hstack([a, a])), ("vstack", lambda: torch.vstack([a, a])),
                ("split", lambda: a.split(1)[0]), ("mm", lambda: a @ torch.ones(3, 2)), ("bmm", lambda: torch.ones(2,3,4) @ torch.ones(2,4,5)),
                ("softmax", lambda: a.softmax(-1)), ("einsum", lambda: torch.einsum("ij,jk->ik", a, torch.ones(3, 2))), ("linear", lambda: torch.nn.functional.linear(a, torch.ones(2, 3))),
                ("clone", lambda: a.clone()), ("contig", lambda: a.t().contiguous()), ("index", lambda: a[[0, 1]]), ("masked", lambda: a.masked_fill(a > 1, 0)),
                ("where", lambda: torch.where(a > 1, a, 0.0)), ("tril", lambda: a.tril()), ("dropout", lambda: torch.nn.functional.dropout(a, 0.5)), ("layer_norm", lambda: torch.nn.functional.layer_norm(a, (3,))),
                ("zeros", lambda: torch.zeros(3)), ("randn", lambda: torch.randn(3)), ("arange", lambda: torch.arange(3)), ("tensor", lambda: torch.tensor([1.0, 2.0])), ("full", lambda: torch.full((2,), 1.0)),
                ("ones_like", lambda: torch.ones_like(a)), ("cumsum", lambda: a.cumsum(0)), ("sort", lambda: a.sort(-1)[0]), ("topk", lambda: a.topk(1)[0]), ("max", lambda: a.max(0)[0]), ("repeat", lambda: a.repeat(2, 1)),
                ("expand", lambda: a.expand(2, 2, 3)), ("gather", lambda: a.gather(1, torch.zeros(2, 1, dtype=torch.long))), ("embedding", lambda: torch.nn.Embedding(5, 2)(torch.tensor([1]))), ("Linear", lambda: torch.nn.Linear(3, 2)(a))]:
    try:
        print(name, f()._version)
    except Exception as e:
        print(name, "!", type(e).__name__, e)
w = torch.arange(6.0).reshape(2, 3, 1).requires_grad_(True)
s = torch.stack([w * 1.5] * 3, 0)
m = s.amax(-1)
s.mul_(2)
try:
    m.sum().backward()
except RuntimeError as e:
    print(str(e).split(". Hint")[0])
v = (torch.arange(3.0) * 1.25).requires_grad_(True) * 1.5
p = torch.matmul(v, torch.ones(3, 3))
q = p.amax(-1)
p[0] = 0
try:
    q.sum().backward()
except RuntimeError as e:
    print(str(e).split(". Hint")[0])

# logical_not_ and bitwise_not_ have no derivative: they write self in its own dtype, bump its
# version, need no in-place check (a leaf that requires grad is written) and keep its grad_fn
for x in (torch.tensor([True, False]), torch.tensor([0.0, 2.0, -1.0]), torch.tensor([0, 3])):
    y = x.clone()
    print(y.logical_not_(), y.dtype, y._version)
    y = x.clone()
    try:
        print(y.bitwise_not_(), y._version)
    except RuntimeError as e:
        print("!", e)
a = torch.randn(3, requires_grad=True)
a.logical_not_()
b = a * 1
print(b.logical_not_(), b.requires_grad, type(b.grad_fn).__name__, a._version, b._version)
v = torch.zeros(2, 3)
v.t().logical_not_()
print(v, v._version)
