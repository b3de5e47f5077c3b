#!/usr/bin/env bash
# tests/install/install_test.sh: the CTest test `install`: `cmake --install` into a temporary
# prefix, then the installed attn run with the build tree out of its reach.
#
#   tests/install/install_test.sh CMAKE BUILD_DIR SOURCE_DIR
#
# Checks: every file lands where Debian puts it (bin/, share/attn/lessons, the bash and zsh
# completion folders, share/man/man1, share/doc/attn); the prefix, moved elsewhere (so nothing
# can point back into the build tree) and run from an empty folder without ATTN_LESSON_DIR,
# prints a lesson and `attn verify` exactly as the build tree's attn does; it reads its own
# lessons (one deleted from the prefix is gone), ATTN_LESSON_DIR adds a folder beside them, and without them
# it names the folder they should be in; the man page renders without a groff warning; the bash
# completion loads. Prints what failed and exits 1 on the first failure.
# What it is not: a test of the .deb (.ci/run builds and inspects it).
set -euo pipefail
cmake=$1 build=$(cd "$2" && pwd) src=$(cd "$3" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "install test: $*" >&2; exit 1; }

"$cmake" --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" || { cat "$tmp/install.log"; fail "cmake --install failed"; }

for f in bin/attn share/attn/lessons/causal.lesson share/bash-completion/completions/attn \
         share/zsh/vendor-completions/_attn share/man/man1/attn.1 share/doc/attn/README.md \
         share/doc/attn/lessons/README.md share/doc/attn/docs/pytorch-numerics.md \
         share/doc/attn/docs/learners.md share/doc/attn/copyright share/doc/attn/LICENSE \
         share/doc/attn/THIRD-PARTY.md share/doc/attn/examples/my-lesson.lesson; do
  [ -f "$tmp/prefix/$f" ] || fail "no $f in the installed tree"
done
[ -x "$tmp/prefix/bin/attn" ] || fail "bin/attn is not executable"
n_src=$(ls "$src"/lessons/*.lesson | wc -l)
n_inst=$(ls "$tmp"/prefix/share/attn/lessons/*.lesson | wc -l)
[ "$n_src" -eq "$n_inst" ] || fail "$n_inst lessons installed, $n_src in lessons/"

# Out of the build tree's reach: another folder, an empty working directory, no ATTN_LESSON_DIR.
mv "$tmp/prefix" "$tmp/moved"
attn=$tmp/moved/bin/attn
mkdir "$tmp/cwd"
cd "$tmp/cwd"
unset ATTN_LESSON_DIR

"$attn" lesson causal >"$tmp/lesson.out" 2>"$tmp/lesson.err" || { cat "$tmp/lesson.err"; fail "the installed attn lesson causal failed"; }
"$build/attn" lesson causal >"$tmp/lesson.build.out"
cmp -s "$tmp/lesson.out" "$tmp/lesson.build.out" || fail "the installed attn lesson causal prints other text than the build tree's"
"$attn" verify >"$tmp/verify.out" 2>&1 || { tail "$tmp/verify.out"; fail "the installed attn verify failed"; }
"$build/attn" verify >"$tmp/verify.build.out" 2>&1 || true
cmp -s "$tmp/verify.out" "$tmp/verify.build.out" || fail "the installed attn verify prints other text than the build tree's"

# It reads the installed lessons, not the source tree's: a lesson removed from the prefix is gone.
rm "$tmp/moved/share/attn/lessons/causal.lesson"
"$attn" list >"$tmp/list.out"
grep -q '^ *causal ' "$tmp/list.out" && fail "attn list still shows causal after it was removed from the prefix"
grep -q '^ *causal-batch ' "$tmp/list.out" || fail "attn list does not show the installed causal-batch"
status=0
"$attn" lesson causal >/dev/null 2>"$tmp/err" || status=$?
[ "$status" -eq 2 ] || fail "attn lesson causal without causal.lesson exited $status, not 2"

# ATTN_LESSON_DIR adds its folder: the installed lessons stay (all but causal, removed above),
# and its softmax replaces theirs.
mkdir "$tmp/mine"
cp "$src/lessons/softmax.lesson" "$tmp/mine/"
ATTN_LESSON_DIR=$tmp/mine "$attn" list --format json >"$tmp/mine.json"
[ "$(grep -c '"name":' "$tmp/mine.json")" -eq "$((n_inst - 1))" ] && grep -q '"name": "softmax".*"added": true' "$tmp/mine.json" &&
  grep -q '"name": "causal-batch".*"added": false' "$tmp/mine.json" ||
  fail "with ATTN_LESSON_DIR=$tmp/mine, attn list does not show the installed lessons and its softmax: $(cat "$tmp/mine.json")"

# Without its lessons it says where they should be; it never falls back to the source tree.
rm -rf "$tmp/moved/share/attn/lessons"
status=0
"$attn" list >/dev/null 2>"$tmp/err" || status=$?
expected="attn: lesson directory '$tmp/moved/share/attn/lessons' does not exist (set ATTN_LESSON_DIR to the lessons/ folder)"
[ "$status" -eq 1 ] && [ "$(cat "$tmp/err")" = "$expected" ] ||
  fail "without installed lessons: exit $status, '$(cat "$tmp/err")'; expected exit 1, '$expected'"

# The man page: no groff warning, and it lists every subcommand of --help.
man1=$tmp/moved/share/man/man1/attn.1
if command -v groff >/dev/null && command -v preconv >/dev/null; then
  preconv "$man1" | groff -man -Tutf8 -ww -z 2>"$tmp/groff.err" || fail "groff cannot render attn.1"
  [ ! -s "$tmp/groff.err" ] || fail "groff warns about attn.1: $(cat "$tmp/groff.err")"
  preconv "$man1" | groff -man -Tutf8 -rLL=80n 2>/dev/null | sed 's/.\x08//g' >"$tmp/man.txt"
  for sub in $("$attn" --help | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 { print $1 }'); do
    grep -q "^   $sub\$" "$tmp/man.txt" || fail "the man page has no section for attn $sub"
  done
else
  echo "install test: groff is not installed; the man page's rendering is not checked"
fi

# The bash completion loads and registers attn.
bash -c "source '$tmp/moved/share/bash-completion/completions/attn' && complete -p attn" >/dev/null ||
  fail "the installed bash completion does not load"
echo "install test: ok ($n_inst lessons; lesson, verify, list, ATTN_LESSON_DIR and the man page checked)"
