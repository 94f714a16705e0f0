"""The forked worker: runs snippets one by one, announcing each on the pipe before it starts.

The parent learns of a crash or hang from an announced call that never reports its outcome.
Outcomes: 'ok', or the exception's class name with whether TF's classes allow it.
"""
import faulthandler
import json
import linecache
import os
import re
import resource
import signal
import sys
import time
import traceback
import warnings


def allowed_classes(tf):
    """What TF raises for bad input (checked against TF 2.21 for the grammar's values)."""
    return (tf.errors.OpError, TypeError, ValueError, IndexError, NotImplementedError)


# Other classes only where TF 2.21 raises the same class for the same call, by design:
# (target label, class, message) patterns.
TF_ALSO_RAISES = [
    # graph-only members used eagerly (Tensor.op, .name, .value_index; Variable.initial_value, .create)
    (r".*", (AttributeError, RuntimeError), r"(is undefined|is not supported|is meaningless) when eager execution is enabled"),
    (r"tf\.(VariableAggregation|VariableSynchronization|UnconnectedGradients|random\.Algorithm)", AttributeError,
     r"__mro__"),  # enum's functional API
    (r"(Tensor|Variable):int", (OverflowError, ValueError), r"cannot convert float"),  # int() of inf / nan
    (r"TensorShape\.with_rank\w*", OverflowError, r"index-sized integer"),  # a rank beyond sys.maxsize
    (r"TensorShape\.with_rank\w*", MemoryError, r""),  # a rank of 2**31: TF builds the list of dims too
    (r"tf\.(foldl|foldr|scan)", AttributeError, r"has no attribute '__name__'"),  # names a non-callable fn
    (r"tf\.range", AssertionError, r""),  # TF asserts on argument dtypes it cannot range over
    (r"tf\.device", RuntimeError, r"tf.device does not support functions"),  # a callable device name
    (r"Tensor\.numpy", AttributeError, r"'SymbolicTensor' object has no attribute 'numpy'"),  # in a tf.function
    (r"[A-Z_]\w*", OverflowError, r"int too big to convert"),  # a raw op's int attr beyond int64, eagerly
    (r"tf\.random\.Generator", AttributeError, r"has no attribute 'state'"),  # a non-state first argument
    (r"tf\.nn\.bias_add", AttributeError, r"has no attribute 'startswith'"),  # a data_format that is not a str
    (r"tf\.(linalg\.)?einsum", AttributeError, r"has no attribute 'replace'"),  # an equation that is not a str
    (r"tf\.random\.Generator", AssertionError, r""),  # TF asserts that state and alg come together
    # Python ints into integer dtypes: graph constants beyond [-2**63, 2**64) (make_tensor_proto);
    # uint64 beyond [0, 2**64): the OverflowError of TF's op fast path, or the SystemError its
    # converter raises for that error left set.
    (r".*", OverflowError, r"Python int too large to convert to C long|can't convert negative int to unsigned|"
                           r"int too big to convert"),
    (r".*", SystemError, r"EagerTensor'> returned a result with an exception set"),
]


def allowed(exc, classes, label):
    if isinstance(exc, classes):
        return True
    return any(isinstance(exc, cls) and re.fullmatch(pattern, label) and re.search(words, str(exc))
               for pattern, cls, words in TF_ALSO_RAISES)


def _where(exc, lib):
    """Where it was raised: the innermost library frame below the snippet's last frame (or the
    innermost frame there, e.g. in the standard library); '<call>' when the snippet's own line
    raised (a C++ function or a builtin called directly)."""
    frames = traceback.extract_tb(exc.__traceback__)
    last = max([k for k, f in enumerate(frames) if f.filename.startswith("<fuzz")] or [-1])
    below = frames[last + 1:]
    if not below:
        return "<call>"
    inside = [f for f in below if f"/{lib}/" in f.filename]
    f = (inside or below)[-1]
    return f"{f.filename.split(f'/{lib}/', 1)[-1]}:{f.lineno} {f.name}"


def outcome(exc, classes, lib, label):
    if exc is None:
        return {"o": "ok"}
    root = exc
    while root.__cause__ is not None or (root.__context__ is not None and not root.__suppress_context__):
        root = root.__cause__ or root.__context__
    rec = {"o": type(exc).__name__, "allowed": allowed(exc, classes, label)}
    if not rec["allowed"]:
        rec.update(msg=str(exc)[:400], where=_where(exc, lib), root=type(root).__name__, root_where=_where(root, lib),
                   tb="".join(traceback.format_exception(type(exc), exc, exc.__traceback__))[-3000:])
    return rec


def limit_memory(extra_bytes):
    """Caps the address space (release builds): impossible allocations fail fast instead of
    paging for seconds. ASan needs its shadow mapping; its cap is ASAN_OPTIONS' max_allocation_size_mb."""
    with open("/proc/self/statm") as f:
        used = int(f.read().split()[0]) * resource.getpagesize()
    resource.setrlimit(resource.RLIMIT_AS, (used + extra_bytes, resource.getrlimit(resource.RLIMIT_AS)[1]))


def run(out_fd, err_path, snippets, lib, sanitized):
    """Runs the calls [(index, target label, snippet)]; never returns."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600), 2)
    faulthandler.enable(all_threads=True)
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    warnings.simplefilter("ignore")
    if not sanitized:
        limit_memory(1 << 30)
    tf = sys.modules["tensorflow" if lib == "tensorflow" else "eagerflow"]
    classes = allowed_classes(tf)
    out = os.fdopen(out_fd, "w", buffering=1)
    for index, label, snippet in snippets:
        os.write(2, f"\n@@fuzz call {index}\n".encode())  # where this call's stderr begins
        out.write(f"S {index}\n")
        out.flush()
        exc = None
        filename = f"<fuzz call {index}>"
        linecache.cache[filename] = (len(snippet), None, snippet.splitlines(True), filename)  # AutoGraph reads the source
        t0 = time.perf_counter()
        try:
            exec(compile(snippet, filename, "exec"), {"__name__": "__fuzz__"})
        except KeyboardInterrupt:
            raise
        except BaseException as e:  # noqa: BLE001 - every class (SystemExit too) is an outcome to classify
            exc = e
        rec = outcome(exc, classes, lib, label)
        rec.update(i=index, t=round(time.perf_counter() - t0, 5))
        exc = None  # the call's objects die here, before its outcome is sent (a crash in a destructor is its crash)
        del linecache.cache[filename]
        out.write("E " + json.dumps(rec) + "\n")
        out.flush()
    out.close()
    os._exit(0)
