#!/usr/bin/env bash
# tests/lab/lab.sh: the teaching lab of docs/instructors.md ("A lab: every student their own
# seed"), run end to end by CTest.
#
# The lab's commands are not copied here: the two `sh` blocks of that section are taken out of
# docs/instructors.md and run as they are, with the real binary as `attn` on PATH, so the page
# cannot drift from what works. Between them, four made-up students do the work from their
# handouts with NumPy: alice right, bob without the mask, carol with a mask that hides the
# diagonal too (her last row is NaN), dave with a file that is not a .npy array. Then the lab
# must show what the page says: the gradebook block exactly, each feedback block's lines (but
# "...") in order, a non-empty text and JSON feedback for every student, and handouts that hold
# no tensor equal to the graded one.
#
# Usage: tests/lab/lab.sh [ATTN] [PYTHON]   (defaults: attn on PATH, ${PYTHON:-python3})
# Exit 0: the lab ran and graded as expected; 1: it did not; 77: skipped (no NumPy, outside CI).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
page="$here/../../docs/instructors.md"
section="## A lab: every student their own seed"
attn_bin=$(command -v "${1:-attn}") || { echo "lab: FAIL: cannot find '${1:-attn}'" >&2; exit 1; }
python=${2:-${PYTHON:-python3}}

fail() { echo "lab: FAIL: $*" >&2; exit 1; }
"$attn_bin" --version >/dev/null || fail "cannot run '$attn_bin'"
if ! "$python" -c 'import numpy' 2>/dev/null; then
  if [[ ${CI:-} == true ]]; then
    fail "$python has no NumPy, and CI must run the lab (tools/install-deps.sh installs python3-numpy)"
  fi
  echo "lab: SKIPPED: $python has no NumPy (apt-get install python3-numpy)"
  exit 77
fi

# The n-th fenced block (from 1) of that section of the page, without its fences.
block() {
  awk -v want="$1" -v section="$section" '
    /^```/ { if (in_section) { if (fence) { fence = 0; next } fence = 1; ++n; next } }
    !fence && /^## / { in_section = ($0 == section) ; next }
    in_section && fence && n == want { print }
  ' "$page"
}
[[ $(block 1) == *"attn export causal"* ]] || fail "docs/instructors.md has no '$section' section with the handout commands"

lab=$(mktemp -d)
trap 'rm -rf "$lab"' EXIT
mkdir "$lab/bin"
ln -s "$attn_bin" "$lab/bin/attn"
export PATH="$lab/bin:$PATH"
cd "$lab"

# ---- 1. the class and their handouts: block 1 ----
printf 'alice 7\nbob 42\ncarol 3\ndave 11\n' > roster.txt
block 1 > handouts.sh
bash -euo pipefail handouts.sh

# ---- 2. the students' work, from their handouts (made up here with NumPy) ----
mkdir answers
while read -r student seed; do
  "$python" -c '
import numpy, sys
student, handout, answer = sys.argv[1:]
scores = numpy.load(handout).astype(numpy.float64) / 2 ** 0.5
n = scores.shape[0]
if student in ("alice", "dave"):   # the future filled with -inf
    scores[numpy.triu(numpy.ones((n, n), bool), k=1)] = -numpy.inf
if student == "carol":             # torch.tril(...).bool() filled with -inf: the diagonal and the past hidden
    scores[numpy.tril(numpy.ones((n, n), bool))] = -numpy.inf
with numpy.errstate(invalid="ignore"):   # carol: a row of only -inf gives 0/0
    e = numpy.exp(scores - scores.max(axis=1, keepdims=True))
    weights = (e / e.sum(axis=1, keepdims=True)).astype(numpy.float32)
if student == "dave":              # torch.save writes a zip archive; so does numpy.savez
    with open(answer, "wb") as f:
        numpy.savez(f, weights)
else:
    numpy.save(answer, weights)
' "$student" "handout/$student/scores__1__attn_scores.npy" "answers/$student.npy"
done < roster.txt

# ---- 3. grading: block 2 ----
block 2 > grading.sh
bash -euo pipefail grading.sh 2> grading.err
echo "--- gradebook.csv:"
cat gradebook.csv

# ---- 4. what the lab must have shown ----
diff <(block 3) gradebook.csv || fail "gradebook.csv is not the one docs/instructors.md shows"
# Each feedback block of the page, but its "..." lines, appears in that student's file in order.
for pair in 4:bob 5:carol 6:dave; do
  student=${pair#*:}
  "$python" -c '
import sys
want = [l for l in open(sys.argv[1]).read().splitlines() if l.strip() != "..."]
got = open(sys.argv[2]).read().splitlines()
k = 0
for line in got:
    if k < len(want) and line == want[k]:
        k += 1
sys.exit(0 if k == len(want) else "a line of the page not in the feedback, in order: %r" % want[k])
' <(block "${pair%%:*}") "graded/$student/feedback.txt" || fail "graded/$student/feedback.txt is not what docs/instructors.md shows"
done
# Every student has feedback, as text and as one JSON object, whatever went wrong.
while read -r student seed; do
  [[ -s graded/$student/feedback.txt ]] || fail "graded/$student/feedback.txt is empty"
  [[ -s graded/$student/feedback.json ]] || fail "graded/$student/feedback.json is empty"
  "$python" -c '
import json, sys
doc = json.loads(open(sys.argv[1]).read())
assert doc["lesson"] == "causal" and doc["step"] == "softmax-masked", doc
assert doc["options"]["seed"] == int(sys.argv[2]), doc["options"]
assert doc["pass"] == (sys.argv[3] == "alice"), doc["pass"]
assert ("error" in doc) == (sys.argv[3] == "dave"), doc
' "graded/$student/feedback.json" "$seed" "$student" || fail "graded/$student/feedback.json"
done < roster.txt
grep -q '"kind": "mask_missing"' graded/bob/feedback.json || fail "bob's JSON should have the mask_missing hint"
grep -q '"kind": "mask_diagonal"' graded/carol/feedback.json || fail "carol's JSON should have the mask_diagonal hint"
grep -q '"n_nan": 6' graded/carol/feedback.json || fail "carol's JSON should count her 6 NaN"
grep -q '^attn: answers/dave.npy: is a zip archive' grading.err || fail "dave's file should be an error on stderr"
! grep -v '^attn: answers/dave.npy: ' grading.err || fail "only dave's file should be an error on stderr"
# The handouts hold the scores and the notebook, never the graded weights; the key does.
while read -r student seed; do
  [[ $(ls "handout/$student") == $'causal.ipynb\nindex.json\nscores__1__attn_scores.npy' ]] || fail "handout/$student holds other files"
  "$python" -c '
import glob, json, numpy, sys
handout, key, lesson = sys.argv[1:]
graded = numpy.load(key + "/softmax-masked__1__attn_weights.npy")
for f in glob.glob(handout + "/*.npy"):
    a = numpy.load(f)
    assert a.shape != graded.shape or not numpy.allclose(a, graded, atol=1e-4), f
notebook = json.load(open(handout + "/causal.ipynb"))
code = "".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code")
assert "masked_fill" not in code and "# your code here: compute attn_weights (step \x27softmax-masked\x27)" in code
# the key and the lesson JSON hold the same float32 numbers
doc = json.load(open(lesson))
step = next(s for s in doc["steps"] if s["id"] == "softmax-masked")
value = [v for c in step["cells"] for v in c["values"] if v["type"] == "Tensor"][-1]
assert numpy.array_equal(numpy.array(value["value"], numpy.float32), graded), "JSON and key differ"
' "handout/$student" "graded/$student/key" <(attn lesson causal --seed "$seed" --format json) || fail "handout/$student or its key"
done < roster.txt
echo "lab: ok"
