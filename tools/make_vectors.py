#!/usr/bin/python3
"""Regenerate tests/vectors/random_*.txt from real PyTorch (the oracle for src/core/random.cpp).

Run with Debian's interpreter, which has python3-torch 1.13.1:

    /usr/bin/python3 tools/make_vectors.py            # writes tests/vectors/random_*.txt,
                                                      # random_scalar_*.txt included
    /usr/bin/python3 tools/make_vectors.py --check    # regenerate in memory, diff against disk

What it is: a list of cases, each "seed the generator, run these ops in order", evaluated by
torch and written as the exact float32 / uint32 bits. The C++ test (tests/core/test_random.cpp) runs the
same ops on attn::core::Generator and compares bit for bit.
What it is not: an oracle for MKL's Bernoulli path (it only runs on Intel CPUs with an MKL build);
`dropout_mkl` cases come from the straightforward MCG31m1 model below, pinned to the mask printed
by the book's notebook (seed 123, p = 0.5).

Two kernel families (src/core/cpu.h). This process must run torch's AVX2 kernels and writes
the AVX2 files; it then re-runs itself in a subprocess with ATEN_CPU_CAPABILITY=default (torch's
scalar DEFAULT kernels, as on Apple Silicon), and that child writes random_scalar_*.txt, which
the C++ test replays on a Generator made with CpuKernels::scalar. Each process checks which
kernels torch reports before it writes anything.

File format (plain text, one case per block):

    case <name>
    seed <integer | default>           default = a fresh generator (seed 67280421310721)
    ops <op>;<op>;...                  run in order on one generator; outputs concatenated
    count <N>                          number of 32-bit output words
    fnv1a64 <16 hex digits>            digest of ALL N words (see digest() below)
    sample <K>                         the first K words follow, 8 per line, as 8 hex digits
    <hex> <hex> ...
    end

Output words: float32 results as their IEEE bits; `random` gives the uint32 itself; `random64`
gives two words per value (high, low). Ops (shapes are AxBx..., p/mean/std/from/to are Python
float reprs, which C++ strtod reads back exactly):

    seed:S                  torch.manual_seed(S) in the middle of a sequence
    random:N                N raw 32-bit draws     (int64 random_(0, 2**32 - 1) == random() % (2^32-1))
    random64:N              N raw 64-bit draws     (int64 random_(-2**63, None))
    rand:SHAPE              torch.rand(*SHAPE)
    randn:SHAPE             torch.randn(*SHAPE)
    uniform:N:from:to       torch.empty(N).uniform_(from, to)
    normal:N:mean:std       torch.empty(N).normal_(mean, std)
    embedding:NUMxDIM       nn.Embedding(NUM, DIM).weight
    linear:IN:OUT:bias|nobias   nn.Linear(IN, OUT, bias) -> weight words, then bias words
    dropout:SHAPE:p:ones|randn  x = ones or randn(SHAPE); F.dropout(x, p, training=True) -> x, y
    dropout_mkl:SHAPE:p:ones|randn   same, with MKL's keep-mask (modelled, see mcg31_mask)
    random_:DTYPE:N[:from]:to   torch.empty(N, dtype=DTYPE).random_(), random_(to) or random_(from, to)
                            (to may be None); DTYPE int64 (two words a value: high, low), float32
                            (its bits) or bool (0 or 1)
"""
import argparse
import difflib
import math
import os
import pathlib
import subprocess
import sys

import numpy as np
import torch
import torch.nn.functional as F

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "tests" / "vectors"
DEFAULT_SEED = 67280421310721
SAMPLE = 64  # words written out per case; the digest covers all of them


# ---- digest: FNV-1a over 32-bit words (h ^= word; h *= prime, mod 2^64) ----

def digest(words):
    h = 0xcbf29ce484222325
    for w in words:
        h = ((h ^ int(w)) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def f32_words(t):
    return t.detach().contiguous().reshape(-1).numpy().astype(np.float32).view(np.uint32).tolist()


def parse_shape(s):
    return tuple(int(d) for d in s.split("x"))


# ---- MKL model: VSL_BRNG_MCG31 seeded by one random(), viRngBernoulli(ICDF) ----

def mcg31_mask(seed, n, p_keep):
    """x_0 = seed mod (2^31-1) (0 -> 1), x_{i+1} = 1132489760 x_i mod (2^31-1); keep if x_i/m < p."""
    m = 2**31 - 1
    x = seed % m or 1
    mask = []
    for _ in range(n):
        mask.append(1.0 if x / m < p_keep else 0.0)
        x = x * 1132489760 % m
    return np.array(mask, dtype=np.float32)


def peek_random():
    """The next random() of the default generator, without consuming it."""
    state = torch.get_rng_state()
    r = int(torch.empty(1, dtype=torch.int64).random_(0, 2**32 - 1)[0])
    torch.set_rng_state(state)
    return r


# ---- running one op on torch's default generator ----

def make_input(shape, kind):
    if kind == "ones":
        return torch.ones(*shape)
    if kind == "randn":
        return torch.randn(*shape)
    raise ValueError(kind)


def run_op(op):
    name, *args = op.split(":")
    if name == "seed":
        torch.manual_seed(int(args[0]))
        return []
    if name == "random":
        v = torch.empty(int(args[0]), dtype=torch.int64).random_(0, 2**32 - 1)
        return [int(x) for x in v]
    if name == "random64":
        v = torch.empty(int(args[0]), dtype=torch.int64).random_(-2**63, None)
        out = []
        for x in v.tolist():
            u = x & 0xFFFFFFFFFFFFFFFF
            out += [u >> 32, u & 0xFFFFFFFF]
        return out
    if name == "rand":
        return f32_words(torch.rand(*parse_shape(args[0])))
    if name == "randn":
        return f32_words(torch.randn(*parse_shape(args[0])))
    if name == "uniform":
        return f32_words(torch.empty(int(args[0])).uniform_(float(args[1]), float(args[2])))
    if name == "normal":
        return f32_words(torch.empty(int(args[0])).normal_(float(args[1]), float(args[2])))
    if name == "embedding":
        num, dim = parse_shape(args[0])
        return f32_words(torch.nn.Embedding(num, dim).weight)
    if name == "linear":
        layer = torch.nn.Linear(int(args[0]), int(args[1]), bias=(args[2] == "bias"))
        return f32_words(layer.weight) + (f32_words(layer.bias) if layer.bias is not None else [])
    if name == "dropout":
        x = make_input(parse_shape(args[0]), args[2])
        return f32_words(x) + f32_words(F.dropout(x, float(args[1]), training=True))
    if name == "dropout_mkl":
        x = make_input(parse_shape(args[0]), args[2])
        p = float(args[1])
        seed = peek_random()
        torch.empty(1, dtype=torch.int64).random_(0, 2**32 - 1)  # consume that one draw
        scale = np.float32(1.0) / np.float32(1.0 - p)           # noise.div_(1 - p)
        noise = mcg31_mask(seed, x.numel(), 1.0 - p) * scale
        y = x.numpy().reshape(-1) * noise                         # input * noise, float32
        return f32_words(x) + y.astype(np.float32).view(np.uint32).tolist()
    if name == "random_":
        return random_words(args)
    raise ValueError(f"unknown op {op}")


def random_words(args):
    """random_:DTYPE:N[:from]:to -> the words of torch.empty(N, dtype=DTYPE).random_(...)."""
    dtype = {"int64": torch.int64, "float32": torch.float32, "bool": torch.bool}[args[0]]
    bounds = [None if a == "None" else int(a) for a in args[2:]]
    v = torch.empty(int(args[1]), dtype=dtype).random_(*bounds)
    if dtype == torch.float32:
        return f32_words(v)
    if dtype == torch.bool:
        return [int(x) for x in v.tolist()]
    out = []
    for x in v.tolist():
        u = x & 0xFFFFFFFFFFFFFFFF
        out += [u >> 32, u & 0xFFFFFFFF]
    return out


def run_case(seed, ops):
    if seed == "default":
        assert torch.Generator().initial_seed() == DEFAULT_SEED
        torch.manual_seed(DEFAULT_SEED)
    else:
        torch.manual_seed(int(seed))
    words = []
    for op in ops.split(";"):
        words += run_op(op)
    return words


# ---- crafted cases: is val * std + mean of the double path one FMA? ----

def fma_probe_cases(count=3):
    """normal_(mean, std) on 1 or 2 elements with mean/std chosen so that fl32(fma(c, std, mean))
    differs from fl32(c * std + mean): c * std rounds into [2, 4) and c * std + mean lands on a
    float32 tie in [1, 2) unless the product's rounding error is kept. Index 0 probes the fresh
    sample r*cos, index 1 the cached r*sin. (Both are fused in this build.)"""
    import random
    from fractions import Fraction as Fr
    rng = random.Random(0)
    cases = []
    for which in (0, 1):
        seed = 0
        while len([c for c in cases if c[0].endswith(f"_{which}")]) < count:
            seed += 1
            torch.manual_seed(seed)
            c = float(torch.empty(2, dtype=torch.float64).normal_()[which])
            for _ in range(500):
                std = 3.0 / abs(c) * (1 + rng.random() * 0.3)
                prod = c * std
                m = (1 + (2 * rng.randrange(0, 2**22) + 1) * 2.0**-24) * (1 if prod > 0 else -1)
                mean = m - prod
                if not 2 <= abs(prod) < 4 or Fr(mean) != Fr(m) - Fr(prod):
                    continue
                fused = np.float32(float(Fr(c) * Fr(std) + Fr(mean)))
                if fused != np.float32(prod + mean):
                    cases.append((f"normal_fma_probe_{seed}_{which}", seed,
                                  f"normal:{which + 1}:{mean!r}:{std!r}"))
                    break
    return cases


# ---- the cases, one file each ----

SEEDS = [0, 1, 42, 123, 789]
RANDN_SIZES = [1, 3, 15, 16, 17, 20, 31, 32, 100]  # double path, one block, tails, many blocks

CASES = {
    "random_uniform.txt": (
        [(f"random_{s}", s, "random:40") for s in [0, 123, 5489]]
        + [(f"random64_{s}", s, "random64:20") for s in [0, 123]]
        + [(f"rand_{s}_{shape}", s, f"rand:{shape}") for s in SEEDS for shape in ["1", "6x3", "4x4x5"]]
        + [("rand_default_5", "default", "rand:5"),
           ("rand_seed_2pow32plus7", 2**32 + 7, "rand:10"),    # only the low 32 bits seed mt19937
           ("rand_then_random", 9, "rand:3;random:3;rand:3"),
           ("uniform_big", 7, "uniform:1000000:-0.5:0.5"),
           ("uniform_kaiming3", 11, "uniform:300:-0.5773502691896257:0.5773502691896257"),
           ("uniform_wide", 12, "uniform:1000:-100.25:3.5"),
           ("uniform_offset", 13, "uniform:1000:2.0:2.000001")]
    ),
    "random_normal.txt": (
        [(f"randn_{s}_{n}", s, f"randn:{n}") for s in [0, 42, 123, 789] for n in RANDN_SIZES]
        + [(f"randn_{s}_big", s, "randn:100003") for s in [0, 123]]
        + [("randn_default_20", "default", "randn:20"),
           ("randn_2x12", 4, "randn:2x12"),
           ("cache_123_3_16_1", 123, "randn:3;randn:16;randn:1"),
           ("cache_0_1x7_twice", 0, "randn:1x7;randn:1x7"),
           ("cache_cleared_by_seed", 7, "randn:1;seed:7;randn:1;randn:1"),
           ("cache_survives_big", 8, "randn:1;randn:40;randn:1"),
           ("normal_small", 3, "normal:5:0.5:0.02"),
           ("normal_small_odd", 3, "normal:15:-3.0:7.5"),
           ("normal_big", 3, "normal:1000:0.5:0.02"),
           ("normal_big_tail", 3, "normal:1001:-3.0:7.5")]
        + fma_probe_cases()
    ),
    "random_init.txt": (
        [(f"embedding_50000x3_{s}", s, "embedding:50000x3") for s in [123, 42, 0, 1, 789]]
        + [("embedding_10x4", 5, "embedding:10x4"),          # 40 values: AVX2 path with a tail
           ("embedding_3x5", 5, "embedding:3x5"),            # 15 values: the double path
           ("linear_3_2_nobias_x3", 789, "linear:3:2:nobias;linear:3:2:nobias;linear:3:2:nobias"),
           ("linear_4_3", 5, "linear:4:3:bias"),
           ("linear_1_1", 6, "linear:1:1:bias"),
           ("linear_5_7", 6, "linear:5:7:bias"),
           ("linear_768_768", 6, "linear:768:768:bias"),
           ("embedding_then_linear", 123, "embedding:6x3;linear:3:3:nobias;linear:3:3:nobias")]
    ),
    "random_dropout.txt": (
        [("dropout_123_ones_6x6_p0.5", 123, "dropout:6x6:0.5:ones")]
        + [(f"dropout_randn_p{p}", 100 + i, f"dropout:8x16:{p}:randn")
           for i, p in enumerate([0.1, 0.2, 0.3, 0.5, 0.7])]
        + [("dropout_randn_big_p0.1", 99, "dropout:1000:0.1:randn"),
           ("dropout_p0_no_rng", 5, "dropout:3x3:0.0:randn;rand:3"),
           ("dropout_p1_no_rng", 5, "dropout:3x3:1.0:randn;rand:3"),
           ("dropout_then_rand", 6, "dropout:4x4:0.25:ones;rand:4")]
    ),
    "random_int.txt": (
        [(f"random__{d}_{s}", s, f"random_:{d}:40") for d in ["int64", "float32", "bool"] for s in [0, 123]]
        + [("random__int64_to_10", 1, "random_:int64:50:10"),
           ("random__int64_from_to", 2, "random_:int64:50:-7:300"),
           ("random__int64_wide", 3, "random_:int64:30:-1099511627776:1099511627776"),
           ("random__int64_to_2pow32", 4, "random_:int64:30:0:4294967296"),
           ("random__int64_from_open", 5, "random_:int64:20:1000:None"),
           ("random__int64_full64", 6, "random_:int64:20:-9223372036854775808:None"),
           ("random__float32_from_to", 7, "random_:float32:50:5:100"),
           ("random__float32_from_open", 8, "random_:float32:20:-3:None"),
           ("random__bool_to_2", 9, "random_:bool:40:2"),
           ("random__seed_draw_then_rand", 10, "random_:int64:1;rand:4;random_:int64:1;randn:3")]
    ),
    "random_dropout_mkl.txt": (
        [("mkl_123_ones_6x6_p0.5", 123, "dropout_mkl:6x6:0.5:ones")]
        + [(f"mkl_randn_p{p}", 200 + i, f"dropout_mkl:8x16:{p}:randn")
           for i, p in enumerate([0.1, 0.3, 0.7])]
        + [("mkl_then_rand", 6, "dropout_mkl:4x4:0.25:ones;rand:4")]
    ),
}


# The DEFAULT-kernel files: the same cases (MKL's Bernoulli path needs an Intel CPU, so no
# scalar machine runs it) plus the sizes and parameters where the two families' arithmetic
# differs most: every randn size up to 100 (the double path, full blocks, and tails), large
# normal_ / uniform_ fills with mean and std that expose each rounding, and inits at more seeds.
SCALAR_EXTRA = {
    "random_uniform.txt": (
        [(f"uniform_{s}_{i}", s, f"uniform:{n}:{lo!r}:{hi!r}")
         for i, (n, lo, hi) in enumerate([(5000, -1.0, 1.0), (5000, -0.1, 0.3), (5000, 0.25, 7.0),
                                          (5000, -3e-3, 1e-3), (5000, -1e5, 1e-2)])
         for s in [0, 42]]
    ),
    "random_normal.txt": (
        [(f"randn_123_{n}", 123, f"randn:{n}") for n in range(1, 101) if n not in RANDN_SIZES]
        + [(f"randn_chain_1_to_100_{s}", s, ";".join(f"randn:{n}" for n in range(1, 101)))
           for s in [0, 42, 789]]
        + [(f"randn_{s}_150000", s, "randn:150000") for s in [0, 42, 123, 789]]
        + [(f"normal_{s}_{n}_{mean!r}_{std!r}", s, f"normal:{n}:{mean!r}:{std!r}")
           for s, n, mean, std in [(21, 20000, 0.5, 0.02), (22, 20000, -1.5, 3.25),
                                   (23, 20000, 10.0, 0.1), (24, 20007, 0.1, 1.7),
                                   (25, 15, 0.1, 1.7), (26, 7, -2.5, 0.3)]]
    ),
    "random_init.txt": (
        [(f"embedding_1000x7_{s}", s, "embedding:1000x7") for s in [2, 3]]
        + [("linear_3_2_nobias_x3_seed0", 0, "linear:3:2:nobias;linear:3:2:nobias;linear:3:2:nobias"),
           ("linear_64_16", 42, "linear:64:16:bias")]
    ),
    "random_dropout.txt": [],
}
SCALAR_CASES = {
    "random_scalar_" + fname.removeprefix("random_"): cases + SCALAR_EXTRA[fname]
    for fname, cases in CASES.items() if fname in SCALAR_EXTRA
}

# Which kernels torch must be running for each family, as torch.__config__.show() reports them.
KERNELS = {
    "avx2": dict(env="avx2", files=CASES, capability="AVX2",
                 label="AVX2 kernels, no MKL"),
    "scalar": dict(env="default", files=SCALAR_CASES, capability="NO AVX",
                   label="ATEN_CPU_CAPABILITY=default: scalar DEFAULT kernels, no MKL"),
}


def cpu_capability():
    for line in torch.__config__.show().splitlines():
        if "CPU capability usage:" in line:
            return line.split(":", 1)[1].strip()
    raise RuntimeError("torch.__config__.show() names no CPU capability")


# ---- self-checks: the script's own models against torch and the published mask ----

def self_check():
    # 1. random() via random_(0, 2**32 - 1) is the raw mt19937 word (numpy's RandomState(s)
    #    seeds with the same init_genrand).
    torch.manual_seed(1)
    ours = run_op("random:6")
    ref = np.random.RandomState(1).randint(0, 2**32, size=6, dtype=np.uint64).tolist()
    assert ours == ref, (ours, ref)
    # 2. MCG31 model against the mask the book notebook printed (seed 123, p = 0.5, 6x6).
    torch.manual_seed(123)
    mask = mcg31_mask(peek_random(), 36, 0.5).reshape(6, 6)[:4].astype(int).tolist()
    assert mask == [[1, 1, 1, 1, 1, 1], [0, 1, 0, 0, 0, 0], [0, 0, 1, 0, 1, 0],
                    [1, 1, 0, 0, 0, 1]], mask
    # 3. Dropout's portable path in this build is per element random64() & (2^53-1) < 1-p.
    torch.manual_seed(3)
    x = torch.ones(50)
    y = F.dropout(x, 0.3, training=True)
    torch.manual_seed(3)
    r = torch.empty(50, dtype=torch.int64).random_(-2**63, None).tolist()
    model = [(((v & 0xFFFFFFFFFFFFFFFF) & ((1 << 53) - 1)) * 2.0**-53) < 0.7 for v in r]
    assert [bool(v != 0) for v in y.tolist()] == model
    # 4. Linear's bound as in init.kaiming_uniform_ with a = sqrt(5), fan_in = 3.
    assert math.sqrt(3.0) * (math.sqrt(2.0 / (1 + math.sqrt(5) ** 2)) / math.sqrt(3)) == 0.5773502691896257


def render(cases, label):
    lines = [
        "# Generated by tools/make_vectors.py from torch " + torch.__version__
        + f" (Debian python3-torch 1.13.1, {label}). Do not edit; regenerate.",
        "# Format: see the docstring of tools/make_vectors.py.",
    ]
    for name, seed, ops in cases:
        words = run_case(seed, ops)
        sample = words[:SAMPLE]
        lines += [f"case {name}", f"seed {seed}", f"ops {ops}", f"count {len(words)}",
                  f"fnv1a64 {digest(words):016x}", f"sample {len(sample)}"]
        for k in range(0, len(sample), 8):
            lines.append(" ".join(f"{w:08x}" for w in sample[k:k + 8]))
        lines.append("end")
    return "\n".join(lines) + "\n"


def write_or_check(files, label, check):
    """Renders each file; writes it, or (check) prints a diff against disk. 1 if any differs."""
    status = 0
    for fname, cases in files.items():
        text = render(cases, label)
        path = OUT_DIR / fname
        if check:
            old = path.read_text() if path.exists() else ""
            if old != text:
                status = 1
                sys.stdout.writelines(difflib.unified_diff(
                    old.splitlines(True), text.splitlines(True), str(path), "regenerated"))
        else:
            path.write_text(text)
            print(f"wrote {path.relative_to(ROOT)} ({len(cases)} cases)", flush=True)
    return status


def run_scalar_child(check):
    """This script again, in a fresh process of the same interpreter (/usr/bin/python3) with
    ATEN_CPU_CAPABILITY=default: torch reads it once, at its first dispatch, so it must be in the
    environment before the process starts."""
    env = dict(os.environ, ATEN_CPU_CAPABILITY=KERNELS["scalar"]["env"])
    cmd = [sys.executable, str(pathlib.Path(__file__).resolve()), "--kernels", "scalar"]
    return subprocess.run(cmd + (["--check"] if check else []), env=env).returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the files on disk, write nothing")
    ap.add_argument("--kernels", choices=["all", *KERNELS], default="all",
                    help="all (default): avx2 here, then scalar in a child process")
    args = ap.parse_args()
    torch.set_num_threads(1)
    family = "avx2" if args.kernels == "all" else args.kernels
    k = KERNELS[family]
    if cpu_capability() != k["capability"]:
        sys.exit(f"make_vectors.py: {family} vectors need torch's {k['capability']} kernels, but "
                 f"torch reports {cpu_capability()!r} (set ATEN_CPU_CAPABILITY={k['env']})")
    self_check()
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    status = write_or_check(k["files"], k["label"], args.check)
    if args.kernels == "all":
        status |= run_scalar_child(args.check)
    return status


if __name__ == "__main__":
    sys.exit(main())
