#!/usr/bin/python3
"""Writes tests/vectors/print_cases.txt: tensors and their repr() as real PyTorch prints them.

What it is: the ground truth for src/print/tensor_str.cpp. Every case records a tensor exactly
(dtype, shape, float32 bits in hex or integers, requires_grad / Parameter / grad_fn name) and the
string repr() returned, so tests/print/test_printer.cpp can compare the C++ printer character for
character without PyTorch. It also records Python's repr() of floats and strs, and torch.Size reprs.
What it is not: part of the build or of the tests; it needs PyTorch (Debian's python3-torch 1.13)
and is run by hand:

    /usr/bin/python3 tools/make_print_vectors.py            # from the repository root

The output is deterministic (fixed seeds).

File format (line based, '#' starts a comment line):
    tensor <name>
    dtype float32|int64|bool
    shape [<d0> <d1> ...]                  (no numbers for a 0-d tensor)
    grad <requires_grad 0|1> <is_parameter 0|1> <grad_fn name or ->
    options <precision> <threshold> <edgeitems> <linewidth> <sci_mode -1|0|1>   (optional line)
    data [<v> ...]                         (float32 as 8 hex digits of its bits; int64/bool as integers)
    repr <number of lines>
    <the repr, that many lines>
    end
    float <name> <16 hex digits of the double's bits> <repr(value)>
    str <name> <hex of the UTF-8 bytes, or - if empty> <repr(value)>
    size <name> <ndims> [<d0> ...] <repr(torch.Size(...))>
"""

import math
import os
import random
import struct
import sys

import torch
import torch.nn.functional as F

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "vectors", "print_cases.txt")

DTYPES = {torch.float32: "float32", torch.int64: "int64", torch.bool: "bool"}

lines = []
names = set()


def unique(name):
    assert name not in names, name
    assert " " not in name and name, name
    names.add(name)
    return name


def reset_options():
    torch.set_printoptions(profile="default")  # also resets sci_mode to None


def emit_tensor(name, t, options=None):
    """Record tensor t and repr(t). options: dict for torch.set_printoptions."""
    assert t.dtype in DTYPES, t.dtype
    assert t.dim() <= 4, t.shape
    flat = t.detach().reshape(-1)
    if t.dtype == torch.float32:
        data = ["%08x" % (b & 0xFFFFFFFF) for b in flat.contiguous().view(torch.int32).tolist()]
    else:
        data = [str(int(v)) for v in flat.to(torch.int64).tolist()]
    is_param = isinstance(t, torch.nn.Parameter)
    grad_fn = type(t.grad_fn).__name__ if t.grad_fn is not None else "-"
    assert grad_fn != "CppFunction", name
    opt_line = None
    if options:
        reset_options()
        torch.set_printoptions(**options)
        o = torch._tensor_str.PRINT_OPTS
        sci = -1 if o.sci_mode is None else int(bool(o.sci_mode))
        opt_line = "options %d %d %d %d %d" % (o.precision, o.threshold, o.edgeitems, o.linewidth, sci)
    text = repr(t)
    reset_options()
    lines.append("tensor " + unique(name))
    lines.append("dtype " + DTYPES[t.dtype])
    lines.append(("shape " + " ".join(str(d) for d in t.shape)).rstrip())
    lines.append("grad %d %d %s" % (int(t.requires_grad), int(is_param), grad_fn))
    if opt_line:
        lines.append(opt_line)
    lines.append(("data " + " ".join(data)).rstrip())
    reprs = text.split("\n")
    lines.append("repr %d" % len(reprs))
    lines.extend(reprs)
    lines.append("end")


def emit_float(name, v):
    bits = struct.unpack("<Q", struct.pack("<d", v))[0]
    lines.append("float %s %016x %s" % (unique(name), bits, repr(v)))


def emit_str(name, s):
    r = repr(s)
    assert "\n" not in r and "\r" not in r
    h = s.encode("utf-8").hex() or "-"
    lines.append("str %s %s %s" % (unique(name), h, r))


def emit_size(name, dims):
    r = repr(torch.Size(dims))
    lines.append("size %s %d %s%s" % (unique(name), len(dims), "".join("%d " % d for d in dims), r))


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def param(t):
    return torch.nn.Parameter(t)


# ---------------------------------------------------------------------------------------------
# Hand-picked cases


def verification_list():
    T = torch.tensor
    nan, inf = float("nan"), float("inf")
    emit_tensor("facts_int_mode", T([1.0, 0.0, -3.0]))
    emit_tensor("facts_zeros3", torch.zeros(3))
    emit_tensor("facts_zero_nan", T([0.0, nan]))
    emit_tensor("facts_sci_small", T([1e-5, 1.0]))
    emit_tensor("facts_sci_ratio", T([1.0, 1001.0]))
    emit_tensor("facts_ratio_1000", T([1.0, 1000.0]))
    emit_tensor("facts_inf_nan_pad", T([1.5, inf, nan, -inf]))
    emit_tensor("facts_int_inf_nan", T([1.0, inf, nan]))
    emit_tensor("facts_neg_zero", T([-0.0, 1.0]))
    emit_tensor("facts_sci_inf", T([inf, 1e-5, -2.0]))
    emit_tensor("facts_neg_and_zero", T([-1.5, 0.0]))
    emit_tensor("facts_3d_sevenths", torch.arange(12.0).view(2, 2, 3) / 7)
    emit_tensor("facts_arange2000", torch.arange(2000))
    torch.manual_seed(0)
    emit_tensor("facts_randn_2x12", torch.randn(2, 12))


def sci_and_special():
    T = torch.tensor
    nan, inf = float("nan"), float("inf")
    emit_tensor("sci_tiny", T([1e-8, 2.5e-9, -3e-7]))
    emit_tensor("sci_huge", T([1e10, -3e12, 4.5e9]))
    emit_tensor("sci_mixed", T([1e-3, 1e5, 2.0]))
    emit_tensor("sci_min_1e-4", T([1e-4, 0.5]))  # float32(1e-4) < 1e-4 as a double
    emit_tensor("sci_min_2e-4", T([2e-4, 0.5]))
    emit_tensor("sci_max_1e8_float", T([1.5e8, 1.5]))
    emit_tensor("int_mode_1e8", T([100000000.0, 99999999.0]))
    emit_tensor("int_mode_above_1e8", T([123456792.0, 1.0]))
    emit_tensor("int_mode_sci_ratio", T([1.0, 2000.0, -7.0]))
    emit_tensor("int_mode_big_neg", T([-12345678.0, 3.0, 0.0]))
    emit_tensor("sci_all_special", T([nan, inf, -inf, 1e-9, 0.0, -0.0]))
    emit_tensor("sci_huge_with_inf", T([3e20, -inf, nan]))
    emit_tensor("only_nan", T([nan, nan]))
    emit_tensor("only_inf", T([inf, -inf]))
    emit_tensor("neg_nan", T([-nan, 1.25]))
    emit_tensor("neg_nan_from_op", torch.zeros(3) / torch.zeros(3))
    emit_tensor("inf_nan_float", T([[0.25, -inf], [nan, 3.75]]))
    emit_tensor("inf_nan_4d", T([inf, 1.0, nan, -2.0, 0.5, -inf, 7.0, 8.0]).view(2, 2, 1, 2))
    emit_tensor("all_zero_2d", torch.zeros(2, 3))
    emit_tensor("all_zero_grad", torch.zeros(5, requires_grad=True))
    emit_tensor("all_neg_zero", T([-0.0, -0.0]))
    emit_tensor("neg_zero_float", T([-0.0, 1.5, 0.0]))
    emit_tensor("neg_zero_sci", T([-0.0, 1e-7]))
    emit_tensor("integer_valued", T([[1.0, 2.0, 3.0], [-40.0, 500.0, 6.0]]))
    emit_tensor("integer_valued_wide", torch.arange(30.0) * 3 - 40)
    emit_tensor("ties_round_half_even", T([0.03125, 0.15625, 0.046875, -0.21875, 1.00005, 2.5]))
    emit_tensor("ties_sci", T([1.03125e-5, 2.00005e-5, 1.5]))
    emit_tensor("near_int", T([0.99999, 1.0, 2.0]))
    emit_tensor("rounds_to_10", T([9.99999, 1.0]))
    emit_tensor("float_max", T([3.4028234663852886e38, 1.0]))
    emit_tensor("float_denormal", T([1e-45, 1.0]))
    emit_tensor("float_min_normal", T([1.1754943508222875e-38, -1.0]))


def scalars():
    T = torch.tensor
    emit_tensor("scalar_float", T(1.2903))
    emit_tensor("scalar_int_valued_float", T(2.0))
    emit_tensor("scalar_int", T(3))
    emit_tensor("scalar_neg_int", T(-42))
    emit_tensor("scalar_bool_true", T(True))
    emit_tensor("scalar_bool_false", T(False))
    emit_tensor("scalar_zero", T(0.0))
    emit_tensor("scalar_neg_zero", T(-0.0))
    emit_tensor("scalar_nan", T(float("nan")))
    emit_tensor("scalar_neg_inf", T(float("-inf")))
    emit_tensor("scalar_tiny", T(1e-5))
    emit_tensor("scalar_huge", T(3e9))
    emit_tensor("scalar_big_int_float", T(123456792.0))
    emit_tensor("scalar_requires_grad", T(0.5, requires_grad=True))
    torch.manual_seed(1)
    x = torch.randn(3)
    w = param(torch.randn(3))
    emit_tensor("scalar_sum_backward", (x * w).sum())
    emit_tensor("scalar_dot_backward", torch.dot(x, w))
    emit_tensor("scalar_mean_backward", w.mean())
    emit_tensor("scalar_parameter", param(T(1.5)))


def integers_and_bools():
    T = torch.tensor
    emit_tensor("int_small", T([1, 22, -3]))
    emit_tensor("int_arange40", torch.arange(40))
    emit_tensor("int_arange100_wrap", torch.arange(100) * 12345678)
    emit_tensor("int_big", T([10**15, -5, 2**62]))
    emit_tensor("int_min", T([-(2**63), 0]))
    emit_tensor("int_2d", T([[1, -1], [100, 7]]))
    emit_tensor("int_3d", torch.arange(24).view(2, 3, 4) - 5)
    emit_tensor("int_4d", torch.arange(48).view(2, 2, 3, 4))
    emit_tensor("int_zeros", torch.zeros(4, dtype=torch.int64))
    emit_tensor("bool_vec", T([True, False]))
    emit_tensor("bool_all_false", T([False, False, False]))
    emit_tensor("bool_all_true", T([True, True]))
    torch.manual_seed(2)
    emit_tensor("bool_2d", torch.randn(3, 4) > 0)
    emit_tensor("bool_long_wrap", torch.randn(50) > 0)
    emit_tensor("bool_tril", torch.tril(torch.ones(6, 6)).bool())
    emit_tensor("bool_3d", torch.randn(2, 3, 3) > 0.3)
    emit_tensor("bool_big_summarized", torch.randn(40, 40) > 0)


def layouts():
    torch.manual_seed(3)
    emit_tensor("randn30_wrap", torch.randn(30))
    emit_tensor("randn30_positive_wrap", torch.rand(30))
    emit_tensor("randn_2x3", torch.randn(2, 3))
    emit_tensor("randn_2x3x4", torch.randn(2, 3, 4))
    emit_tensor("randn_2x2x3x4", torch.randn(2, 2, 3, 4))
    emit_tensor("randn_3x1x2x2", torch.randn(3, 1, 2, 2))
    emit_tensor("randn_1x1x1x1", torch.randn(1, 1, 1, 1))
    emit_tensor("randn_4d_wrap_rows", torch.randn(2, 2, 2, 20))
    emit_tensor("randn_3d_wrap_rows", torch.randn(2, 2, 15))
    emit_tensor("randn_2d_wide_rows", torch.randn(3, 25) * 100)
    # grad_fn suffixes: x @ W with W a Parameter
    x = torch.randn(6, 3)
    w = param(torch.randn(3, 6))
    emit_tensor("mm_6x6_suffix_newline", x @ w)
    emit_tensor("mul_6x6_suffix_same_line", param(torch.ones(6, 6)) * 2)
    emit_tensor("mm_6x2_suffix_same_line", x @ w[:, :2].detach().requires_grad_())
    emit_tensor("softmax_6x6", F.softmax(x @ w, dim=-1))
    emit_tensor("layer_norm_2x6", F.layer_norm(x @ w, (6,))[:2])
    emit_tensor("t_backward", w.t())
    emit_tensor("T_backward", w.T)
    emit_tensor("view_backward", w.view(2, 9))
    emit_tensor("div_backward", w / 8)
    emit_tensor("add_backward", w + 1)
    emit_tensor("masked_fill_backward", (x @ w).masked_fill(torch.triu(torch.ones(6, 6), 1).bool(), float("-inf")))
    emb = torch.nn.Embedding(10, 4)
    emit_tensor("embedding_backward", emb(torch.tensor([[1, 2, 3], [4, 5, 6]])))
    b = param(torch.randn(2, 3, 4))
    emit_tensor("bmm_3d", b @ torch.randn(4, 2))
    emit_tensor("requires_grad_leaf_2d", torch.randn(3, 3, requires_grad=True))
    emit_tensor("requires_grad_leaf_1d_long", torch.randn(12, requires_grad=True))
    emit_tensor("requires_grad_1d_fits", torch.rand(9, requires_grad=True))
    emit_tensor("requires_grad_1d_10", torch.rand(10, requires_grad=True))
    emit_tensor("requires_grad_1d_11", torch.rand(11, requires_grad=True))
    emit_tensor("grad_fn_1d_wrap_edge", (torch.rand(10, requires_grad=True) * 1))
    emit_tensor("grad_fn_1d_8", (torch.rand(8, requires_grad=True) * 1))
    emit_tensor("grad_fn_1d_9", (torch.rand(9, requires_grad=True) * 1))


def summarized():
    torch.manual_seed(4)
    emit_tensor("sum_randn2000", torch.randn(2000))
    emit_tensor("sum_randn50x50", torch.randn(50, 50))
    emit_tensor("sum_arange2000", torch.arange(2000))
    emit_tensor("sum_randn3x400", torch.randn(3, 400))
    emit_tensor("sum_randn20x60", torch.randn(20, 60))
    emit_tensor("sum_randn1001", torch.randn(1001))
    emit_tensor("no_sum_randn1000", torch.randn(1000))
    emit_tensor("sum_arange1001", torch.arange(1001))
    emit_tensor("sum_3d", torch.randn(10, 10, 11))
    emit_tensor("sum_3d_grad", param(torch.randn(2, 3, 200)) * 1)
    emit_tensor("sum_4d", torch.randn(8, 2, 8, 8))
    emit_tensor("sum_edge_hides_tiny", torch.cat([torch.ones(3), torch.full((1000,), 1e-9), torch.ones(3) * 2]))
    emit_tensor("sum_int_valued", torch.arange(1500.0))
    emit_tensor("sum_7_rows", torch.randn(7, 200))
    emit_tensor("sum_6_rows_kept", torch.randn(6, 200))
    emit_tensor("sum_param", param(torch.randn(40, 30)))


def empties():
    emit_tensor("empty_float", torch.tensor([]))
    emit_tensor("empty_2x0", torch.zeros(2, 0))
    emit_tensor("empty_0x3", torch.zeros(0, 3))
    emit_tensor("empty_1x0x2", torch.zeros(1, 0, 2))
    emit_tensor("empty_int", torch.zeros(0, dtype=torch.int64))
    emit_tensor("empty_int_2d", torch.zeros(3, 0, dtype=torch.int64))
    emit_tensor("empty_bool", torch.zeros(0, dtype=torch.bool))
    emit_tensor("empty_requires_grad", torch.zeros(0, requires_grad=True))
    emit_tensor("empty_param_2d", param(torch.zeros(0, 4)))
    emit_tensor("empty_grad_fn", torch.zeros(2, 0, requires_grad=True) * 2)


def parameters():
    torch.manual_seed(5)
    emit_tensor("param_3x4", param(torch.randn(3, 4)))
    emit_tensor("param_6x6", param(torch.randn(6, 6)))
    emit_tensor("param_zeros", param(torch.zeros(2)))
    emit_tensor("param_1d_long", param(torch.randn(20)))
    emit_tensor("param_3d", param(torch.randn(2, 2, 2)))
    emit_tensor("param_int_valued", param(torch.ones(3, 3)))


def with_options():
    torch.manual_seed(6)
    emit_tensor("opt_sci_false_tiny", torch.tensor([1e-8, 0.5]), dict(sci_mode=False))
    emit_tensor("opt_sci_true_plain", torch.tensor([1.5, 0.25]), dict(sci_mode=True))
    emit_tensor("opt_sci_true_zeros", torch.zeros(3), dict(sci_mode=True))
    emit_tensor("opt_sci_true_int_valued", torch.tensor([1.0, 2.0]), dict(sci_mode=True))
    emit_tensor("opt_sci_false_int_mode_big", torch.tensor([1e9, 1.0]), dict(sci_mode=False))
    emit_tensor("opt_sci_true_ints", torch.tensor([1, 2]), dict(sci_mode=True))
    emit_tensor("opt_precision2", torch.randn(3, 3), dict(precision=2))
    emit_tensor("opt_precision6_sci", torch.randn(4) * 1e-6, dict(precision=6))
    emit_tensor("opt_precision0", torch.randn(4) * 10, dict(precision=0))
    emit_tensor("opt_linewidth40", torch.randn(20, requires_grad=True), dict(linewidth=40))
    emit_tensor("opt_linewidth120", torch.randn(3, 20), dict(linewidth=120))
    emit_tensor("opt_threshold5", torch.arange(10), dict(threshold=5))
    emit_tensor("opt_threshold5_edge2", torch.randn(6, 7), dict(threshold=5, edgeitems=2))
    emit_tensor("opt_threshold10_3d", torch.randn(3, 4, 5), dict(threshold=10, edgeitems=1))
    emit_tensor("opt_linewidth10", torch.randn(5) * 1000, dict(linewidth=10))


def float_reprs():
    fixed = {
        "sqrt2": 2 ** 0.5, "third": 1 / 3, "1e-05": 1e-05, "1e16": 1e16, "1e15": 1e15,
        "big_int": 123456789012345678.0, "zero": 0.0, "neg_zero": -0.0, "min_denormal": 5e-324,
        "50000": 50000.0, "0.1": 0.1, "0.5": 0.5, "1e-4": 1e-4, "9.999e-5": 9.999e-5,
        "below_1e16": 9999999999999998.0, "1e22": 1e22, "1e23": 1e23, "max": 1.7976931348623157e308,
        "min_normal": 2.2250738585072014e-308, "inf": float("inf"), "neg_inf": float("-inf"),
        "nan": float("nan"), "neg_nan": -float("nan"), "one": 1.0, "neg_one_half": -1.5,
        "12345.678": 12345.678, "1.5e300": 1.5e300, "neg_tiny": -3.3e-10, "0.3": 0.1 + 0.2,
        "100.0": 100.0, "1e100": 1e100, "pi": math.pi, "e": math.e,
    }
    for k, v in fixed.items():
        emit_float("f_" + k, v)
    for k in range(-25, 26):
        emit_float("f_pow10_%d" % k, 10.0 ** k)
        emit_float("f_pow10_x7_%d" % k, 7.25 * 10.0 ** k)
    for v in [0.1, 0.2, 1 / 3, 1e-5, 3.14159, 1e10, 1e-40, 16777217.0]:
        emit_float("f_f32_%r" % v, f32(v))
    rng = random.Random(7)
    for k in range(300):
        kind = k % 3
        if kind == 0:
            bits = rng.getrandbits(64)
            v = struct.unpack("<d", struct.pack("<Q", bits))[0]
            if not math.isfinite(v):
                v = 1.0 / (k + 3)
        elif kind == 1:
            v = f32(rng.gauss(0, 1) * 10 ** rng.uniform(-8, 10))
        else:
            v = float(rng.randint(-10 ** 18, 10 ** 18)) / 10 ** rng.randint(0, 20)
        emit_float("f_random_%d" % k, v)


def str_reprs():
    cases = {
        "plain": "hello", "empty": "", "single_quote": "it's", "double_quote": 'say "hi"',
        "both_quotes": "it's \"x\"", "backslash": "a\\b", "newline": "line1\nline2", "tab": "a\tb",
        "cr": "a\rb", "bell": "\x07", "del": "\x7f", "nul": "\x00x", "esc": "\x1b[0m",
        "omega": "ω", "greek": "Attention(Q, K, V) = softmax(QKᵀ/√d)V", "cjk": "日本語",
        "emoji": "😀 ok", "latin1_ctrl": "\x80\x9f", "nbsp": "a\xa0b", "soft_hyphen": "\xad",
        "zwsp": "a\u200bb", "line_sep": "\u2028", "bom": "\ufeff", "ideographic_space": "\u3000",
        "e_acute": "café", "quote_only_single": "'", "quote_only_double": '"',
        "backslash_quote": "\\'", "spaces": "  padded  ", "arrow": "→ ∑ ∞",
    }
    for k, s in cases.items():
        emit_str("s_" + k, s)
    rng = random.Random(8)
    alphabet = "abcXYZ019 '\"\\\n\t.,;:!?()[]{}<>=+-*/_~`@#$%^&|\x01\x1f\x7fωé→"
    for k in range(100):
        emit_str("s_random_%d" % k, "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 20))))


def sizes():
    for dims in [[], [6, 3], [2000], [1, 2, 3, 4], [0], [2, 0], [1], [64, 8, 512]]:
        emit_size("size_" + ("x".join(str(d) for d in dims) or "scalar"), dims)


# ---------------------------------------------------------------------------------------------
# Random cases


def random_shape(rng):
    dim = rng.choice([0, 1, 1, 2, 2, 2, 3, 3, 4])
    big = rng.random() < 0.12
    shape = []
    for _ in range(dim):
        hi = {1: 2500, 2: 70, 3: 16, 4: 10}[dim] if big else {1: 25, 2: 8, 3: 5, 4: 4}[dim]
        shape.append(rng.randint(1, hi))
    if dim and rng.random() < 0.03:
        shape[rng.randrange(dim)] = 0
    return shape


def random_floats(rng, n):
    kind = rng.choice(["normal", "normal", "wide", "int", "ties", "uniform", "tiny", "huge"])
    scale = 10 ** rng.uniform(-6, 9)
    out = []
    for _ in range(n):
        if kind == "normal":
            v = rng.gauss(0, 1) * scale
        elif kind == "wide":
            v = rng.choice([-1, 1]) * 10 ** rng.uniform(-6, 9)
        elif kind == "int":
            v = float(rng.randint(-int(scale) - 1, int(scale) + 1)) if scale < 1e9 else float(rng.randint(-9, 9))
        elif kind == "ties":
            v = rng.randint(-4000, 4000) / 2 ** rng.randint(0, 12)
        elif kind == "uniform":
            v = rng.random() * scale
        elif kind == "tiny":
            v = rng.gauss(0, 1) * 10 ** rng.uniform(-9, -4)
        else:
            v = rng.gauss(0, 1) * 10 ** rng.uniform(7, 12)
        out.append(v)
    if rng.random() < 0.25:  # specials
        for _ in range(rng.randint(1, 3)):
            if out:
                out[rng.randrange(len(out))] = rng.choice(
                    [float("inf"), float("-inf"), float("nan"), 0.0, -0.0])
    return out


UNARY_OPS = [
    ("clone", lambda x: x.clone()),
    ("mul1", lambda x: x * 1),
    ("neg", lambda x: -x),
    ("div2", lambda x: x / 2),
    ("view", lambda x: x.view(x.shape)),
    ("relu", lambda x: torch.relu(x)),
    ("tanh", lambda x: torch.tanh(x)),
    ("unsqueeze", lambda x: x.unsqueeze(0) if x.dim() < 4 else x.clone()),
    ("t", lambda x: x.t() if x.dim() == 2 else x.clone()),
    ("mmones", lambda x: x @ torch.ones(x.shape[-1], x.shape[-1]) if x.dim() == 2 else x.clone()),
    ("softmax", lambda x: torch.softmax(x, dim=-1) if x.dim() > 0 else x.clone()),
]


def random_cases(count):
    rng = random.Random(1234)
    for k in range(count):
        shape = random_shape(rng)
        n = 1
        for d in shape:
            n *= d
        dtype = rng.choice(["float32"] * 6 + ["int64", "bool"])
        name = "random_%03d" % k
        if dtype == "int64":
            mag = 10 ** rng.randint(0, 18)
            t = torch.tensor([rng.randint(-mag, mag) for _ in range(n)], dtype=torch.int64).view(shape)
            emit_tensor(name, t)
            continue
        if dtype == "bool":
            t = torch.tensor([rng.random() < 0.5 for _ in range(n)], dtype=torch.bool).view(shape)
            emit_tensor(name, t)
            continue
        t = torch.tensor(random_floats(rng, n), dtype=torch.float32).view(shape)
        grad = rng.choice(["none", "none", "leaf", "op", "op", "param"])
        if grad == "leaf":
            t.requires_grad_()
        elif grad == "param":
            t = param(t)
        elif grad == "op":
            op_name, op = rng.choice(UNARY_OPS)
            t = op(t.requires_grad_())
            name += "_" + op_name
        emit_tensor(name, t)


def main():
    assert torch.__version__.startswith("1.13"), torch.__version__
    reset_options()
    lines.append("# Generated by tools/make_print_vectors.py from PyTorch %s (Python %s); do not edit."
                 % (torch.__version__, sys.version.split()[0]))
    lines.append("# Format: see the docstring of tools/make_print_vectors.py.")
    verification_list()
    sci_and_special()
    scalars()
    integers_and_bools()
    layouts()
    summarized()
    empties()
    parameters()
    with_options()
    random_cases(400)
    float_reprs()
    str_reprs()
    sizes()
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    n_tensor = sum(1 for line in lines if line.startswith("tensor "))
    print("wrote %s: %d tensor cases, %d float, %d str, %d size" % (
        OUT, n_tensor, sum(1 for line in lines if line.startswith("float ")),
        sum(1 for line in lines if line.startswith("str ")),
        sum(1 for line in lines if line.startswith("size "))))


if __name__ == "__main__":
    main()
