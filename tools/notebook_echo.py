"""tools/notebook_echo.py: what a notebook cell displays, for the tools that make expected
outputs (make_golden.py, tutorial_to_lesson.py): Jupyter displays the repr of a cell's last
statement when it is an expression, unless that is None or the cell's last token (past comments
and line ends) is `;` (IPython's DisplayHook.quiet). attn's run_cell follows the same rule
(src/py/interpreter.cpp).

What it is not: a notebook runner; the callers exec the cells and print what this returns.
"""
import ast
import io
import tokenize


def ends_with_semicolon(code):
    """Whether the cell's last token, past comments and line ends, is `;`."""
    skip = (tokenize.ENDMARKER, tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT)
    for tok in reversed(list(tokenize.generate_tokens(io.StringIO(code).readline))):
        if tok.type not in skip:
            return tok.type == tokenize.OP and tok.string == ";"
    return False


def split_echo(code, echo=True, filename="<unknown>"):
    """(tree to exec, the last expression to display or None) of a cell."""
    tree = ast.parse(code, filename)
    if echo and tree.body and isinstance(tree.body[-1], ast.Expr) and not ends_with_semicolon(code):
        return tree, tree.body.pop()
    return tree, None
