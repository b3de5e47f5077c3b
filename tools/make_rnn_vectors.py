#!/usr/bin/python3
"""make_rnn_vectors.py: write tests/vectors/rnn_programs.txt (and rnn_scalar_programs.txt), PyTorch's
bits for nn.RNN, nn.LSTM, nn.GRU and their Cell forms, for tests/torch/test_rnn.cpp.

What it is: small Python programs (`src` lines, runnable by attn: torch.manual_seed, the module's
own init, randn inputs, a forward pass, a weighted sum's backward) and, after each, the bits of the
named expressions torch computed: outputs, hidden states, the parameters as initialised, and the
.grad of the input, of hx and of every parameter. Configurations: num_layers 1 and 2,
bidirectional, batch_first, unbatched input, bias=False, given and default hx, eval and train with
dropout between layers, several seeds and sizes (hidden sizes below, at and past the 16 floats of
ATen's vectorised loop, so the per-row scalar tails of sigmoid and tanh on the gates' chunks show).
Family avx2: this process; family scalar: a child with ATEN_CPU_CAPABILITY=default.
What it is not: portable (Debian's python3-torch 1.13.1, reference BLAS, one thread, x86-64 AVX2).

Usage:
    LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu/blas:/usr/lib/x86_64-linux-gnu/lapack OMP_NUM_THREADS=1 \
        /usr/bin/python3 tools/make_rnn_vectors.py --out tests/vectors

File format (tools/make_grad_vectors.py's programs): `case program name=NAME`, `src LINE`s, then
`EXPR COUNT HEX...` for each expression (float32 bit patterns, row-major), blank line between cases.
"""
import argparse
import os
import subprocess
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))


def hexbits(t):
    a = np.ascontiguousarray(t.detach().numpy().astype(np.float32)).reshape(-1)
    return [format(int(v), "08x") for v in a.view(np.uint32)]


def param_names(kind, layers, bidir, bias):
    names = []
    for layer in range(layers):
        for suffix in ([""] + (["_reverse"] if bidir else [])):
            names += [f"weight_ih_l{layer}{suffix}", f"weight_hh_l{layer}{suffix}"]
            if bias:
                names += [f"bias_ih_l{layer}{suffix}", f"bias_hh_l{layer}{suffix}"]
    return names


def full_program(kind, seed, I, H, T, N, layers=1, bidir=False, batch_first=False, bias=True, dropout=0.0,
                 train=False, unbatched=False, given_hx=False, extra=""):
    args = f"{I}, {H}, num_layers={layers}, bias={bias}, batch_first={batch_first}, dropout={dropout}, bidirectional={bidir}{extra}"
    src = [f"torch.manual_seed({seed})", f"m = torch.nn.{kind}({args})", "m.train()" if train else "m.eval()"]
    shape = (T, I) if unbatched else ((N, T, I) if batch_first else (T, N, I))
    src.append(f"x = torch.randn{shape}.requires_grad_()")
    dirs = 2 if bidir else 1
    hshape = (layers * dirs, H) if unbatched else (layers * dirs, N, H)
    exprs = ["out", "hn"] + (["cn"] if kind == "LSTM" else [])
    if given_hx:
        src.append(f"h0 = torch.randn{hshape}.requires_grad_()")
        if kind == "LSTM":
            src.append(f"c0 = torch.randn{hshape}.requires_grad_()")
            src.append("out, (hn, cn) = m(x, (h0, c0))")
        else:
            src.append("out, hn = m(x, h0)")
    else:
        src.append("out, (hn, cn) = m(x)" if kind == "LSTM" else "out, hn = m(x)")
    loss = "(out * torch.randn(out.shape)).sum() + (hn * torch.randn(hn.shape)).sum()"
    if kind == "LSTM":
        loss += " + (cn * torch.randn(cn.shape)).sum()"
    src += [f"loss = {loss}", "loss.backward()"]
    names = param_names(kind, layers, bidir, bias)
    exprs += ["m." + n for n in names] + ["x.grad"]
    if given_hx:
        exprs += ["h0.grad"] + (["c0.grad"] if kind == "LSTM" else [])
    exprs += ["m." + n + ".grad" for n in names]
    return src, exprs


def cell_program(kind, seed, I, H, N, steps=3, bias=True, unbatched=False, given_hx=True, extra=""):
    src = [f"torch.manual_seed({seed})", f"m = torch.nn.{kind}({I}, {H}, bias={bias}{extra})"]
    xs = (I,) if unbatched else (N, I)
    hs = (H,) if unbatched else (N, H)
    src.append(f"xs = [torch.randn{xs}.requires_grad_() for _ in range({steps})]")
    lstm = kind == "LSTMCell"
    if given_hx:
        src.append(f"h0 = torch.randn{hs}.requires_grad_()")
        if lstm:
            src.append(f"c0 = torch.randn{hs}.requires_grad_()")
        src.append("h = (h0, c0)" if lstm else "h = h0")
    else:
        src.append("h = None")
    src += ["outs = []", "for x in xs:", "    h = m(x, h)", "    outs.append(h[0] if isinstance(h, tuple) else h)",
            "out = torch.stack(outs)", "loss = (out * torch.randn(out.shape)).sum()"]
    if lstm:
        src.append("loss = loss + (h[1] * torch.randn(h[1].shape)).sum()")
    src.append("loss.backward()")
    names = ["weight_ih", "weight_hh"] + (["bias_ih", "bias_hh"] if bias else [])
    exprs = ["out"] + (["h[1]"] if lstm else []) + ["m." + n for n in names] + [f"xs[{k}].grad" for k in range(steps)]
    if given_hx:
        exprs += ["h0.grad"] + (["c0.grad"] if lstm else [])
    exprs += ["m." + n + ".grad" for n in names]
    return src, exprs


def packed_program(kind, seed, I, H, lengths, layers=1, bidir=False, batch_first=False, enforce_sorted=True,
                   given_hx=False, dropout=0.0, train=False):
    N, T = len(lengths), max(lengths)
    args = f"{I}, {H}, num_layers={layers}, batch_first={batch_first}, dropout={dropout}, bidirectional={bidir}"
    src = [f"torch.manual_seed({seed})", f"m = torch.nn.{kind}({args})", "m.train()" if train else "m.eval()",
           "from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence"]
    shape = (N, T, I) if batch_first else (T, N, I)
    src.append(f"x = torch.randn{shape}.requires_grad_()")
    src.append(f"packed = pack_padded_sequence(x, {lengths}, batch_first={batch_first}, enforce_sorted={enforce_sorted})")
    hshape = (layers * (2 if bidir else 1), N, H)
    call = "m(packed)"
    if given_hx:
        src.append(f"h0 = torch.randn{hshape}.requires_grad_()")
        if kind == "LSTM":
            src.append(f"c0 = torch.randn{hshape}.requires_grad_()")
        call = "m(packed, (h0, c0))" if kind == "LSTM" else "m(packed, h0)"
    src.append(("pout, (hn, cn) = " if kind == "LSTM" else "pout, hn = ") + call)
    src.append(f"out, lens = pad_packed_sequence(pout, batch_first={batch_first}, total_length={T + 1})")
    loss = "(out * torch.randn(out.shape)).sum() + (hn * torch.randn(hn.shape)).sum()"
    if kind == "LSTM":
        loss += " + (cn * torch.randn(cn.shape)).sum()"
    src += [f"loss = {loss}", "loss.backward()"]
    names = param_names(kind, layers, bidir, True)
    exprs = ["pout.data", "out", "lens.float()", "hn"] + (["cn"] if kind == "LSTM" else []) + ["x.grad"]
    if given_hx:
        exprs += ["h0.grad"] + (["c0.grad"] if kind == "LSTM" else [])
    return src, exprs + ["m." + n + ".grad" for n in names]


def configs():
    out = []
    for kind in ("RNN", "LSTM", "GRU"):
        k = kind.lower()
        out += [
            (f"{k}_basic", full_program(kind, 0, 4, 5, 6, 3)),
            (f"{k}_h20_given_hx", full_program(kind, 1, 7, 20, 5, 3, given_hx=True)),
            (f"{k}_h16_batch1", full_program(kind, 2, 3, 16, 4, 1, given_hx=True)),
            (f"{k}_h17_two_layers", full_program(kind, 3, 5, 17, 4, 2, layers=2)),
            (f"{k}_bidirectional", full_program(kind, 4, 6, 9, 5, 3, bidir=True, given_hx=True)),
            (f"{k}_bidir_two_layers_batch_first", full_program(kind, 5, 4, 18, 3, 2, layers=2, bidir=True,
                                                              batch_first=True, given_hx=True)),
            (f"{k}_batch_first", full_program(kind, 6, 8, 12, 7, 2, batch_first=True)),
            (f"{k}_unbatched", full_program(kind, 7, 3, 17, 5, 1, given_hx=True, unbatched=True)),
            (f"{k}_unbatched_batch_first", full_program(kind, 8, 3, 6, 4, 1, batch_first=True, unbatched=True)),
            (f"{k}_no_bias", full_program(kind, 9, 5, 10, 4, 3, layers=2, bias=False, given_hx=True)),
            (f"{k}_dropout_train", full_program(kind, 10, 6, 11, 5, 3, layers=2, dropout=0.3, train=True)),
            (f"{k}_dropout_eval", full_program(kind, 11, 6, 11, 5, 3, layers=2, dropout=0.3)),
            (f"{k}_dropout_bidir_train", full_program(kind, 12, 4, 8, 4, 2, layers=2, bidir=True, dropout=0.5,
                                                     train=True, batch_first=True)),
        ]
    for kind in ("RNN", "LSTM", "GRU"):
        k = kind.lower()
        out += [
            (f"{k}_packed", packed_program(kind, 30, 4, 6, [5, 3, 3, 1])),
            (f"{k}_packed_unsorted_hx", packed_program(kind, 31, 3, 17, [2, 4, 1], enforce_sorted=False, given_hx=True,
                                                       batch_first=True)),
            (f"{k}_packed_bidir_two_layers", packed_program(kind, 32, 5, 7, [4, 4, 2], layers=2, bidir=True, given_hx=True,
                                                            dropout=0.4, train=True)),
        ]
    out.append(("rnn_relu", full_program("RNN", 13, 4, 19, 5, 3, layers=2, given_hx=True, extra=", nonlinearity='relu'")))
    for kind in ("RNNCell", "LSTMCell", "GRUCell"):
        k = kind.lower()
        out += [
            (f"{k}_basic", cell_program(kind, 20, 4, 5, 3)),
            (f"{k}_h20", cell_program(kind, 21, 6, 20, 4)),
            (f"{k}_default_hx", cell_program(kind, 22, 5, 17, 2, given_hx=False)),
            (f"{k}_unbatched", cell_program(kind, 23, 3, 18, 1, unbatched=True)),
            (f"{k}_no_bias", cell_program(kind, 24, 4, 9, 3, bias=False)),
        ]
    out.append(("rnncell_relu", cell_program("RNNCell", 25, 4, 19, 3, extra=", nonlinearity='relu'")))
    return out


def write(path, title):
    lines = [f"# {os.path.basename(path)}: {title}",
             "# Generated by make_rnn_vectors.py from real PyTorch; do not edit by hand.",
             f"# torch {torch.__version__}, ATEN_CPU_CAPABILITY={os.environ.get('ATEN_CPU_CAPABILITY', '(default: avx2)')}"
             f", threads {torch.get_num_threads()}", ""]
    cases = configs()
    for name, (src, exprs) in cases:
        if not name.endswith(("_basic", "_two_layers", "_bidirectional")):   # the init draws: a few cases suffice
            exprs = [e for e in exprs if not (e.startswith("m.") and not e.endswith(".grad"))]
        g = {"torch": torch}
        exec(compile("\n".join(src) + "\n", name, "exec"), g)
        lines.append(f"case program name={name}")
        lines += ["src " + s for s in src]
        for e in exprs:
            bits = hexbits(eval(e, g))
            lines.append(f"{e} {len(bits)} " + " ".join(bits))
        lines.append("")
    with open(path, "w") as f:
        f.write("\n".join(lines))
    print(f"wrote {path}: {len(cases)} cases")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(HERE, "..", "tests", "vectors"))
    ap.add_argument("--family", choices=["avx2", "scalar"])
    a = ap.parse_args()
    torch.set_num_threads(1)
    if a.family == "scalar":
        write(os.path.join(a.out, "rnn_scalar_programs.txt"), "recurrent modules, torch's DEFAULT kernels")
        return
    if a.family is None:
        env = dict(os.environ, ATEN_CPU_CAPABILITY="default")
        subprocess.run([sys.executable, os.path.abspath(__file__), "--out", a.out, "--family", "scalar"], env=env, check=True)
    write(os.path.join(a.out, "rnn_programs.txt"), "recurrent modules, torch's AVX2 kernels")


if __name__ == "__main__":
    main()
