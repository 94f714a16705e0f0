"""Which traces of a tf.function may create tf.Variables (TF's rule; tf.Variable lifts them out of the graph).

A Function may create variables only while it is traced for the first time. If that trace created
some, the function is traced once more with creation forbidden (as TF does), and that second trace
is the one that runs: the guide's `Count` pattern (`if self.count is None: self.count =
tf.Variable(0)`) creates nothing the second time, while a function that makes a new variable on
every call raises TF's "singleton tf.Variables" ValueError.
"""
import sys
import weakref

from eagerflow.ops.variables import variable_creation_rule

SINGLETON_MESSAGE = ("tf.function only supports singleton tf.Variables created on the first call. Make sure the "
                     "tf.Variable is only created once or created outside tf.function. See "
                     "https://www.tensorflow.org/guide/function#creating_tfvariables for more information.")
NON_FIRST_CALL_MESSAGE = "Creating variables on a non-first call to a function decorated with tf.function."

# Function (or python function) -> True once it has been traced (weakly keyed: the cache does not keep it alive).
_traced = weakref.WeakKeyDictionary()
_CREATED = "created"  # _traced value of a Function whose first trace created variables
_traced_ids = {}  # fallback for callables that cannot be weakly referenced


class _State:
    __slots__ = ("allow", "created", "message")

    def __init__(self, allow, message):
        self.allow = allow
        self.created = 0
        self.message = message

    def on_variable_created(self):
        """Runs as tf.Variable.__init__ starts: raises if this trace may not create variables."""
        if not self.allow:
            raise ValueError(self.message)
        self.created += 1


def _was_traced(fn):
    try:
        return _traced.get(fn, False)
    except TypeError:
        return _traced_ids.get(id(fn), False)


def _mark_traced(fn, value):
    try:
        _traced[fn] = value
    except TypeError:
        _traced_ids[id(fn)] = value


def _owner(python_function):
    """The tf.function being traced (found on the caller's frames, only at trace time), so two
    tf.function(f) of the same f keep separate first-call state, as in TF; else the function."""
    frame = sys._getframe(2)
    for _ in range(6):
        if frame is None:
            break
        owner = frame.f_locals.get("self")
        if owner is not None and getattr(owner, "_python_function", None) is python_function:
            return owner
        frame = frame.f_back
    return python_function


def _run(trace_once, state, args):
    with variable_creation_rule(state.on_variable_created):
        return trace_once(*args)


def trace_with_policy(trace_once, python_function, *args):
    """Runs `trace_once(python_function, *args)` under the variable-creation rule of its Function."""
    owner = _owner(python_function)
    traced = _was_traced(owner)  # False, True, or _CREATED when the first trace made variables
    first = not traced
    # As TF: once the first trace has made variables, a later trace that makes one gets the
    # "singleton" message; when it made none, the "non-first call" one.
    state = _State(first, SINGLETON_MESSAGE if traced is _CREATED else NON_FIRST_CALL_MESSAGE)
    graph = _run(trace_once, state, (python_function,) + args)
    if first:
        _mark_traced(owner, _CREATED if state.created else True)
    if first and state.created:
        # The variables exist now; trace again, and this time creating one is an error.
        graph = _run(trace_once, _State(False, SINGLETON_MESSAGE), (python_function,) + args)
        graph.trace_passes = 2  # TF counts both traces in experimental_get_tracing_count()
    return graph

