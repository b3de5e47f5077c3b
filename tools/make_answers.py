#!/usr/bin/python3
"""tools/make_answers.py: students' answers for `attn check`, made with real PyTorch and NumPy.

What it is: the source of tests/answers/, the files tests/cli/test_check.cpp grades through the real
binary. A student's solution of the causal lesson (the self-attention article's code) runs here
in PyTorch, once as written and once per classic mistake, and each result is saved the way a lab
asks for it (np.save, np.savetxt; a transposed array is saved in Fortran order, which attn reads).
The malformed files are what NumPy or PyTorch write when asked for the wrong thing (big-endian,
float16, np.savez) plus hand-broken ones (truncated, ragged, NaN, a word, empty, a pasted print).
What it is not: part of the build or of CI; the tests read the committed bytes.

The article was printed with PyTorch's scalar CPU kernels, so this runs with
ATEN_CPU_CAPABILITY=default, as tools/make_golden.py does for `cpu: scalar` lessons.

Run with Debian's PyTorch:   /usr/bin/python3 tools/make_answers.py
"""
import os
import subprocess
import sys

if os.environ.get("ATEN_CPU_CAPABILITY") != "default":
    env = dict(os.environ, ATEN_CPU_CAPABILITY="default")
    sys.exit(subprocess.call([sys.executable, os.path.abspath(__file__)] + sys.argv[1:], env=env))

import numpy as np
import torch
import torch.nn as nn

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "answers")


def embedded(seed=123):
    sentence = 'Life is short, eat dessert first'
    dc = {s: i for i, s in enumerate(sorted(sentence.replace(',', '').split()))}
    sentence_int = torch.tensor([dc[s] for s in sentence.replace(',', '').split()])
    torch.manual_seed(seed)
    embed = torch.nn.Embedding(50_000, 3)
    return sentence_int, embed(sentence_int).detach()


def scores(draw_order=("query", "key", "value"), reseed=True, seed=123, keys_first=False):
    """attn_scores of the causal lesson's `scores` step (run with --seed `seed`); the draws may
    come in another order, or the product be keys @ queries.T."""
    _, x = embedded(seed)
    if reseed:
        torch.manual_seed(seed)
    d_in, d_out_kq, d_out_v = 3, 2, 4
    shapes = {"query": (d_in, d_out_kq), "key": (d_in, d_out_kq), "value": (d_in, d_out_v)}
    W = {name: nn.Parameter(torch.rand(*shapes[name])) for name in draw_order}
    keys, queries = x @ W["key"], x @ W["query"]
    return keys @ queries.T if keys_first else queries @ keys.T


def save_rows(name, tensor):
    """The numbers as a student copies them from PyTorch's printout: 4 decimals, each row ending
    in a comma (the brackets left out)."""
    with open(os.path.join(OUT, name), "w") as f:
        for row in tensor.detach().numpy():
            f.write(", ".join("%.4f" % v for v in row) + ",\n")


def save(name, tensor):
    np.save(os.path.join(OUT, name), tensor.detach().numpy())


def main():
    os.makedirs(OUT, exist_ok=True)
    d_k = 2
    S = scores()
    weights = torch.softmax(S / d_k**0.5, dim=1)
    n = S.shape[0]
    mask_simple = torch.tril(torch.ones(n, n))
    masked_simple = weights * mask_simple
    future = torch.triu(torch.ones(n, n), diagonal=1).bool()
    masked = S.masked_fill(future, -torch.inf)

    # ---- right answers, in every accepted format ----
    save("causal-weights.npy", weights)                                   # <f4, format 1.0
    np.save(os.path.join(OUT, "causal-weights-f8.npy"), weights.detach().numpy().astype("<f8"))
    for version in [(2, 0), (3, 0)]:
        with open(os.path.join(OUT, "causal-weights-v%d.npy" % version[0]), "wb") as f:
            np.lib.format.write_array(f, weights.detach().numpy(), version=version)
    # The 4 decimals PyTorch prints: what a student copies from the terminal.
    np.savetxt(os.path.join(OUT, "causal-weights.csv"), weights.detach().numpy(), fmt="%.4f", delimiter=",")
    np.savetxt(os.path.join(OUT, "causal-weights.txt"), weights.detach().numpy(), header="attn_weights, causal lesson")
    np.savetxt(os.path.join(OUT, "causal-masked.csv"), masked.detach().numpy(), fmt="%.4f", delimiter=",")   # -inf
    sentence_int, _ = embedded()
    np.save(os.path.join(OUT, "embedding-ids.npy"), sentence_int.numpy())                    # <i8
    np.save(os.path.join(OUT, "embedding-ids-i4.npy"), sentence_int.numpy().astype("<i4"))
    np.save(os.path.join(OUT, "causal-mask-bool.npy"), mask_simple.bool().numpy())           # |b1

    # ---- classic mistakes ----
    save("causal-weights-dim0.npy", torch.softmax(S / d_k**0.5, dim=0))
    save("causal-weights-unscaled.npy", torch.softmax(S, dim=1))
    save("causal-weights-dk.npy", torch.softmax(S / d_k, dim=1))
    save("causal-weights-T.npy", weights.T)                 # np.save writes a transpose in Fortran order
    np.save(os.path.join(OUT, "causal-weights-fortran.npy"), np.asfortranarray(weights.detach().numpy()))
    save("causal-weights-swapped.npy", torch.softmax(scores(("key", "query", "value")) / d_k**0.5, dim=1))
    save("causal-weights-value-first.npy", torch.softmax(scores(("value", "query", "key")) / d_k**0.5, dim=1))
    save("causal-weights-noseed.npy", torch.softmax(scores(reseed=False) / d_k**0.5, dim=1))
    save("causal-scores-swapped.npy", scores(("key", "query", "value")))
    save("causal-renorm-unnormalised.npy", masked_simple)
    save("causal-softmax-masked-zero-fill.npy", torch.softmax(S.masked_fill(future, 0) / d_k**0.5, dim=1))
    save("causal-softmax-masked-unmasked.npy", weights)
    past = torch.tril(torch.ones(n, n), diagonal=-1).bool()
    save("causal-softmax-masked-triangle.npy", torch.softmax(S.masked_fill(past, -torch.inf) / d_k**0.5, dim=1))
    save("causal-weights-3d.npy", weights.unsqueeze(0))
    # tril(...).bool() as the fill mask hides the diagonal (and the past): the last row is all -inf, so NaN
    save("causal-softmax-masked-diagonal.npy",
         torch.softmax(S.masked_fill(torch.tril(torch.ones(n, n)).bool(), -torch.inf) / d_k**0.5, dim=1))
    # Renormalised after multiplying by triu(..., diagonal=1) (the -inf method's mask used as the
    # keep-mask of the renormalising method): the future kept, the diagonal and the past zeroed, and
    # the last row 0/0 = NaN. The same numbers as tril(...).bool() filled with -inf (above): a hint
    # may say only what both share. And the right way round, zeroing what triu(..., 1) marks and
    # renormalising: the lesson's weights by the other method, which pass.
    kept_future = weights * torch.triu(torch.ones(n, n), diagonal=1)
    save("causal-renorm-triu-kept.npy", kept_future / kept_future.sum(dim=1, keepdim=True))
    zeroed_future = weights.masked_fill(future, 0)
    save("causal-renorm-triu-zeroed.npy", zeroed_future / zeroed_future.sum(dim=1, keepdim=True))
    # 0/0 as PyTorch computes it on x86 is a NaN with its sign bit set, which C's printf writes as
    # "-nan": a row of it, and an answer of nothing but it (which a class report cannot grade)
    nan_row = weights.detach().clone()
    nan_row[0] = torch.zeros(n) / torch.zeros(n)
    save("causal-weights-nan-row.npy", nan_row)
    save("causal-weights-all-nan.npy", torch.zeros(n, n) / torch.zeros(n, n))
    # with --seed 42: the other triangle (some true weights are ~6e-8), as saved and as copied from
    # the printout; keys @ queries.T with --seed 7
    S42 = scores(seed=42)
    triangle42 = torch.softmax(S42.masked_fill(past, -torch.inf) / d_k**0.5, dim=1)
    save("causal-softmax-masked-triangle-s42.npy", triangle42)
    save_rows("causal-softmax-masked-triangle-s42.txt", triangle42)
    keys_first7 = scores(seed=7, keys_first=True)
    save("causal-softmax-masked-kq-s7.npy", torch.softmax(keys_first7.masked_fill(future, -torch.inf) / d_k**0.5, dim=1))
    save_rows("causal-weights-pasted.txt", weights)
    np.savetxt(os.path.join(OUT, "causal-weights-dim0.csv"), torch.softmax(S / d_k**0.5, dim=0).detach().numpy(),
               fmt="%.4f", delimiter=",")

    # ---- malformed files ----
    w = weights.detach().numpy()
    np.save(os.path.join(OUT, "bad-bigendian.npy"), w.astype(">f4"))
    np.save(os.path.join(OUT, "bad-float16.npy"), w.astype("<f2"))
    with open(os.path.join(OUT, "causal-weights.npy"), "rb") as f:
        data = f.read()
    with open(os.path.join(OUT, "bad-truncated.npy"), "wb") as f:
        f.write(data[:100])
    np.savez(os.path.join(OUT, "bad-archive.npz"), w)
    with open(os.path.join(OUT, "bad-ragged.csv"), "w") as f:
        f.write("0.1772,0.1326,0.1879\n0.0386,0.6870\n")
    with open(os.path.join(OUT, "bad-nan.csv"), "w") as f:
        f.write("0.1772,0.1326\nnan,0.6870\n")
    with open(os.path.join(OUT, "bad-words.csv"), "w") as f:
        f.write("0.1772,0.1326\n0.0386,zero\n")
    with open(os.path.join(OUT, "bad-empty.csv"), "w") as f:
        pass
    with open(os.path.join(OUT, "bad-printed.txt"), "w") as f:
        print(weights, file=f)


if __name__ == "__main__":
    main()
