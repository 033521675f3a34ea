"""Schemathesis hooks for the contract check (test/contract/fuzz.ts loads this file through
SCHEMATHESIS_HOOKS).

One workaround, no hook: CPython 3.11 before 3.11.8 (Debian's 3.11.2 among them) can raise
"SystemError: AST constructor recursion depth mismatch" when two threads run ``ast.parse`` at
once (CPython gh-106905). Hypothesis parses source files to describe the lambdas of its filtered
strategies, and with ``workers = 2`` the two workers can do so together: the run then ends with a
"Runtime Error" that says nothing about the API. Parsing one thread at a time avoids it; it costs
nothing measurable (Hypothesis caches each parse).
"""

import ast
import threading

_parse = ast.parse
_one_at_a_time = threading.Lock()


def _serialized_parse(*args, **kwargs):
    with _one_at_a_time:
        return _parse(*args, **kwargs)


ast.parse = _serialized_parse
