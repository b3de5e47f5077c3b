# torch.einsum of one or two operands where a letter is summed inside one operand ("ii->",
# "ij,jk->", "iij,jk->ik", "bij,bjk->b", "ij,kj->") and plain contractions, as torch 1.13's
# einsum computes them (a sum inside the operand first, then sumproduct_pair's bmm): the bits of
# the values and of both gradients, and the grad_fn tree. Not: three or more operands (ops.py).
import torch


def chain(fn):
    if fn is None:
        return "None"
    kids = [chain(f) for f, _ in fn.next_functions]
    return fn.name() + ("(" + ", ".join(kids) + ")" if kids else "")


def bits(t):
    return " ".join(x.hex() for x in t.detach().flatten().tolist())


torch.manual_seed(0)
CASES = [("ii->", [(5, 5)]), ("ii->i", [(4, 4)]), ("ij->", [(3, 4)]), ("ijk->j", [(3, 4, 5)]), ("iij->j", [(3, 3, 4)]),
         ("ij,jk->", [(3, 4), (4, 5)]), ("iij,jk->ik", [(3, 3, 4), (4, 5)]), ("bij,bjk->b", [(2, 3, 4), (2, 4, 5)]),
         ("ij,kj->", [(3, 4), (5, 4)]), ("ij,jk->i", [(7, 9), (9, 6)]), ("ij,jk->k", [(7, 9), (9, 6)]), ("ij,k->", [(3, 4), (5,)]),
         ("ijk,kl->il", [(3, 4, 5), (5, 6)]), ("i,i->", [(17,), (17,)]), ("ij,ij->", [(6, 7), (6, 7)]),
         ("bij,bkj->bk", [(2, 3, 4), (2, 5, 4)]), ("ij,jk->ik", [(3, 4), (4, 5)]), ("ij,kl->", [(3, 4), (5, 6)]),
         ("ij,ij->i", [(3, 4), (3, 4)]), ("bhnd,bhmd->bhnm", [(2, 2, 3, 4), (2, 2, 5, 4)]), ("ij,jj->i", [(3, 4), (4, 4)]),
         ("ij,j->", [(2, 33), (33,)]), ("bi,bi->b", [(3, 40), (3, 40)]), ("ij,jk", [(3, 4), (4, 5)]), ("ji", [(3, 4)])]
for eq, shapes in CASES:
    ts = [(torch.randn(*s) * 3).requires_grad_() for s in shapes]
    r = torch.einsum(eq, *ts)
    print(eq, tuple(r.shape), r.stride(), chain(r.grad_fn))
    print("  out:", bits(r))
    r.backward(torch.randn(r.shape))
    for t in ts:
        print("  grad:", bits(t.grad))
# broadcast size-1 letters
a = torch.randn(1, 4, requires_grad=True)
b = torch.randn(3, 4, 2, requires_grad=True)
r = torch.einsum("ij,ijk->k", a, b)
r.sum().backward()
print(bits(r), bits(a.grad), bits(b.grad), chain(r.grad_fn))
