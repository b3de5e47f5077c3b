#!/usr/bin/env python3
"""tests/docs/run_docs.py: every ```sh block of README.md, docs/*.md and lessons/README.md, run as
it is written.

What it is: the CTest test `docs`. Each page's sh blocks run in order, in bash, in a fresh
temporary folder holding build/attn (the binary under test; `attn` is on PATH too) and links to
the repository's examples/, fuzz/, lessons/, tests/ and tools/, with HOME a folder of its own,
XDG_STATE_HOME inside it (so `attn`, `attn next`, `attn progress` and `attn watch` keep their
progress there, never in the real home) and stdin /dev/null. A command that exits non-zero fails the test with the page's FILE:LINE, unless
its line ends in `# exit N` and it exits N (a page showing a failing check on purpose).
A block right after the line `<!-- not run by tests/docs: REASON -->` is skipped and listed with
its reason (only builds, installs, benchmarks and PyTorch-only commands may be:
docs/development.md says which), but for its `./build/attn ...` commands (the parts between
`&&`), which still run: the README's first command ends in one.
ATTN_DOCS_QUICK=1 (the sanitizer build) also skips the commands that run every lesson of the
course (`attn verify` without a lesson name), and says how many.
It also checks every relative link of those pages: the file exists and, for `FILE#anchor`, a
heading of FILE has that anchor (GitHub's rule: lowercase, punctuation dropped, spaces to -).
What it is not: a check of what the commands print (tests/lab/lab.sh and the CLI tests do that),
or a runner of ```text blocks or of commands quoted inline.

Usage: run_docs.py ATTN_BINARY REPO_ROOT      exit 0: all ran as shown; 1: one did not.
       run_docs.py --self-test                 the runner on made-up pages (CTest `docs_runner`)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP_MARK = re.compile(r"^<!-- not run by tests/docs: (.+) -->$")
EXIT_MARK = re.compile(r"^(.*?)\s*#\s*exit\s+(\d+)\s*$")
FENCE = re.compile(r"^(`{3,}|~{3,})\s*([^`\s]*)")
LINKED = ("examples", "fuzz", "lessons", "tests", "tools")
BLOCK_SECONDS = 300
# Runs every lesson of the course: minutes under the sanitizers.
WHOLE_COURSE = re.compile(r"attn verify\s*($|[;&|#>])")


def pages(root):
    docs = os.path.join(root, "docs")
    names = sorted(n for n in os.listdir(docs) if n.endswith(".md"))
    extra = [p for p in [os.path.join(root, "lessons", "README.md")] if os.path.exists(p)]
    return [os.path.join(root, "README.md")] + [os.path.join(docs, n) for n in names] + extra


def sh_blocks(path):
    """(first line number of the block's body, [lines], skip reason or None) for each sh block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    blocks, fence, info, body, start, reason, prev = [], None, "", [], 0, None, ""
    for number, line in enumerate(lines, 1):
        if fence is None:
            m = FENCE.match(line)
            if m:
                fence, info, body, start = m.group(1), m.group(2), [], number + 1
                mark = SKIP_MARK.match(prev.strip())
                reason = mark.group(1) if mark else None
            elif line.strip():
                prev = line
            continue
        if line.strip() == fence[0] * len(line.strip()) and len(line.strip()) >= len(fence):
            if info == "sh":
                blocks.append((start, body, reason))
            fence, prev = None, ""
            continue
        body.append(line)
    if fence is not None:
        sys.exit(f"docs: {path}:{start - 1}: a code block is not closed")
    return blocks


def script(body, quick, skipped):
    """The block as a bash script whose failures name their line (LINENO minus the prelude)."""
    out = ['trap \'echo "__docs_fail__ $LINENO $?" > "$__DOCS_REPORT"; exit 1\' ERR; set -E', "__docs_expect() {",
           '  [ "$1" -eq "$2" ] || { echo "__docs_fail__ $3 $1 (the page says exit $2)" > "$__DOCS_REPORT"; exit 1; }', "}"]
    prelude = len(out)
    for i, line in enumerate(body):
        if quick and WHOLE_COURSE.search(line) and not line.lstrip().startswith("#"):
            skipped.append(line)
            out.append(":")
            continue
        m = EXIT_MARK.match(line)
        if m and not line.lstrip().startswith("#"):
            line = f"if {m.group(1)}; then __rc=0; else __rc=$?; fi; __docs_expect $__rc {m.group(2)} {i + 1 + prelude}"
        out.append(line)
    return "\n".join(out) + "\n", prelude


LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(path):
    out, fence = set(), False
    for line in open(path, encoding="utf-8"):
        if FENCE.match(line):
            fence = not fence
        elif not fence and line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            out.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return out


def broken_links(path, root):
    """FILE:LINE: target for each relative link of the page that leads nowhere."""
    out, fence = [], False
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        if FENCE.match(line):
            fence = not fence
            continue
        for target in ([] if fence else LINK.findall(line)):
            if re.match(r"[a-z]+:", target):
                continue
            file, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
            if not os.path.exists(dest):
                out.append(f"{os.path.relpath(path, root)}:{number}: no file {target}")
            elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                out.append(f"{os.path.relpath(path, root)}:{number}: no heading #{anchor} in {file or 'this page'}")
    return out


def sandbox(attn, root):
    work = tempfile.mkdtemp(prefix="attn-docs-")
    for d in ("build", "bin", "home"):
        os.mkdir(os.path.join(work, d))
    os.symlink(attn, os.path.join(work, "build", "attn"))
    os.symlink(attn, os.path.join(work, "bin", "attn"))
    for d in LINKED:
        os.symlink(os.path.join(root, d), os.path.join(work, d))
    env = {k: v for k, v in os.environ.items() if k not in ("ATTN_LESSON_DIR", "XDG_STATE_HOME")}
    env.update(HOME=os.path.join(work, "home"), XDG_STATE_HOME=os.path.join(work, "home", ".local", "state"),
               PATH=os.path.join(work, "bin") + ":" + env.get("PATH", "/usr/bin:/bin"))
    return work, env


def run_block(path, start, body, work, env, quick, skipped):
    text, prelude = script(body, quick, skipped)
    report_file = os.path.join(work, "home", ".docs-report")
    open(report_file, "w").close()
    try:
        p = subprocess.run(["bash", "-c", text], cwd=work, env=dict(env, __DOCS_REPORT=report_file),
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=BLOCK_SECONDS)
    except subprocess.TimeoutExpired:
        return f"{path}:{start}: the block did not finish within {BLOCK_SECONDS} s"
    report = open(report_file, errors="replace").read()
    if p.returncode == 0 and not report:
        return None
    tail = "\n".join(p.stdout.decode(errors="replace").splitlines()[-15:])
    m = re.search(r"__docs_fail__ (\d+) (.*)", report)
    if not m:
        return f"{path}:{start}: the block exited {p.returncode}\n{tail}"
    index = int(m.group(1)) - prelude - 1
    line = body[index] if 0 <= index < len(body) else "?"
    return f"{path}:{start + index}: exit {m.group(2)}: {line.strip()}\n{tail}"


ATTN_COMMAND = re.compile(r"^\./build/attn(\s|$)")


def attn_commands(body):
    """A skipped block's lines with only their `./build/attn ...` parts (between &&) left, the rest
    blank (line numbers kept): building is .ci/run's job, but what the page runs with attn is ours."""
    out = []
    for line in body:
        parts = [p.strip() for p in line.split("#")[0].split("&&")]
        out.append(" && ".join(p for p in parts if ATTN_COMMAND.match(p)))
    return out


def check_pages(attn, root, quick):
    """(failures, blocks run, skipped blocks, skipped lines) for the pages under root."""
    failures, ran, skipped_blocks, skipped_lines = [], 0, [], []
    for path in pages(root):
        rel = os.path.relpath(path, root)
        failures += broken_links(path, root)
        blocks = sh_blocks(path)
        work, env = sandbox(attn, root)
        try:
            for start, body, reason in blocks:
                if reason:
                    skipped_blocks.append(f"{rel}:{start}: {reason}")
                    body = attn_commands(body)   # its attn commands still run
                    if not any(body):
                        continue
                ran += 1
                error = run_block(rel, start, body, work, env, quick, skipped_lines)
                if error:
                    failures.append(error)
                    break   # the page's later blocks may need what this one made
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return failures, ran, skipped_blocks, skipped_lines


SELF_TEST = {   # page text -> the failure it must report ("" for none)
    "```sh\ntrue\nfalse   # a comment\ntrue\n```\n": "docs/t.md:3: exit 1: false   # a comment",
    "```sh\nfalse  # exit 1\ntrue # exit 0\n```\n": "",
    "```sh\ntrue  # exit 2\n```\n": "docs/t.md:2: exit 0 (the page says exit 2): true  # exit 2",
    "```sh\nfor i in 1 2; do\n  [ $i = 1 ]\ndone\n```\n": "docs/t.md:3: exit 1:",
    "<!-- not run by tests/docs: a test -->\n```sh\nfalse\n```\n```text\nfalse\n```\n": "",
    "```sh\ntouch made\n```\n\n```sh\ntest -f made && test -x build/attn && attn\n```\n": "",
    "```sh\nattn verify\n```\n": "QUICK",
    "<!-- not run by tests/docs: builds -->\n```sh\ncmake -B b && make && ./build/attn next\n```\n": "docs/t.md:3: exit 1: ./build/attn next",
    "[a](#nowhere) [b](t.md#a-b-c)\n\n## A b: `c`\n": "docs/t.md:1: no heading #nowhere in this page",
    "```sh\ntest \"$XDG_STATE_HOME\" = \"$HOME/.local/state\"\n```\n": "",
}


def self_test():
    failed = 0
    for page, want in SELF_TEST.items():
        root = tempfile.mkdtemp(prefix="attn-docs-self-")
        try:
            os.mkdir(os.path.join(root, "docs"))
            open(os.path.join(root, "README.md"), "w").write("# R\n")
            open(os.path.join(root, "docs", "t.md"), "w").write(page)
            quick = want == "QUICK"
            attn = "/bin/false" if quick or "./build/attn" in want else "/bin/true"
            failures, _, _, lines = check_pages(attn, root, quick)
            got = failures[0].split("\n")[0] if failures else ""
            ok = (lines == ["attn verify"] and not failures) if quick else got.startswith(want) and bool(want) == bool(got)
            if not ok:
                failed += 1
                print(f"docs_runner: FAIL: {page!r}: got {got!r}, want {want!r}", file=sys.stderr)
        finally:
            shutil.rmtree(root, ignore_errors=True)
    print(f"docs_runner: {len(SELF_TEST) - failed} of {len(SELF_TEST)} cases as expected")
    return 1 if failed else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-2].strip())
    attn, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    quick = os.environ.get("ATTN_DOCS_QUICK") == "1"
    failures, ran, skipped_blocks, skipped_lines = check_pages(attn, root, quick)
    for s in skipped_blocks:
        print(f"docs: not run: {s}")
    if skipped_lines:
        print(f"docs: ATTN_DOCS_QUICK=1: {len(skipped_lines)} commands that run the whole course not run")
    for f in failures:
        print(f"docs: FAIL: {f}", file=sys.stderr)
    print(f"docs: {ran} blocks run, {len(skipped_blocks)} not run, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
