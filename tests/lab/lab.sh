#!/usr/bin/env bash
# tests/lab/lab.sh: the teaching lab of README.md ("For instructors"), run end to end by CTest
# with two made-up students: alice hands in the right answer, bob forgot the causal mask.
#
# The lab: every student gets their own seed, so answers cannot be copied. From their handout
# (the `causal` lesson's tensors for their seed, as .npy files) they compute the causally masked
# attention weights, in PyTorch or NumPy, and hand in answers/NAME.npy. The grading loop records
# each student's answer key as JSON, compares with NumPy, and runs `attn check` for pass/fail
# and hints.
#
# Usage: tests/lab/lab.sh [ATTN] [PYTHON]     (defaults: attn and python3 on PATH)
# Exit 0: the lab ran and graded as expected; 1: it did not; 77: skipped (no NumPy, outside CI).
set -euo pipefail
attn=${1:-attn}
python=${2:-python3}

"$attn" --version >/dev/null || { echo "lab: FAIL: cannot run '$attn'" >&2; exit 1; }
if ! "$python" -c 'import numpy' 2>/dev/null; then
  if [[ ${CI:-} == true ]]; then
    echo "lab: FAIL: $python has no NumPy, and CI must run the lab (tools/install-deps.sh installs python3-numpy)" >&2
    exit 1
  fi
  echo "lab: SKIPPED: $python has no NumPy (apt-get install python3-numpy)"
  exit 77
fi

lab=$(mktemp -d)
trap 'rm -rf "$lab"' EXIT
cd "$lab"

# ---- 1. the class: one seed per student, and their handouts ----
printf 'alice 7\nbob 42\n' > roster.txt
while read -r student seed; do
  "$attn" export causal --seed "$seed" --npy "handout/$student" >/dev/null
done < roster.txt

# ---- 2. the students' work (made up here, with NumPy, from their handout) ----
# alice: scores / sqrt(d_k), the future filled with -inf, softmax over each row
# bob:   the same without the mask
mkdir answers
while read -r student seed; do
  "$python" -c '
import numpy, sys
scores = numpy.load(sys.argv[1]).astype(numpy.float64) / 2 ** 0.5
if sys.argv[3] == "alice":
    scores[numpy.triu(numpy.ones(scores.shape, bool), k=1)] = -numpy.inf
e = numpy.exp(scores - scores.max(axis=1, keepdims=True))
numpy.save(sys.argv[2], (e / e.sum(axis=1, keepdims=True)).astype(numpy.float32))
' "handout/$student/scores__1__attn_scores.npy" "answers/$student.npy" "$student"
done < roster.txt

# ---- 3. grading ----
mkdir graded
echo "student,seed,max_abs_diff,attn_check" > graded/gradebook.csv
while read -r student seed; do
  mkdir -p "graded/$student"
  # the answer key: what the lesson's code prints for this student's seed, as .npy and as JSON
  "$attn" export causal --seed "$seed" --npy "graded/$student/key" >/dev/null
  key="graded/$student/key/softmax-masked__1__attn_weights.npy"
  "$attn" lesson causal --seed "$seed" --format json > "graded/$student/lesson.json"
    # the JSON and the .npy file hold the same float32 numbers
    "$python" -c '
import json, numpy, sys
doc = json.load(open(sys.argv[1]))
step = next(s for s in doc["steps"] if s["id"] == "softmax-masked")
value = [v for c in step["cells"] for v in c["values"] if v["type"] == "Tensor"][-1]
assert numpy.array_equal(numpy.array(value["value"], numpy.float32), numpy.load(sys.argv[2])), "JSON and .npy differ"
' "graded/$student/lesson.json" "$key"
  # NumPy: how far the answer is from the key
  diff=$("$python" -c 'import numpy, sys; print("%.2g" % abs(numpy.load(sys.argv[1]) - numpy.load(sys.argv[2])).max())' \
         "answers/$student.npy" "$key")
  # attn check: pass (exit 0) or fail (exit 1) with hints; 2 would be a bad file or option
  status=0
  "$attn" check causal --step softmax-masked --seed "$seed" --answer "answers/$student.npy" \
    > "graded/$student/feedback.txt" || status=$?
  case $status in
    0) verdict=pass ;;
    1) verdict=fail ;;
    *) echo "lab: attn check could not grade $student (exit $status):" >&2; cat "graded/$student/feedback.txt" >&2; exit 1 ;;
  esac
  echo "$student,$seed,$diff,$verdict" >> graded/gradebook.csv
done < roster.txt
cat graded/gradebook.csv

# ---- 4. what the lab must have shown ----
fail() { echo "lab: FAIL: $*" >&2; exit 1; }
grep -q '^alice,7,' graded/gradebook.csv || fail "alice was not graded"
"$python" -c 'import csv, sys; rows = {r["student"]: float(r["max_abs_diff"]) for r in csv.DictReader(open(sys.argv[1]))}
sys.exit(not (rows["alice"] < 1e-5 and rows["bob"] > 0.1))' graded/gradebook.csv \
  || fail "NumPy should find alice within 1e-5 of the key and bob far off"
grep -q '^alice,7,.*,pass$' graded/gradebook.csv || fail "attn check should pass alice"
grep -q '^bob,42,.*,fail$' graded/gradebook.csv || fail "attn check should fail bob"
grep -q 'mask' graded/bob/feedback.txt || fail "bob's feedback should mention the mask"
echo "--- bob's feedback:"
cat graded/bob/feedback.txt
echo "lab: ok"
