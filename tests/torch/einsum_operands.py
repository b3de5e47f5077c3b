# torch.einsum of three and four operands, generated: repeated letters inside an operand
# (diagonals: "i,jj,i"), letters of size 1 broadcast against a bigger size, 0-d operands, implicit
# and explicit outputs. torch 1.13 (no opt_einsum on Debian) contracts left to right, summing a
# letter as soon as no operand left has it, each step one sumproduct_pair (review 29 #11: three
# operands with a diagonal were wrong). Prints the bits of the value and of every gradient, and the
# grad_fn tree. Not: one or two operands (einsum_sums.py), integer operands, empty ones.
import random

import torch


def chain(fn):
    if fn is None:
        return "None"
    kids = [chain(f) for f, _ in fn.next_functions]
    return fn.name() + ("(" + ", ".join(kids) + ")" if kids else "")


def bits(t):
    return " ".join(x.hex() for x in t.detach().flatten().tolist())


rng = random.Random(29)
torch.manual_seed(29)
for case in range(120):
    sizes = {c: rng.randint(1, 4) for c in "abcde"}
    subs = ["".join(rng.choice("abcde") for _ in range(rng.randint(0, 4))) for _ in range(rng.choice([3, 3, 4]))]
    letters = sorted(set("".join(subs)))
    out = [c for c in letters if rng.random() < 0.5]
    rng.shuffle(out)
    eq = ",".join(subs) + ("->" + "".join(out) if rng.random() < 0.8 else "")
    ones = [{c for c in s if rng.random() < 0.15} for s in subs]   # letters of size 1 in that operand (broadcast)
    shapes = [[1 if c in one else sizes[c] for c in s] for s, one in zip(subs, ones)]
    ops = [torch.randn(tuple(s)).requires_grad_() for s in shapes]
    try:
        y = torch.einsum(eq, *ops)
    except RuntimeError as e:
        print(case, eq, "RuntimeError", str(e).split("\n")[0])
        continue
    (y * torch.arange(float(y.numel())).reshape(y.shape)).sum().backward()
    print(case, eq, tuple(y.shape), bits(y), chain(y.grad_fn))
    print(case, "grads", " | ".join(bits(o.grad) for o in ops))
