/**
 * PYTHON_DRIVER is the Python code the sandbox worker runs once after the interpreter starts, before
 * the memory snapshot that later interpreters start from (see worker.ts); each interpreter then calls
 * `_seal()` before user code.
 * It defines `_sandbox_run(code, max_chars)`, which runs user code in a fresh namespace with
 * stdout captured (bounded to max_chars), and returns a JSON string
 * {ok, stdout, result, error, fatal}: result is the repr of the last expression (or null), error
 * the last line of the traceback, fatal true when the interpreter must end (MemoryError: its heap
 * has grown to the cap). It imports the modules calculations use most (_PRELOADED) while the
 * interpreter is still a spare. It also blocks the modules that lead out of the interpreter
 * (js, pyodide_js, pyodide, ctypes, ...): the JS side of the worker is locked down as well,
 * so this is the first of two walls, not the only one.
 */
export const PYTHON_DRIVER = String.raw`
import ast as _ast
import builtins as _builtins
import json as _json
import sys as _sys
import traceback as _traceback

_BLOCKED_ROOTS = frozenset({
    "js", "pyodide_js", "pyodide", "_pyodide", "_pyodide_core", "micropip",
    "pyodide_http", "ctypes", "_ctypes", "emscripten",
})


_PRELOADED = (
    "math", "statistics", "decimal", "fractions", "datetime", "re", "collections", "itertools",
    "functools", "calendar", "string", "random",
)


class _SandboxImportBlocker:
    """Refuses imports of the modules that reach JavaScript or native code."""

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in _BLOCKED_ROOTS:
            raise ImportError(f"module '{name}' is not available in the sandbox")
        return None


def _lock_imports():
    for name in list(_sys.modules):
        if name.split(".")[0] in _BLOCKED_ROOTS:
            del _sys.modules[name]
    _sys.meta_path.insert(0, _SandboxImportBlocker())


class _BoundedWriter:
    """A text stream that keeps the first max_chars characters and counts the rest."""

    def __init__(self, max_chars):
        self.max_chars = max_chars
        self.parts = []
        self.size = 0
        self.dropped = 0

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        room = self.max_chars - self.size
        if room > 0:
            kept = text[:room]
            self.parts.append(kept)
            self.size += len(kept)
            self.dropped += len(text) - len(kept)
        else:
            self.dropped += len(text)
        return len(text)

    def flush(self):
        pass

    def isatty(self):
        return False

    def text(self):
        return _truncate("".join(self.parts), self.max_chars, self.dropped)


def _truncate(text, max_chars, dropped=0):
    """Cuts text to at most max_chars characters, ending with a marker when anything was cut."""
    total_cut = dropped + max(0, len(text) - max_chars)
    if total_cut == 0:
        return text
    marker = f"\n...[truncated: {total_cut} more characters]"
    keep = max(0, max_chars - len(marker))
    return (text[:keep] + marker)[:max_chars]


def _last_error_line(exc):
    lines = _traceback.format_exception_only(type(exc), exc)
    return lines[-1].strip() if lines else type(exc).__name__


def _execute(code, namespace):
    """Runs code; returns the value of a final expression statement, or None when there is none."""
    tree = _ast.parse(code, "<compute>", "exec")
    last = tree.body[-1] if tree.body else None
    if isinstance(last, _ast.Expr):
        body = _ast.Module(body=tree.body[:-1], type_ignores=[])
        exec(compile(body, "<compute>", "exec"), namespace)
        return True, eval(compile(_ast.Expression(last.value), "<compute>", "eval"), namespace)
    exec(compile(tree, "<compute>", "exec"), namespace)
    return False, None


def _sandbox_run(code, max_chars):
    out = _BoundedWriter(max_chars)
    err = _BoundedWriter(max_chars)
    saved = (_sys.stdout, _sys.stderr)
    _sys.stdout, _sys.stderr = out, err
    namespace = {"__name__": "__main__", "__builtins__": _builtins}
    ok, result, error, fatal = True, None, None, False
    try:
        has_value, value = _execute(code, namespace)
        if has_value and value is not None:
            result = _truncate(repr(value), max_chars)
    except KeyboardInterrupt:
        ok, error = False, "interrupted"
    except MemoryError as exc:
        # The heap has grown to its cap: the interpreter is ended (fatal) so that memory is freed now.
        ok, error, fatal = False, _last_error_line(exc), True
    except SystemExit as exc:
        ok, error = False, f"SystemExit: {exc.code}"
    except BaseException as exc:
        ok, error = False, _last_error_line(exc)
    finally:
        _sys.stdout, _sys.stderr = saved
    del namespace
    return _json.dumps({"ok": ok, "stdout": out.text(), "result": result, "error": error, "fatal": fatal})


def _preload():
    """Imports the modules calculations use most while the interpreter is a spare, so a session's first run does not pay for them."""
    for name in _PRELOADED:
        __import__(name)


def _seal():
    """Readies an interpreter restored from the snapshot for user code: blocks the imports that lead out, and reseeds random (the snapshot holds one generator state for every interpreter)."""
    _lock_imports()
    import random
    random.seed()


_preload()
`;
