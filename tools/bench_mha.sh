#!/bin/sh
# tools/bench_mha.sh: the book's MultiHeadAttention at GPT-2 size (d_in = d_out = 768, 12 heads,
# causal, dropout 0, batch 1) run forward once on T random tokens, in attn and in PyTorch.
#
# What it is: a benchmark (docs/numerics.md, "Performance"), never run by ctest. For each T it writes one
# cell of Python to a temporary folder, runs it as an attn lesson (`attn run --quiet`) under
# GNU time (the whole attn process: start-up, parsing, init, forward, printing) and with
# /usr/bin/python3 (torch 1.13), where the cell times itself from after `import torch` (wall
# and CPU seconds) and GNU time gives the process's peak memory. Both print the same four
# outputs, so a reader can see they computed the same thing.
# What it is not: the automated attn-vs-PyTorch harness of issue 12 item 2, or a test.
#
# Usage: tools/bench_mha.sh BUILD_DIR [T ...]        (default T: 1024 4096)
# BLAS for PyTorch: BLAS=openblas (default; Debian's libopenblas0-pthread, the BLAS Debian
# picks when installed) or BLAS=reference (the reference BLAS whose summation order attn
# reproduces; minutes at T = 4096). attn's threads: ATTN_NUM_THREADS (default: all cores).
set -eu
build=${1:?usage: tools/bench_mha.sh BUILD_DIR [T ...]}
shift
[ $# -gt 0 ] || set -- 1024 4096
case ${BLAS:-openblas} in
  openblas) blas=/usr/lib/x86_64-linux-gnu/openblas-pthread ;;
  reference) blas=/usr/lib/x86_64-linux-gnu/blas:/usr/lib/x86_64-linux-gnu/lapack ;;
  *) echo "bench_mha.sh: BLAS must be openblas or reference, not '$BLAS'" >&2; exit 2 ;;
esac
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

cell() {  # the cell, for T = $1
  cat <<PY
import torch
import torch.nn as nn

class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, block_size, dropout, num_heads, qkv_bias=False):
        super().__init__()
        assert d_out % num_heads == 0, "d_out must be divisible by n_heads"
        self.d_out = d_out
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer('mask', torch.triu(torch.ones(block_size, block_size), diagonal=1))

    def forward(self, x):
        b, num_tokens, d_in = x.shape
        keys = self.W_key(x)
        queries = self.W_query(x)
        values = self.W_value(x)
        keys = keys.view(b, num_tokens, self.num_heads, self.head_dim)
        values = values.view(b, num_tokens, self.num_heads, self.head_dim)
        queries = queries.view(b, num_tokens, self.num_heads, self.head_dim)
        keys = keys.transpose(1, 2)
        queries = queries.transpose(1, 2)
        values = values.transpose(1, 2)
        attn_scores = queries @ keys.transpose(2, 3)
        mask_bool = self.mask.bool()[:num_tokens, :num_tokens]
        attn_scores.masked_fill_(mask_bool, -torch.inf)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
        attn_weights = self.dropout(attn_weights)
        context_vec = (attn_weights @ values).transpose(1, 2)
        context_vec = context_vec.contiguous().view(b, num_tokens, self.d_out)
        context_vec = self.out_proj(context_vec)
        return context_vec

torch.manual_seed(123)
T = $1
x = torch.rand(1, T, 768)
mha = MultiHeadAttention(768, 768, T, 0.0, 12)
out = mha(x)
print(out[0, -1, :4])
PY
}

for t in "$@"; do
  {
    printf '# GPT-2-size MultiHeadAttention, T = %s\nname: bench-mha\ngroup: concepts\norder: 1\n' "$t"
    printf 'cpu: avx2\nsource: tools/bench_mha.sh\n\nOne forward pass.\n\n## forward: Forward\nThe layer.\n\n```python\n'
    cell "$t"
    printf '```\n'
  } > "$dir/mha.lesson"
  {
    printf 'import time, resource, sys\nimport torch\nt0 = time.perf_counter(); c0 = time.process_time()\n'
    cell "$t" | sed 1d
    printf 'print("torch cells: %%.2f s wall, %%.2f s CPU" %% (time.perf_counter() - t0, time.process_time() - c0))\n'
  } > "$dir/mha.py"
  echo "== T = $t"
  /usr/bin/time -f "attn process: %e s wall, %U s user + %S s sys, peak RSS %M KB" "$build/attn" run --quiet "$dir/mha.lesson"
  LD_LIBRARY_PATH=$blas /usr/bin/time -f "torch process (import included): %e s wall, peak RSS %M KB" \
    /usr/bin/python3 "$dir/mha.py"
done
