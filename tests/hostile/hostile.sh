#!/usr/bin/env bash
# tests/hostile/hostile.sh: every input of issues 9's and 20's hostile reviews, run through the real
# binary, and each promise docs/instructors.md makes for untrusted files checked to have its cases
# (tests/hostile/guarantees.txt names them; the last section checks the mapping).
#
# Each case must answer within LIMIT seconds (default 20; a case takes well under 2 s in a Release
# build) with exit 0 and Python's (or PyTorch's) result, or exit 1/2 and ONE line on stderr; no
# sanitizer report (run it with an ASan/UBSan attn: the CTest test `hostile` of that build does)
# and no signal. Expected texts are CPython 3.11's and PyTorch 1.13's where they print a result.
# The export cases (overwriting, symlinks) are tests/test_export_safety.cpp's.
#
# Usage: tests/hostile/hostile.sh ATTN [LIMIT]     Exit 0: all cases as above; 1: a case was not.
set -uo pipefail
attn=$(command -v "${1:?usage: tests/hostile/hostile.sh ATTN [LIMIT]}") || { echo "hostile: no attn '$1'" >&2; exit 1; }
attn=$(realpath "$attn")   # the cases run in a folder of their own
limit=${2:-20}
export ATTN_LESSON_DIR=$(cd "$(dirname "$0")/../../lessons" && pwd)   # attn lesson causal, wherever attn is
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0 count=0
cpu_limit=''   # seconds of CPU a case may use, where set (the --time-limit cases: a loaded machine stretches wall time, not CPU)
say() { printf '%s\n' "$1"; printf '%s\n' "$1" >>"$work/log"; }   # a result line, also kept for the guarantees below

# lesson FILE CODE [HEADER...]: a lesson file of one cell.
lesson() {
  local file=$1 code=$2
  shift 2
  { printf '# Hostile\nname: hostile\ngroup: concepts\norder: 1\nsource: issue 9\n'
    for h in "$@"; do printf '%s\n' "$h"; done
    printf '\nIntro.\n\n## a: A step\n\n```python\n%s\n```\n' "$code"; } >"$file"
}

# check NAME WANT_RC WANT_OUT WANT_ERR -- COMMAND...: runs COMMAND (with $work as its folder).
# WANT_RC: the exit code, or several as '1|2'.
# WANT_OUT: stdout exactly ('*' = anything); WANT_ERR: an extended regex stderr must match ('' =
# stderr empty). Whatever the rest, stderr must be at most one line with no sanitizer report.
check() {
  local name=$1 want_rc=$2 want_out=$3 want_err=$4
  shift 5
  count=$((count + 1))
  local t0=$SECONDS rc=0 TIMEFORMAT='%3U %3S'   # bash's `time`: the CPU of the case and its children
  { time { (cd "$work" && timeout -s KILL "$limit" "$@") >"$work/out" 2>"$work/err" </dev/null; }; } 2>"$work/cpu" || rc=$?
  local took=$((SECONDS - t0)) err out why=() cpu
  cpu=$(awk '{printf "%.1f", $1 + $2}' "$work/cpu")
  [ -n "$cpu_limit" ] && awk -v c="$cpu" -v l="$cpu_limit" 'BEGIN { exit !(c > l) }' && why+=("${cpu} s of CPU, over ${cpu_limit} s")
  err=$(cat "$work/err")
  out=$(cat "$work/out")
  [ "$rc" -eq 137 ] && why+=("killed after ${limit} s")
  [[ $rc =~ ^($want_rc)$ ]] || why+=("exit $rc, not $want_rc")
  grep -qE 'Sanitizer|runtime error:|LeakSanitizer' "$work/err" && why+=("sanitizer report")
  [ "$(wc -l <"$work/err")" -gt 1 ] && why+=("stderr has $(wc -l <"$work/err") lines")
  [ "$want_out" != '*' ] && [ "$out" != "$want_out" ] && why+=("stdout '${out:0:200}', not '$want_out'")
  if [ -z "$want_err" ]; then [ -n "$err" ] && why+=("stderr not empty")
  else grep -qE -- "$want_err" <<<"$err" || why+=("stderr does not match /$want_err/"); fi
  if [ ${#why[@]} -gt 0 ]; then
    failed=1
    say "$(printf 'hostile: FAIL %s (%d s, %s s CPU): %s\n  stderr: %s' "$name" "$took" "$cpu" "$(IFS=';'; echo "${why[*]}")" "$(head -c 600 "$work/err")")"
  else
    say "$(printf 'hostile: ok   %s (%d s, %s s CPU, exit %d)%s' "$name" "$took" "$cpu" "$rc" "${err:+: ${err:0:160}}")"
  fi
}

# py NAME WANT_RC WANT_OUT WANT_ERR CODE: one cell run by `attn run --quiet`.
py() {
  lesson "$work/$1.lesson" "$5"
  check "$1" "$2" "$3" "$4" -- "$attn" run --quiet "$1.lesson"
}

rep() { yes -- "$1" | head -n "$2" | tr -d '\n'; }   # rep S N: S N times (bash's ${x// /S} is quadratic)
# A cell's first line is line 12 of its lesson file.

# ---- Signals ----
py floordiv-min 0 '9223372036854775808' '' 'print((-2)**63 // -1)'
py mod-min 0 '0' '' 'print((-2)**63 % -1)'
py zeros-wrap 2 '' 'zeros-wrap\.lesson:13: .*(too large|[Oo]verflow|limit)' $'import torch\nx = torch.zeros(2**61 + 1, 8)\nprint(x[0])'
py zeros-2-62 2 '' 'zeros-2-62\.lesson:13: ' $'import torch\nx = torch.zeros(2**62, 4)\nprint(x[0])'
# randperm and multinomial have no size argument, but their result counts as torch.zeros's does (review 26)
py randperm-too-large 2 '' 'randperm-too-large\.lesson:13: RuntimeError: tensor too large for a lesson \(over 50 million elements\)' $'import torch\nx = torch.randperm(10**9)'
py multinomial-too-large 2 '' 'multinomial-too-large\.lesson:13: RuntimeError: tensor too large for a lesson \(over 50 million elements\)' $'import torch\nx = torch.multinomial(torch.ones(2, 10), 3 * 10**7, replacement=True)'
py cat-0d 2 '' 'cat-0d\.lesson:13: RuntimeError: zero-dimensional tensor \(at position 0\) cannot be concatenated' $'import torch\nprint(torch.cat([torch.ones(()), torch.ones(())]))'   # tools/torchfuzz.py: SIGSEGV
py roll-0d 2 '' 'roll-0d\.lesson:13: IndexError: Dimension specified as 0 but tensor has no dimensions' $'import torch\nprint(torch.tensor(2.5).roll(1, 0))'   # tools/torchfuzz.py: SIGSEGV
py unflatten-0d 2 '' 'unflatten-0d\.lesson:13: IndexError: Dimension specified as 0 but tensor has no dimensions' $'import torch\nprint(torch.tensor(1.0).unflatten(0, (1, -1)))'   # tools/make_dtypes_test.py: SIGSEGV
py einsum-empty 0 $'tensor([])\n0.0' '' $'import torch\nprint(torch.einsum("i->i", torch.zeros(0)))\nprint(torch.einsum("i,i->", torch.zeros(0), torch.zeros(0)).item())'   # SIGSEGV (read past the operand)
py embedding-2-62 2 '' 'embedding-2-62\.lesson:14: ' $'import torch\nimport torch.nn as nn\ne = nn.Embedding(2**62, 4)'
py parens-3000 2 '' 'SyntaxError: too many nested parentheses' "x = $(rep '(' 3000)1$(rep ')' 3000)"
py terms-20000 2 '' 'RecursionError: maximum recursion depth exceeded during compilation' "print(1$(rep '+1' 19999))"
py terms-error 2 '' 'SyntaxError|RecursionError' "x = 1$(rep '+1' 99999) +"
py nested-list-literal 2 '' 'too many nested parentheses|nesting|Recursion' "x = $(rep '[' 5000)$(rep ']' 5000)"
py nested-list-print 2 '' 'RecursionError' $'x = []\nfor i in range(100000):\n    x = [x]\nprint(x)'
nested_if() { for ((k = 0; k < $1; k++)); do printf '%*sif True:\n' "$k" ''; done; printf '%*spass' "$1" ''; }
py nested-if-150 2 '' 'IndentationError: too many levels of indentation' "$(nested_if 150)"
py nested-if-2000 2 '' 'is larger than 1 MiB' "$(nested_if 2000)"   # 10,000 levels need 50 MB of indentation
lesson "$work/seed.lesson" $'import torch\ntorch.manual_seed(123)\nprint(torch.rand(1))'
check seed-30000-digits 2 '' '^attn: --seed ' -- "$attn" run --quiet seed.lesson --seed "$(rep 9 30000)"
lesson "$work/long-sentence.lesson" "sentence = '$(rep 'word ' 20000)'"$'\nprint(len(sentence.split()))'
check long-sentence 0 '20000' '' -- "$attn" run --quiet long-sentence.lesson
check long-sentence-replaced 0 '2' '' -- "$attn" run --quiet long-sentence.lesson --sentence 'Your journey'
lesson "$work/long-seed.lesson" $'import torch\ntorch.manual_seed('"$(rep 7 100000)"$')\nsentence = \'a b\''
check long-manual-seed-sentence 2 '' 'manual_seed|Overflow|limit|digits' -- "$attn" run --quiet long-seed.lesson --sentence 'x y'
check long-manual-seed-seed 0 '' '' -- "$attn" run --quiet long-seed.lesson --seed 5

# ---- Wrong numbers with exit 0 ----
py pow-200 0 '1606938044258990275541962092341162602522202993782792835301376' '' 'print(2**200)'
py pow-64 0 '18446744073709551616' '' 'print(2**64)'
py int64-plus-one 0 '9223372036854775808' '' 'print(9223372036854775807 + 1)'
py int-1e300 0 '1000000000000000052504760255204420248704468581108159154915854115511802457988908195786371375080447864043704443832883878176942523235360430575644792184786706982848387200926575803737830233794788090059368953234970799945081119038967640880074652742780142494579258788820056842838115669472196386865459400540160' '' 'print(int(1e300))'   # CPython 3.11
py manual-seed-2-64 2 '' 'RuntimeError: Overflow when unpacking long|manual_seed' $'import torch\ntorch.manual_seed(2**64)'
py reshape-negative 2 '' 'RuntimeError: invalid shape dimension -2' $'import torch\nprint(torch.arange(6).reshape(-2, -3))'
py argmax-empty 2 '' 'IndexError|RuntimeError' $'import torch\nprint(torch.zeros(2, 0).argmax(dim=1))'
# In-place ops through views under autograd (issue 20: the write was not recorded, w.grad was half of
# PyTorch's; a view of a leaf was written silently): CopySlices, and PyTorch's errors.
py view-inplace-grad 0 '[2.0, 2.0, 2.0] CopySlices' '' $'import torch\nw = torch.ones(3, requires_grad=True)\ny = w * 1\ny.view(3).mul_(2)\ny.t().sum().backward()\nprint(w.grad.tolist(), y.grad_fn.name().split(":")[-1])'
py view-of-leaf-inplace 2 '' 'RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation\.' $'import torch\nw = torch.ones(2, 2, requires_grad=True)\nw.t().mul_(2)'
py unbind-inplace 2 '' 'RuntimeError: Output 1 of UnbindBackward0 is a view and is being modified inplace\. This view is the output of a function that returns multiple' $'import torch\nw = torch.ones(2, 2, requires_grad=True)\nw.mul(1).unbind(0)[1].add_(1)'
py optim-non-leaf 2 '' "ValueError: can't optimize a non-leaf Tensor" $'import torch\nw = torch.ones(2, requires_grad=True)\ntorch.optim.SGD([w * 2], lr=0.1)'
py grad-identity 0 'True True [5.0, 5.0]' '' $'import torch\nw = torch.ones(2, requires_grad=True)\n(w * 2).sum().backward()\ng = w.grad\n(w * 3).sum().backward()\nprint(w.grad is w.grad, g is w.grad, g.tolist())'
# Results laid out as TensorIterator does (issue 20, layout): a relaid-out result is still the tensor
# its backward saved (writing it in place is refused, not a silent wrong gradient); every dtype moves.
py layout-saved-inplace 2 '' 'RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation' $'import torch\nx = torch.ones(3, 4, requires_grad=True)\ny = x.T.exp()\ny.mul_(2)\ny.sum().backward()'
py layout-dtypes 0 '(1, 12, 4) (1, 12, 4) (1, 12, 4) 300 12 132 [[2, 6, 10], [14, 18, 22]]' '' $'import torch\ni = torch.arange(24).reshape(2, 3, 4).permute(2, 0, 1)\na, b, c = i + 1, i > 11, (i * 0.5).to(torch.int8)\nprint(a.stride(), b.stride(), c.stride(), a.sum().item(), b.sum().item(), c.sum().item(), a[1].tolist())'

# ---- Hangs ----
py pow-huge 2 '' 'limit|Overflow|Memory' 'x = 2**(10**18)'
py dict-100000 0 '100000' '' 'print(len({i: i for i in range(100000)}))'
py range-full 0 'range(-9223372036854775808, 9223372036854775807)' '' 'print(range(-2**63, 2**63-1))'
py range-list 2 '' 'MemoryError' 'x = list(range(-2**63, 2**63-1))'
py format-width 2 '' 'limit|Memory|ValueError' "x = format(1.0, '1000000000')"
py matmul-3000 0 'torch.Size([3000, 3000])' '' $'import torch\nprint((torch.ones(3000, 3000) @ torch.ones(3000, 3000)).shape)'

# re: nesting, repeat counts and input sizes give CPython's errors or results, never a crash.
py re-nested-1000 2 '' 'RecursionError: maximum recursion depth exceeded' "import re
re.compile('$(rep '(' 1000)a$(rep ')' 1000)')"
py re-nested-400 0 '(0, 1)' '' "import re
print(re.match('$(rep '(' 400)a$(rep ')' 400)', 'a').span())"
py re-lookahead-400 0 '(0, 0)' '' "import re
print(re.match('$(rep '(?=' 400)a$(rep ')' 400)', 'a').span())"
py re-repeat-1e9 0 'None (0, 4)' '' $'import re\nprint(re.match(\'(?:ab){1000000000}\', \'abab\'), re.match(\'a{0,1000000000}\', \'aaaa\').span())'
py re-repeat-2-32 2 '' 'OverflowError: the repetition number is too large' $'import re\nre.compile(\'a{4294967296}\')'
py re-huge-input 0 '2000000 1000000' '' $'import re\ns = \'ab\' * 1000000\nprint(len(re.sub(\'b\', \'xy\', s)) - 1000000, re.match(\'(?:a|b)*\', s).end() // 2)'
py re-nested-groups-deep-input 0 '100000' '' $'import re\nprint(re.match(\'((((a))))*\', \'a\' * 100000).end())'

# --time-limit holds within seconds for one statement of big ops and for one huge op
# (core/deadline.h): each case would run for 15 s to minutes without it.
lesson "$work/ops-in-one.lesson" $'import torch\na = torch.ones(4000, 4000)\nb = a @ a @ a @ a @ a @ a @ a @ a'
lesson "$work/huge-matmul.lesson" $'import torch\nc = torch.ones(5000, 10000) @ torch.ones(10000, 5000)'
# (three operands are contracted pairwise as in PyTorch, so "i,j,k->" is three sums now, instant: a chain
# of two 4000^3 products is the long einsum)
lesson "$work/huge-einsum.lesson" $'import torch\nx = torch.ones(4000, 4000)\nprint(torch.einsum("ij,jk,kl->il", x, x, x))'
lesson "$work/huge-softmax.lesson" $'import torch\nx = torch.ones(50_000_000)\ny = [x.softmax(0) for i in range(20)]'
lesson "$work/re-catastrophic.lesson" $'import re\nprint(re.match(\'(a*)*b\', \'a\' * 40))'
# builtins that walk a range look at the clock too (sum(range(10**13)) ran until killed, review 27)
lesson "$work/range-sum.lesson" $'print(sum(range(10**13)))'
lesson "$work/range-max.lesson" $'print(max(range(10**13)), all(range(1, 10**13)))'
# ... and so do the lazy iterators over one (issue 20: iter(range) was a list of every item)
lesson "$work/lazy-map.lesson" $'print(sum(map(abs, range(10**13))))'
lesson "$work/lazy-zip.lesson" $'print(max(zip(range(10**13), range(10**13))))'
lesson "$work/lazy-filter.lesson" $'print(list(filter(lambda x: x < 0, range(10**13))))'
lesson "$work/lazy-enumerate.lesson" $'print(sum(i for i, x in enumerate(reversed(range(10**13)))))'
# ... and so do unbind, split and chunk, one view a piece (review 28 #8: 4-8 s of CPU past a 1 s limit)
lesson "$work/tensor-iter.lesson" $'import torch\nfor v in torch.zeros(3_000_000):\n    break'
lesson "$work/tensor-split.lesson" $'import torch\nprint(len(torch.zeros(3_000_000).split(1)))'
lesson "$work/tensor-chunk.lesson" $'import torch\nprint(len(torch.zeros(3_000_000, 1).chunk(3_000_000)))'
grep -qa __asan_init "$attn" && asan=1 || asan=0
whole=$limit
limit=20 cpu_limit=$((asan ? 10 : 4))
for f in ops-in-one huge-matmul huge-einsum huge-softmax re-catastrophic range-sum range-max lazy-map lazy-zip lazy-filter lazy-enumerate \
         tensor-iter tensor-split tensor-chunk; do
  check "time-limit-$f" 2 '' 'TimeoutError: the cell ran longer than its time limit of 1 seconds' -- "$attn" run --quiet --time-limit 1 "$f.lesson"
done
limit=$whole cpu_limit=''
# ... and no more pieces than a list may hold items
py tensor-unbind-items 2 '' 'MemoryError: unbind would make 20000000 views, more than attn.s limit of 10,000,000 items' $'import torch\nx = torch.zeros(20_000_000).unbind(0)'
py tensor-chunk-items 2 '' 'MemoryError: chunk would make 1000000000 views' $'import torch\nx = torch.zeros(0).chunk(10**9)'

# ---- Bare std::bad_alloc, files without a size ----
check dev-zero 2 '' '^attn: /dev/zero: is larger than 1 MiB' -- "$attn" run /dev/zero
py str-huge 2 '' 'MemoryError' "s = 'x' * (10**12)"
# Every way of building a str checks limits::kMaxStrBytes before it builds past it (replace built
# 10^9 characters, 1.97 GB; join, %, format, f-strings, repr and str of a list went past it too).
str_limit='MemoryError: a str of [0-9,]+ characters is more than attn.s limit of 100,000,000'
py str-limit-replace 2 '' "$str_limit" 'x = ("a" * 10**3).replace("a", "b" * 10**6)'
py str-limit-join 2 '' "$str_limit" 'x = ",".join(["a" * (5 * 10**7)] * 2)'
py str-limit-percent 2 '' "$str_limit" $'a = "x" * (6 * 10**7)\nx = "%s%s" % (a, a)'
py str-limit-format 2 '' "$str_limit" $'a = "x" * (6 * 10**7)\nx = "{}{}".format(a, a)'
py str-limit-fstring 2 '' "$str_limit" $'a = "x" * (6 * 10**7)\nx = f"{a}{a}"'
py str-limit-repr 2 '' "$str_limit" 'x = repr("\x01" * (3 * 10**7))'
py str-limit-str-list 2 '' "$str_limit" 'x = str(["a" * 10**7] * 11)'
py str-limit-percent-width 2 '' "$str_limit" 'x = "%1000000000d" % 1'
# split counts its pieces before it builds them: 50 million strs took 7.1 GB and 96 s (review 27).
items_limit='MemoryError: a list of [0-9,]+ items is more than attn.s limit of 10,000,000 items'
py split-items 2 '' "split-items\.lesson:12: $items_limit" "x = ('ab' * 5 * 10**7).split('a')"
py split-items-spaces 2 '' "$items_limit" "x = ('a ' * 3 * 10**7).split()"
py rsplit-items 2 '' "$items_limit" "x = ('ab' * 3 * 10**7).rsplit('b')"
py bytes-split-items 2 '' "$items_limit" "x = (b'a ' * 3 * 10**7).split()"
# ... whitespace that is not ASCII included: 20 million pieces between U+3000s passed the count (issue 20).
py split-items-unicode-spaces 2 '' "$items_limit" "x = ('\\u3000a' * 2 * 10**7).split()"
py rsplit-items-unicode-spaces 2 '' "$items_limit" "x = ('a\\x85' * 2 * 10**7).rsplit()"
py split-items-maxsplit 0 '3 True' '' $'x = (\'ab\' * 3 * 10**7).split(\'a\', 2)\nprint(len(x), x[2] == \'b\' + \'ab\' * (3 * 10**7 - 2))'
py list-huge 2 '' 'MemoryError' 'x = [0] * (10**12)'
# enumerate, zip, map, filter and reversed over a range are lazy, as CPython's: the first item at
# once, never a list of 10**12 (issue 20: MemoryError, the range made into a list first).
cpu_limit=1
py lazy-iter-enumerate 0 $'(0, 0)\n0 0' '' $'print(next(enumerate(range(10**12))))\nfor i, x in enumerate(range(10**12)): break\nprint(i, x)'
py lazy-iter-zip 0 '(0, 1)' '' 'print(next(zip(range(10**9), range(1, 10**9))))'
py lazy-iter-map-filter 0 '3 7' '' 'print(next(map(lambda x: x + 3, range(10**12))), next(filter(lambda x: x > 6, range(10**12))))'
py lazy-iter-reversed 0 $'999999999999 range_iterator\n2' '' $'r = reversed(range(10**12))\nprint(next(r), type(r).__name__)\nprint(next(iter(range(2, 10**12))))'
cpu_limit=''

# ---- Misleading messages ----
py fstring-line 2 '' 'fstring-line\.lesson:14: ' $'x = 1\ny = 2\nz = f\'{x +}\''
py ellipsis 0 'tensor([0, 3])' '' $'import torch\nprint(torch.arange(6).reshape(2, 3)[..., 0])'
py float-1e400 0 'inf' '' 'print(1e400)'
py nul-message 2 '' '\\x00' "raise ValueError('a\\x00b')"
py esc-message 2 '' '\\x1b\[2J' "raise ValueError('a\\x1b[2Jb')"
check step-newline 2 '' "^attn: .*x\\\\n" -- "$attn" lesson causal --step $'x\n'
check atol-nan 2 '' '^attn: --atol' -- "$attn" check causal --step tril --answer /dev/null --atol nan
check seed-range 2 '' '^attn: --seed .{0,120}$' -- "$attn" lesson causal --seed "1$(rep 0 309)"
printf 'x\n' >"$work/a-file"
check lesson-dir-file 1 '' 'is not a directory|not a folder' -- env ATTN_LESSON_DIR="$work/a-file" "$attn" list
check seed-max 0 '*' '' -- "$attn" lesson causal --seed 18446744073709551615 --quiet
mkdir -p "$work/dir-order" "$work/dir-group" "$work/dir-names"
lesson "$work/dir-order/a.lesson" 'print(1)'
sed -i 's/^order: 1$/order: abc/' "$work/dir-order/a.lesson"
check header-order 2 '' 'order' -- env ATTN_LESSON_DIR="$work/dir-order" "$attn" list
lesson "$work/dir-group/a.lesson" 'print(1)'
sed -i 's/^group: concepts$/group: nonsense/' "$work/dir-group/a.lesson"
check header-group 2 '' 'group' -- env ATTN_LESSON_DIR="$work/dir-group" "$attn" list
lesson "$work/dir-names/a.lesson" 'print(1)'
lesson "$work/dir-names/b.lesson" 'print(2)'
check duplicate-names 2 '' 'hostile' -- env ATTN_LESSON_DIR="$work/dir-names" "$attn" list

# Packages beside a lesson never lead out of its folder: a linked package folder, a package's
# linked module, and `..` past the top package (Python's error).
mkdir -p "$work/pkg-lesson/inside" "$work/pkg-outside/evil"
printf 'print("outside ran")\n' >"$work/pkg-outside/evil/__init__.py"
printf 'print("outside ran")\n' >"$work/pkg-outside/mod.py"
: >"$work/pkg-lesson/inside/__init__.py"
printf 'from ... import anything\n' >"$work/pkg-lesson/inside/up.py"
ln -s "$work/pkg-outside/evil" "$work/pkg-lesson/evil"
ln -s "$work/pkg-outside/mod.py" "$work/pkg-lesson/inside/linked.py"
lesson "$work/pkg-lesson/a.lesson" 'import evil'
check package-link-out 2 '' "a\.lesson:12: ImportError: attn imports \.py files from the lesson's folder only, and .*evil leads out of it" -- "$attn" run --quiet pkg-lesson/a.lesson
lesson "$work/pkg-lesson/b.lesson" 'from inside import linked'
check package-module-link-out 2 '' "b\.lesson:12: ImportError: attn imports .*linked\.py leads out of it" -- "$attn" run --quiet pkg-lesson/b.lesson
lesson "$work/pkg-lesson/c.lesson" 'import inside.up'
check package-dots-past-top 2 '' "up\.py:1: ImportError: attempted relative import beyond top-level package" -- "$attn" run --quiet pkg-lesson/c.lesson

# ---- A class folder (attn check --answers) that is not one: devices, FIFOs, links, huge files ----
# Each entry is a line of the report on stdout, exit 0: nothing opened blocks (a FIFO, a tty, a
# socket), nothing huge is read (/dev/zero is a device; a 2 GB sparse file is not read).
mkdir -p "$work/class"
mkfifo "$work/class/fifo.npy"
truncate -s 2G "$work/class/huge.npy"
ln -s /dev/zero "$work/class/zero.npy"
ln -s /etc/passwd "$work/class/passwd.npy"
check answers-dev 0 '*' '' -- "$attn" check causal --step tril --answers /dev
check answers-fd 0 '*' '' -- "$attn" check causal --step tril --answers /proc/self/fd
check answers-root 0 '*' '' -- "$attn" check causal --step tril --answers / --format json
check answers-class 0 "$(printf 'causal/tril  mask_simple [6, 6]\n4 files in class\nfifo    ERROR  is a FIFO (named pipe), not an answer file\nhuge    ERROR  is 2147483648 bytes, too large for a [6, 6] tensor (at most...\npasswd  ERROR  is a symbolic link, which --answers does not follow (copy the...\nzero    ERROR  is a symbolic link, which --answers does not follow (copy the...\n\n0 of 4 passed; 4 cannot be graded.\n  cannot_grade    4  fifo, huge, passwd, zero')" '' -- "$attn" check causal --step tril --answers class

# ---- Named pipes where files are read, and a file-size limit (issue 20) ----
# Nothing waits for a writer that never comes: a FIFO called *.lesson in the lesson folder, a FIFO
# given as --answer or as an exercise's --code, each one line and exit 2 (the `timeout -s KILL` of
# check() turns a hang into a failure). Under `ulimit -f` (a disk quota) a write fails with EFBIG
# instead of SIGXFSZ killing attn: one line, exit 1, and no temporary file left behind.
mkdir -p "$work/fifo-dir"
mkfifo "$work/fifo-dir/x.lesson" "$work/answer-fifo.npy" "$work/code-fifo.py"
check fifo-lesson-in-folder 2 '' '^attn: .*x\.lesson: is not a regular file' -- env ATTN_LESSON_DIR="$work/fifo-dir" "$attn" list
check fifo-answer 2 '*' 'answer-fifo\.npy: is not a regular file' -- "$attn" check causal --step tril --answer answer-fifo.npy
check fifo-code 2 '*' 'code-fifo\.py: is not a regular file' -- "$attn" check causal --step weights --code code-fifo.py
check fifo-run 2 '' 'a lesson starts with its title' -- "$attn" run "$work/fifo-dir/x.lesson"
mkdir -p "$work/quota"
check ulimit-export 1 '' "cannot write .*File too large" -- bash -c "cd quota && ulimit -f 1 && exec \"\$0\" export causal --npy out --notebook nb.ipynb" "$attn"
check ulimit-stdout 1 '' 'could not write all of the output' -- bash -c "ulimit -f 1 && exec \"\$0\" lesson causal > quota/walk.txt" "$attn"
left=$(find "$work/quota" -name '*.tmp*' -o -name 'out' | head -n 3)
[ -z "$left" ] || { failed=1; say "hostile: FAIL ulimit-leftovers: $left"; }

# ---- Encodings (issue 20): a UTF-8 byte-order mark is skipped; bytes that are not UTF-8 are
# refused with their line (they would otherwise reach the terminal, JSON documents and notebooks).
lesson "$work/plain.lesson" 'print(1 + 1)'
{ printf '\xEF\xBB\xBF'; cat "$work/plain.lesson"; } >"$work/bom.lesson"
sed '5s/$/ \xff/' "$work/plain.lesson" >"$work/latin.lesson"
sed '5s/$/ \xed\xa0\x80/' "$work/plain.lesson" >"$work/surrogate.lesson"
check bom-lesson 0 '2' '' -- "$attn" run --quiet bom.lesson
check not-utf8-lesson 2 '' '^attn: latin\.lesson:5: is not UTF-8 \(byte 0xFF\)' -- "$attn" run latin.lesson
sed '1s/$/ \x1b[2J\x1b]0;owned\x07/' "$work/plain.lesson" >"$work/escape-title.lesson"
printf '\n\xc2\x9b31m\n' >>"$work/plain-c1.lesson"; cat "$work/plain.lesson" "$work/plain-c1.lesson" >"$work/c1-prose.lesson"
check escape-in-title 2 '' '^attn: escape-title\.lesson:1: holds the control character U\+001B' -- "$attn" run escape-title.lesson
check c1-in-prose 2 '' '^attn: c1-prose\.lesson:[0-9]+: holds the control character U\+009B' -- "$attn" run --format json c1-prose.lesson
check surrogate-lesson 2 '' '^attn: surrogate\.lesson:5: is not UTF-8 \(byte 0xED\)' -- "$attn" run --format json surrogate.lesson
# Bidirectional controls (U+202E in a title, U+2066 in shown code) would reorder what the terminal
# shows ("Trojan Source"); a lone surrogate a cell prints raises CPython's UnicodeEncodeError
# instead of writing bytes that are not UTF-8 into stdout, a JSON document or a notebook.
sed '1s/$/ \xe2\x80\xaeevil/' "$work/plain.lesson" >"$work/bidi-title.lesson"
sed 's/^print(1 + 1)$/x = 1  # \xe2\x81\xa6 admin\nprint(x)/' "$work/plain.lesson" >"$work/bidi-code.lesson"
check bidi-in-title 2 '' '^attn: bidi-title\.lesson:1: holds the bidirectional control U\+202E' -- "$attn" run bidi-title.lesson
check bidi-in-code 2 '' '^attn: bidi-code\.lesson:[0-9]+: holds the bidirectional control U\+2066' -- "$attn" run bidi-code.lesson
# A file name holding ESC and U+202E is shown escaped in the walkthrough's header (it went out raw).
cp "$work/plain.lesson" "$work/a"$'\x1b[2J\xe2\x80\xae'"b.lesson"
check control-in-file-name 0 '*' '' -- "$attn" run "a"$'\x1b[2J\xe2\x80\xae'"b.lesson"
if LC_ALL=C grep -q $'\x1b\\|\xe2\x80\xae' "$work/out" || ! grep -qF 'Lesson file a\x1b[2J\u202eb.lesson' "$work/out"; then
  failed=1
  say "hostile: FAIL control-in-file-name: the header does not show the file name escaped: $(head -c 300 "$work/out")"
fi
py surrogate-print 2 'x' "UnicodeEncodeError: 'utf-8' codec can't encode characters in position 1-2: surrogates not allowed" $'print("x")\nprint("a" + chr(0xD800) + chr(0xDFFF) + "b")'
# What a cell writes to sys.stderr (and its warnings) is shown as CPython's stderr shows a lone
# surrogate (\ud800) and with attn's escaping of control characters (ESC went out raw, review 26).
py stderr-controls 0 'ok' '^\\x1b\[2J \\ud800 \\u202e$' $'import sys\nsys.stderr.write("\\x1b[2J \\ud800 \\u202e\\n")\nprint("ok")'
# A checked file's stderr is not the grader's: a student's escape sequences and fake PASS lines
# never reach the instructor's terminal (review 26).
"$attn" exercise causal --step masked -o "$work/masked.py" >/dev/null 2>&1
sed -i 's/^masked_simple = \.\.\..*/masked_simple = torch.zeros(6, 6)\nimport sys, warnings\nsys.stderr.write("\\x1b[2JPASS\\n")\nwarnings.warn("\\x1b[31mred")/' "$work/masked.py"
check check-code-stderr 1 '*' '' -- "$attn" check causal --step masked --code masked.py

# ---- Budgets that hold (issue 20) ----
# --time-limit holds inside one long op on an expand()ed view (no copy in the input, seconds of
# work in the op): each ran 3-20 s past a 0.5 s limit (MAP_POPULATE of the result, then kernels
# that never looked at the clock); now each stops within ~0.2 s (core/deadline.h DeadlineMeter).
budget_ops=(
  'expand-softmax-30000|y = torch.softmax(torch.randn(1, 30000).expand(30000, 30000), dim=1)'
  'expand-softmax-dim0|y = torch.softmax(x, dim=0)'
  'expand-log-softmax|y = torch.log_softmax(x, dim=0)'
  'expand-pow|y = x.pow(2.5) + x.t()'
  'expand-sum-dim0|y = torch.randn(1, 100000).expand(100000, 100000).sum(0)'   # 10^10 adds: a view sums without a copy
  'expand-var-dim0|y = x.var(0)'
  'expand-sort|y = x.sort(dim=1)'
  'expand-topk|y = x.topk(3000, dim=1)'
  'expand-cumsum|y = x.cumsum(0)'
  'expand-matmul|y = x @ x'
  'expand-cat|y = torch.cat([x, x, x, x]).sum(0)'
  'expand-amax|y = torch.randn(1, 100000).expand(100000, 100000).amax(0)'   # reads the view in place: 10^8 is under 0.5 s
  # prod, several-dim sums, norm and integer sums read the view in place (an int64 prod of 10^9 took 6.5 GB)
  'expand-prod|y = torch.randn(1, 100000).expand(100000, 100000).prod(0)'
  'expand-prod-long|y = torch.ones(1, dtype=torch.long).expand(10**9).prod()'
  'expand-sum-long|y = torch.ones(1, dtype=torch.long).expand(10**5, 10**4).sum(0)'
  'expand-sum-dims|y = torch.randn(1, 100000).expand(100000, 100000).sum((0, 1))'
  'expand-norm|y = torch.ones(1).expand(10**9).norm()'
  # these ran 5 s to minutes past the limit (review 25)
  'expand-nonzero|y = x.nonzero()'
  'expand-unique|y = x.unique()'
  'expand-equal|y = torch.equal(x, x)'
  'expand-tolist|y = x.tolist()'
  'expand-index|y = x[torch.arange(10000)]'
  'expand-index-select|y = x.index_select(1, torch.arange(10000))'
  # max/min/amax/amin/argmax of all elements or along a dim read the view in place (a copy of 10^10 floats)
  'expand-max-all|y = torch.randn(1, 100000).expand(100000, 100000).max()'
  'expand-max-dim|y = torch.randn(1, 100000).expand(100000, 100000).max(0)'
  'expand-amin-all|y = torch.randn(1, 100000).expand(100000, 100000).amin()'
  'expand-argmax-dim|y = torch.randn(1, 100000).expand(100000, 100000).argmax(1)'
  # the random ops drew on past the limit (multinomial(p, 10**9, True): 7 s CPU and growing to 8 GB;
  # these two take 2.5 and 5.4 s CPU in full; review 26): they look at the clock as they draw
  'randperm-huge|y = torch.randperm(5 * 10**7)'
  'multinomial-huge|y = torch.multinomial(torch.ones(10**4), 5 * 10**7, replacement=True)'
)
whole=$limit
# A Release attn stops at 0.5-0.8 s. What is held is CPU (2 s; 6 under ASan): under a loaded CI
# machine the wall time of the same run stretches past 2 s (page faults of the 800 MB a view's
# result maps, waiting for a core), so the wall-clock kill is only the backstop.
limit=$((asan ? 20 : 10)) cpu_limit=$((asan ? 6 : 2))
for case in "${budget_ops[@]}"; do
  lesson "$work/${case%%|*}.lesson" $'import torch\nx = torch.randn(1, 10000).expand(10000, 10000)\n'"${case#*|}"
  check "time-limit-${case%%|*}" 2 '' 'TimeoutError: the cell ran longer than its time limit of 0.5 seconds' -- "$attn" run --quiet --time-limit 0.5 "${case%%|*}.lesson"
done
# str.translate looks at the clock (it ran 30 s past a 2 s limit, 30x slower than CPython).
lesson "$work/translate-budget.lesson" 'x = ("ab" * (4 * 10**7)).translate({98: None})'
check time-limit-translate 2 '' 'TimeoutError: the cell ran longer than its time limit of 0.2 seconds' -- "$attn" run --quiet --time-limit 0.2 translate-budget.lesson
# pow(a, b, m) of 4,000-digit ints looks at the clock between its products (7 s past a 2 s limit, review 26).
lesson "$work/pow-mod-budget.lesson" 'print(pow(3, 10**4000, 10**4000 + 1) % 7)'
check time-limit-pow-mod 2 '' 'TimeoutError: the cell ran longer than its time limit of 0.2 seconds' -- "$attn" run --quiet --time-limit 0.2 pow-mod-budget.lesson
limit=$whole cpu_limit=''
# A str or bytes is iterated one item a step (review 28 #7: `for c in s: break` over 3*10^7 chars
# built a list of every char first, 4.3 GB); a list made from a str is held to the item limit.
vlimit=$((asan ? 0 : 700000)); [ "$vlimit" -gt 0 ] || vlimit=unlimited
lesson "$work/str-iter-lazy.lesson" $'s = "x" * 30_000_000\nfor c in s:\n    break\nb = s.encode()\nprint(c, next(iter(b)), any(v == 120 for v in bytearray(b)), next(enumerate(s)), "X" in map(str.upper, s))'
check str-iter-lazy 0 "x 120 True (0, 'x') True" '' -- bash -c "ulimit -v $vlimit && \"\$0\" run --quiet --time-limit 20 str-iter-lazy.lesson" "$attn"
# itertools.product yields its first tuple at once (review 28 #9: it built all 10^9 first, 13.7 GB).
lesson "$work/product-lazy.lesson" $'from itertools import product, islice\nprint(list(islice(product(range(10), repeat=9), 2)))'
check product-lazy 0 '[(0, 0, 0, 0, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 0, 0, 0, 1)]' '' -- bash -c "ulimit -v $vlimit && \"\$0\" run --quiet --time-limit 2 product-lazy.lesson" "$attn"
# Advanced indexing reads broadcast index tensors through their expanded views (review 29 #6: a
# (6000, 1) and a (1, 6000) index, 3.6*10^7 places, were materialised as int64 grids and an
# offset list, 855 MB; index_put_ of 20000 x 20000 peaked at 9.4 GB where PyTorch stays at its
# 244 MB baseline); in 450 MB of address space.
lesson "$work/index-broadcast-memory.lesson" $'import torch\nx = torch.zeros(3, 4)\nidx = torch.zeros(6000, dtype=torch.long)\nx.index_put_((idx[:, None], idx[None, :] + 1), torch.ones(()), accumulate=True)\nx[idx[:3000, None], 2] += 1\ny = x[idx[:3000, None], idx[None, :3000] + 1]\nprint(x[0, :3].tolist(), y.shape, y[2999, 2999].item())'
check index-broadcast-memory 0 '[0.0, 16777216.0, 1.0] torch.Size([3000, 3000]) 16777216.0' '' -- bash -c "ulimit -v ${vlimit/700000/450000} && exec \"\$0\" run --quiet index-broadcast-memory.lesson" "$attn"
lesson "$work/str-list-items.lesson" 'x = list("x" * 20_000_000)'
check str-list-items 2 '' 'MemoryError: a list made from a str of 20,000,000 items is more than attn.s limit of 10,000,000 items' -- "$attn" run --quiet str-list-items.lesson
# One print of 3*10^7 control characters (1.8*10^8 once escaped) as a JSON document, in 700 MB of
# address space: the document streams its long strings (lesson/json_run.cpp), where it used to
# hold several escaped copies (10^8 characters peaked at 4.8 GB). The walkthrough too. Under ASan
# (terabytes of shadow mappings) the address space is not limited.
vlimit=$((asan ? 0 : 700000)); [ "$vlimit" -gt 0 ] || vlimit=unlimited
lesson "$work/json-flood.lesson" 'print("\x01" * 30_000_000)'
check json-flood 0 '180001072' '' -- bash -c "ulimit -v $vlimit && set -o pipefail && \"\$0\" run --format json json-flood.lesson | wc -c" "$attn"
check text-flood 0 '30000368' '' -- bash -c "ulimit -v $vlimit && set -o pipefail && \"\$0\" run json-flood.lesson | wc -c" "$attn"
# A cell printing without end stops at 10^8 characters instead of holding gigabytes until its
# time limit (review 25: 765 MB after 15 s).
lesson "$work/print-cap.lesson" $'while True:\n    print("x" * 100000)'
check print-cap 2 '' 'MemoryError: the cell printed more than 100,000,000 characters' -- bash -c "\"\$0\" run --quiet print-cap.lesson > /dev/null" "$attn"

# sorted() sorts positions, not (key, value) pairs of Values, and permutes in place (issue 20:
# sorted(range(10**7)) took 3.5 GB, CPython 405 MB); in 450 MB of address space.
lesson "$work/sorted-memory.lesson" 'print(len(sorted(range(2 * 10**6))), sorted(range(2 * 10**6), reverse=True)[:2], sorted(range(10**5), key=lambda v: v % 7)[:3])'
check sorted-memory 0 '2000000 [1999999, 1999998] [0, 7, 14]' '' -- bash -c "ulimit -v ${vlimit/700000/450000} && exec \"\$0\" run --quiet sorted-memory.lesson" "$attn"

# A list of 4 million references to one list is its 4 million items, walked once when the session
# ends ([[]] * 10**7 peaked at 1.9 GB, 2.6 times the list: every reference was queued; issue 20).
lesson "$work/repeat-memory.lesson" $'x = [[]] * (4 * 10**6)\ny = [[], {}] * 10**6\ndel y\nprint(len(x))'
check repeat-memory 0 '4000000' '' -- bash -c "ulimit -v ${vlimit/700000/600000} && exec \"\$0\" run --quiet repeat-memory.lesson" "$attn"

# A chain of 10^5 live closures is linear (issue 20: 80,000 took 13 s: the list of captured scopes
# was swept on every call past 4096), and dropping a chain of them frees it without deep recursion
# (200,000: a function and its scope free what they hold through the trashcan; 120,000 crashed).
lesson "$work/closure-chain.lesson" $'f = lambda: 0\nfor i in range(100000):\n    f = (lambda g: (lambda: g))(f)\nprint(f()()())\ndef make(g):\n    def h():\n        return g\n    return h\nfor i in range(200000):\n    f = make(f)\nf = None\nprint("dropped")'
# Linear, not superlinear (80,000 took 13 s): 5 s of wall time in Release; under ASan 20, since a
# loaded machine ran it over 5 s of wall time with 2.4 s of CPU (review 29).
check closure-chain 0 $'<function <lambda>.<locals>.<lambda>>\ndropped' '' -- "$attn" run --quiet --time-limit $((asan ? 20 : 5)) closure-chain.lesson

# ---- Reference cycles (issue 20): the session's cycle collector (py/gc.h) frees them during the
# run, so LeakSanitizer (detect_leaks=1 in the sanitizer build) finds nothing, and memory stays
# bounded where each cycle holds a large tensor (in Release under a 3 GB address-space limit:
# 8 GB of tensors without the collector; PyTorch peaks at 1.7 GB).
py gc-self-list-dict 0 '2 2' '' $'for i in range(100000):\n    a = [i]\n    a.append(a)\n    d = {\'i\': i}\n    d[\'me\'] = d\nprint(len(a), len(d))'
py gc-instances 0 'True' '' $'class A:\n    pass\nfor i in range(50000):\n    x = A()\n    y = A()\n    x.other = y\n    y.other = x\nprint(x.other.other is x)'
py gc-module-self 0 'True' '' $'import torch.nn as nn\nfor i in range(2000):\n    m = nn.Linear(2, 2)\n    m.me = m\nprint(m.me is m)'
py gc-inner-recursive 0 '0' '' $'def f(n):\n    def g(k):\n        return k if k < 1 else g(k - 1)\n    return g(n)\ns = 0\nfor i in range(100000):\n    s += f(1)\nprint(s)'
py gc-exception-kept 0 '1999 ok' '' $'def fail(n):\n    raise KeyError([n])\nfor i in range(2000):\n    try:\n        fail(i)\n    except KeyError as e:\n        e.me = e\n        err = e\nprint(err.args[0][0], \'ok\')'
py gc-collect 0 $'1\n0\nTrue False True' '' $'import gc\na = [1]\na.append(a)\ndel a\nprint(gc.collect())\nb = [2]\nb.append(b)\nprint(gc.collect())\nx = gc.isenabled()\ngc.disable()\ny = gc.isenabled()\ngc.enable()\nprint(x, y, gc.isenabled())'
lesson "$work/gc-tensor-cycles.lesson" $'import torch\nclass Holder:\n    def __init__(self):\n        self.me = self\n        self.t = torch.ones(1000, 1000)\nfor i in range(2000):\n    h = Holder()\nprint(h.t.shape)'
if grep -q AddressSanitizer "$attn"; then   # ASan reserves terabytes of address space: no limit there
  # so the memory bound is the Release run's; here the same 2,000 cycles (collected as allocations
  # pile up) with tensors of 40 KB, not 4 MB: 10 s of the sanitizer pass's CPU was writing 8 GB.
  lesson "$work/gc-tensor-cycles.lesson" $'import torch\nclass Holder:\n    def __init__(self):\n        self.me = self\n        self.t = torch.ones(100, 100)\nfor i in range(2000):\n    h = Holder()\nprint(h.t.shape)'
  check gc-tensor-cycles 0 'torch.Size([100, 100])' '' -- "$attn" run --quiet gc-tensor-cycles.lesson
else
  check gc-tensor-cycles 0 'torch.Size([1000, 1000])' '' -- bash -c 'ulimit -v 3000000 && exec "$0" run --quiet gc-tensor-cycles.lesson' "$attn"
fi
# A collection is also due when tensors have grown by 256 MB (or by what was held after the last):
# 100 cycles of 16 MB each are 1.6 GB before 700 allocations would trigger one; under a 1 GB
# address-space limit they fit only if the cycles go as the bytes pile up (peak about 290 MB).
lesson "$work/gc-tensor-bytes.lesson" $'import torch\nclass Holder:\n    def __init__(self):\n        self.me = self\n        self.t = torch.ones(2000, 2000)\nfor i in range(100):\n    h = Holder()\nprint(h.t.shape)'
if grep -q AddressSanitizer "$attn"; then
  check gc-tensor-bytes 0 'torch.Size([2000, 2000])' '' -- "$attn" run --quiet gc-tensor-bytes.lesson
else
  check gc-tensor-bytes 0 'torch.Size([2000, 2000])' '' -- bash -c 'ulimit -v 1000000 && exec "$0" run --quiet gc-tensor-bytes.lesson' "$attn"
fi

# ---- Concurrent exports into one folder (issue 20): serialised by a lock on the folder, so the
# set is one run's (index.json's seed and every array agree), and a dead export's temporaries
# (a PID that no longer runs) are removed by the next export.
mkdir -p "$work/conc"
touch "$work/conc/.attn-999999999-1.tmp"
for s in 1 2 3 4 5 6; do (cd "$work" && "$attn" export causal --seed "$s" --npy conc --force >/dev/null 2>&1) & done
wait
count=$((count + 1))
seed=$(sed -n 's/.*"seed": *"\{0,1\}\([0-9]*\).*/\1/p' "$work/conc/index.json" | head -n 1)
(cd "$work" && "$attn" export causal --seed "${seed:-0}" --npy conc-ref >/dev/null 2>&1)
mixed=$(for f in "$work"/conc-ref/*.npy; do cmp -s "$f" "$work/conc/${f##*/}" || echo "${f##*/}"; done)
if [ -z "$seed" ] || [ -n "$mixed" ] || [ -e "$work/conc/.attn-999999999-1.tmp" ]; then
  failed=1; say "hostile: FAIL concurrent-exports: seed '$seed', arrays of another run: ${mixed:-none}, dead temporary left: $(ls -a "$work/conc" | grep -c '^\.attn-')"
else
  say "hostile: ok   concurrent-exports (6 at once: one run's set, seed $seed)"
fi

# ---- Runs, checks and exports at once in one folder (issue 20) ----
# Eight lessons finished at the same moment are all in the learner's progress (each records under
# a lock; without it 4 of 8 were lost); meanwhile checks of one answer and runs of one lesson in
# the same folder, next to an export into it, each give their own right result.
mkdir -p "$work/together/state"
(cd "$work" && "$attn" export causal --seed 3 --npy together/ref >/dev/null 2>&1)
pids=() outs=()
for n in causal softmax context scores embedding heads cross update; do
  (cd "$work/together" && XDG_STATE_HOME="$work/together/state" "$attn" lesson "$n" --quiet >/dev/null 2>"lesson-$n.err"; echo $? >"lesson-$n.rc") &
done
for k in 1 2 3 4; do
  (cd "$work/together" && "$attn" check causal --step tril --seed 3 --answer ref/tril__1__mask_simple.npy >"check-$k.out" 2>&1; echo $? >"check-$k.rc") &
  (cd "$work/together" && "$attn" run --quiet "$work/plain.lesson" >"run-$k.out" 2>&1; echo $? >"run-$k.rc") &
done
(cd "$work/together" && "$attn" export causal --seed 3 --npy ref --force >/dev/null 2>&1; echo $? >export.rc) &
wait
count=$((count + 1)) why=""
finished=$(grep -c '^finished ' "$work/together/state/attn/progress" 2>/dev/null)
[ "$finished" = 8 ] || why+=" progress has $finished of 8 lessons finished;"
for k in 1 2 3 4; do
  [ "$(cat "$work/together/check-$k.rc")" = 0 ] && grep -q '^PASS' "$work/together/check-$k.out" || why+=" check $k: $(head -c 200 "$work/together/check-$k.out");"
  [ "$(cat "$work/together/run-$k.rc")" = 0 ] && [ "$(cat "$work/together/run-$k.out")" = 2 ] || why+=" run $k: $(head -c 200 "$work/together/run-$k.out");"
done
for f in "$work"/together/lesson-*.rc "$work/together/export.rc"; do [ "$(cat "$f")" = 0 ] || why+=" ${f##*/} exit $(cat "$f");"; done
if [ -n "$why" ]; then failed=1; say "hostile: FAIL together:$why"
else say "hostile: ok   together (8 lessons, 4 checks, 4 runs and an export at once: all right, 8 of 8 in the progress)"; fi

# ---- Graphs and values of any depth (issue 20) ----
# A loss summed over 200,000 steps without .detach() is backpropagated and freed (PyTorch frees
# it; ~Node recursed 200,000 deep and crashed); `.grad_fn` of the end of a 100,000-op graph is
# one object (it built the whole graph's objects, recursively, and crashed); a chain of 100,000
# generators frees (each frame freed the next by recursion); a value nested past 1,000 levels
# raises a RecursionError the cell catches, as in CPython.
py graph-200k 0 'tensor(1.) freed' '' $'import torch\nw = torch.ones((), requires_grad=True)\ny = w\nfor i in range(200000):\n    y = y * 1.0\ny.backward()\ng = w.grad\ndel y\nprint(g, "freed")'
py grad-fn-100k 0 'SliceBackward0 True' '' $'import torch\nx = torch.ones(2, requires_grad=True)\nys = [x]\nfor i in range(100000):\n    ys.append(ys[-1][:])\nf = ys[-1].grad_fn\nprint(f.name(), f is ys[-1].grad_fn)'
py generators-100k 0 'freed [1, 2]' '' $'g = iter([1, 2])\nfor i in range(100000):\n    g = (v for v in g)\ndel g\ng = iter([1, 2])\nfor i in range(100):\n    g = (v for v in g)\nprint("freed", list(g))'
# hash() of a tuple nested 100,000 deep and copy.deepcopy of a list nested 30,000 deep are a
# RecursionError the cell catches (they overflowed the C++ stack); 200,000 nested frozensets free
# without recursion; list() of 200,000 chained map()s stops at the C++ stack's limit (CPython crashes).
py deep-hash-deepcopy 0 $'maximum recursion depth exceeded while hashing a tuple\nmaximum recursion depth exceeded while calling a Python object' '' $'a = ()\nfor i in range(100000):\n    a = (a,)\ntry:\n    hash(a)\nexcept RecursionError as e:\n    print(e)\nimport copy\nb = []\nfor i in range(30000):\n    b = [b]\ntry:\n    copy.deepcopy(b)\nexcept RecursionError as e:\n    print(e)'
py frozenset-chain-200k 0 'freed' '' $'c = frozenset()\nfor i in range(200000):\n    c = frozenset([c])\nc = None\nprint("freed")'
py map-chain-200k 2 'built' 'map-chain-200k\.lesson:16: RecursionError: maximum recursion depth exceeded' $'it = iter([1])\nfor i in range(200000):\n    it = map(lambda v: v, it)\nprint("built")\nprint(list(it))'
py object-new-bytes 2 '' 'object-new-bytes\.lesson:12: TypeError: object\.__new__\(bytes\) is not safe, use bytes\.__new__\(\)' 'print(repr(object.__new__(bytes)))'
py recursion-caught 0 'caught on' '' $'x = []\nfor i in range(5000):\n    x = [x]\ntry:\n    repr(x)\nexcept RecursionError:\n    print("caught", end=" ")\nprint("on")'
# A prose placeholder 140,000 levels deep (chains nested in 199 brackets): the read-only check walks
# it without recursion (it overflowed the stack, review 29); filling it is the bracket limit's error.
deep=1; for k in $(seq 199); do deep="($deep)$(rep +1 700)"; done
{ printf '# Deep\nname: deep\ngroup: concepts\norder: 1\nsource: x\n\nIntro.\n\n## a: A step\n\nValue {{%s}}.\n\n```python\nx = 1\n```\n' "$deep"; } >"$work/placeholder-deep.lesson"
check placeholder-deep 2 '' 'placeholder-deep\.lesson:11: SyntaxError: too many nested parentheses' -- "$attn" run --quiet placeholder-deep.lesson

# ---- Files a student hands in are never followed out, never quoted (issue 20) ----
# An answer or code file that is a symbolic link is refused (a student's link, graded in an
# instructor's loop, could point at any file the instructor can read), and the feedback quotes no
# word of a file that is not numbers. A helper module swapped between a file in the folder and a
# link out of it while attn imports it is never read from outside (opened once, checked on the
# descriptor): 40 runs against a swapping loop.
mkdir -p "$work/secret" "$work/student"
printf 'hunter2 topsecret\n' >"$work/secret/key.txt"
ln -s "$work/secret/key.txt" "$work/student/answer.csv"
ln -s "$work/secret/key.txt" "$work/student/code.py"
printf '0.1,0.2\n0.3,hunter2\n' >"$work/student/words.csv"
check answer-symlink 2 '*' 'answer\.csv: is a symbolic link' -- "$attn" check causal --step tril --answer student/answer.csv
check code-symlink 2 '*' 'code\.py: is a symbolic link' -- "$attn" check causal --step weights --code student/code.py
check answer-word-not-quoted 2 '*' '^attn: student/words\.csv:2: item 2 on this line is not a number' -- "$attn" check causal --step tril --answer student/words.csv
count=$((count + 1))
if grep -q hunter2 "$work/out" "$work/err"; then failed=1; say "hostile: FAIL answer-secret-quoted"; else say "hostile: ok   answer-secret-quoted (no word of the file in the feedback)"; fi
# The race: 50 helper modules, each a link swapped between a file in the folder and one outside
# (a Python loop of rename(2)s), imported by a lesson 100 times over: each run is 50
# check-then-open windows. Before the fix the outside file was read in 0 to 4 of 60 runs (4 trials).
mkdir -p "$work/race"
printf 'X = "inside"\n' >"$work/race/ok.py"
printf 'X = "hunter2"\n' >"$work/secret/h.py"
{ printf 'seen = []\n'; for k in $(seq 0 49); do printf 'try:\n    import h%d\n    seen.append(h%d.X)\nexcept ImportError:\n    seen.append(0)\n' "$k" "$k"; done
  printf 'print(len(seen))'; } >"$work/race/code.py"
lesson "$work/race/r.lesson" "$(cat "$work/race/code.py")"
python3 -c '
import os, sys, time
os.chdir(sys.argv[1]); end = time.time() + 60
while time.time() < end and not os.path.exists("stop"):
    for target in ("ok.py", sys.argv[2]):
        for k in range(50):
            os.symlink(target, "h.tmp"); os.replace("h.tmp", f"h{k}.py")
' "$work/race" "$work/secret/h.py" &
swapper=$!
count=$((count + 1)) leaked=0
for i in $(seq 100); do (cd "$work/race" && timeout -s KILL "$limit" "$attn" run --quiet r.lesson 2>&1) | grep -q hunter2 && leaked=$((leaked + 1)); done
touch "$work/race/stop"; wait "$swapper" 2>/dev/null
if [ "$leaked" -gt 0 ]; then failed=1; say "hostile: FAIL helper-swap-race: the outside file was read in $leaked of 100 runs"
else say "hostile: ok   helper-swap-race (100 runs of 50 imports against swapping links: never read outside)"; fi

# ---- A --sentence with control characters and bytes that are not UTF-8 (issue 20) ----
# The heatmap labels show them as \xNN, and the bidirectional controls U+202E and U+2066 as \u202e
# (review 30 #14): nothing of them reaches stdout raw, piped or not.
check sentence-controls 0 '*' '' -- "$attn" lesson causal --heatmap --sentence $'caf\xe9 au \e[31mlait \xc2\x9bx \xe2\x80\xaeeat \xe2\x81\xa6now'
count=$((count + 1))
if LC_ALL=C grep -aq $'\e\|\xc2\x9b\|\xe9\|\xe2\x80\xae\|\xe2\x81\xa6' "$work/out" || ! grep -qF '\u202eeat' "$work/out"; then
  failed=1; say "hostile: FAIL sentence-controls-raw: a control byte, a bidi control or a byte that is not UTF-8 reached stdout"
else say "hostile: ok   sentence-controls-raw (labels show \\x1b, \\x9b, \\xe9, \\u202e)"; fi

# A value filled into the prose ({{e}}) is shown with its controls escaped, as lesson text and
# messages are: ESC, BEL and U+202E reached stdout raw through a placeholder (review 27).
{ printf '# Placeholder\nname: ph\ngroup: concepts\norder: 1\nsource: review 27\n\nIntro.\n\n## a: A step\n\n'
  printf '```python\ne = chr(27) + "[31mRED"\nb = "\\u202e" + "abc"\n```\n\nValue {{e}} and {{b}} and {{chr(7)}}.\n'; } >"$work/placeholder-controls.lesson"
check placeholder-controls 0 '*' '' -- "$attn" run placeholder-controls.lesson
count=$((count + 1))
if LC_ALL=C grep -aq $'\e\|\a\|\xe2\x80\xae' "$work/out" || ! grep -qF 'Value \x1b[31mRED and \u202eabc and \x07.' "$work/out"; then
  failed=1; say "hostile: FAIL placeholder-controls-raw: a filled value's control reached stdout, or is not shown escaped"
else say "hostile: ok   placeholder-controls-raw (the prose shows \x1b, \u202e, \x07)"; fi

# ---- attn's internal modules are not the student's to import; its stdlib's errors name the student's line ----
py internal-stdlib 2 '' "internal-stdlib\.lesson:12: ModuleNotFoundError: No module named '_attn_stdlib'\$" 'import _attn_stdlib'
py internal-stdlib-from 2 '' "internal-stdlib-from\.lesson:12: ModuleNotFoundError: No module named '_attn_stdlib'\$" 'from _attn_stdlib import refusal'
py internal-re 2 '' "internal-re\.lesson:12: ModuleNotFoundError: No module named '_re'\$" 'import _re'
py internal-torch-extra 2 '' "internal-torch-extra\.lesson:13: ModuleNotFoundError: No module named 'torch\._attn_extra'\$" $'import torch\nimport torch._attn_extra'
py internal-torch-from 2 '' "internal-torch-from\.lesson:12: ImportError: cannot import name '_attn_functional' from 'torch\.nn'" 'from torch.nn import _attn_functional'
# review 28 #1: a pickle's GLOBAL reached _attn_stdlib, and its refusal() with a kind no class has was a
# SIGSEGV; the helpers were also attributes of the modules using them (os.refusal).
py internal-pickle-global 2 '' "internal-pickle-global\.lesson:13: ModuleNotFoundError: No module named '_attn_stdlib'\$" $'import pickle\npickle.loads(b"c_attn_stdlib\\nrefusal\\n.")'
# pickle protocol 0's INST and OBJ find their class as GLOBAL does: the same refusals
py internal-pickle-inst 2 '' "internal-pickle-inst\.lesson:13: ModuleNotFoundError: No module named '_attn_stdlib'\$" $'import pickle\npickle.loads(b"(i_attn_stdlib\\nrefusal\\n.")'
py internal-pickle-obj-system 2 '' "internal-pickle-obj-system\.lesson:13: PermissionError: attn runs lesson code without access to files or processes: os\.system is not available" $'import pickle\npickle.loads(b"(cos\\nsystem\\nS\'echo hi\'\\no.")'
py internal-module-attribute 2 '' "internal-module-attribute\.lesson:12: AttributeError: module 'os' has no attribute 'refusal'" 'import os; os.refusal("a", "b", "NoSuchKind")()'
py internal-refusal-kind 2 '' "internal-refusal-kind\.lesson:12: ValueError: _attn_stdlib\.refusal: no exception class NoSuchKind\$" 'import os; os._refusal("a", "b", "NoSuchKind")()'
py internal-torch-attr 2 '' "internal-torch-attr\.lesson:13: AttributeError: module 'torch' has no attribute '_attn_extra'" $'import torch\nprint(torch._attn_extra)'
py stdlib-frame 2 '' "stdlib-frame\.lesson:14: ValueError: Type names and field names must be valid identifiers: '1x'\$" $'from collections import namedtuple\n\nnamedtuple("P", "1x")'
py stdlib-frame-nested 2 '' "stdlib-frame-nested\.lesson:13: TypeError: " $'import argparse\ndef f(): argparse.ArgumentParser(prog=1, bad=2)\nf()'

# ---- Each promise its cases (tests/hostile/guarantees.txt) ----
# Every case that ran is named under a promise of docs/instructors.md, and every promise has cases.
promises=$(dirname "$0")/guarantees.txt
ran=$(sed -n 's/^hostile: \(ok  \|FAIL\) \([^ :]*\).*/\1 \2/p' "$work/log")
declare -A promise_of
while read -r word rest; do
  case "$word" in
    guarantee) current=${rest%%:*} ;;
    cases:) for pattern in $rest; do
              while read -r state name; do
                [ -n "$name" ] || continue
                [[ $name == $pattern ]] && promise_of[$name]="${promise_of[$name]:-} $current"
              done <<<"$ran"
            done ;;
  esac
done <"$promises"
while read -r state name; do
  [ -n "$name" ] || continue
  [ -n "${promise_of[$name]:-}" ] || { failed=1; echo "hostile: FAIL case '$name' is under no promise of $promises"; }
done <<<"$ran"
for g in $(sed -n 's/^guarantee \([a-z-]*\):.*/\1/p' "$promises"); do
  n=0 bad=0
  while read -r state name; do
    [ -n "$name" ] || continue
    [[ " ${promise_of[$name]:-} " == *" $g "* ]] || continue
    n=$((n + 1)); [ "$state" = ok ] || bad=$((bad + 1))
  done <<<"$ran"
  if [ "$n" -eq 0 ]; then failed=1; echo "hostile: FAIL promise '$g' has no case that ran"
  else printf 'hostile: promise %-10s %3d cases, %s\n' "$g" "$n" "$([ $bad -eq 0 ] && echo 'all as expected' || echo "$bad FAILED")"; fi
done

echo "hostile: $count cases, $([ $failed -eq 0 ] && echo 'all as expected' || echo 'SOME FAILED')"
exit $failed
