"""Which traces of a tf.function may create tf.Variables (TF's rule), and lifting them out of the graph.

A Function may create variables only while it is traced for the first time. If that trace created
some, the function is traced once more with creation forbidden (as TF does), and that second trace
is the one that runs: the guide's `Count` pattern (`if self.count is None: self.count =
tf.Variable(0)`) creates nothing the second time, while a function that makes a new variable on
every call raises TF's "singleton tf.Variables" ValueError.
"""
import sys
import threading
import weakref

SINGLETON_MESSAGE = ("tf.function only supports singleton tf.Variables created on the first call. Make sure the "
                     "tf.Variable is only created once or created outside tf.function. See "
                     "https://www.tensorflow.org/guide/function#creating_tfvariables for more information.")
NON_FIRST_CALL_MESSAGE = "Creating variables on a non-first call to a function decorated with tf.function."

_local = threading.local()
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


def _stack():
    s = getattr(_local, "stack", None)
    if s is None:
        s = _local.stack = []
    return s


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
    _stack().append(state)
    try:
        return trace_once(*args)
    finally:
        _stack().pop()


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


def on_variable_created():
    """Called by tf.Variable.__init__: raises if the Function being traced may not create variables."""
    s = _stack()
    if not s:
        return
    state = s[-1]
    if not state.allow:
        raise ValueError(state.message)
    state.created += 1


def lift_initial_value(value):
    """An eager tensor for a variable's initial value computed while tracing (TF's init_scope lifting).

    A symbolic value that depends on no function input is evaluated now by running its part of the
    graph; one that depends on an input cannot be lifted.
    """
    from eagerflow import _core
    from eagerflow.framework.tensor import Tensor
    if not isinstance(value, Tensor) or not value._is_symbolic:
        return value
    try:
        captures = value._graph.captures()  # eager tensors the value reads: fed as they are
        plan = _core.Plan(value._graph, [ph for _, ph in captures], [value], [])
        return plan.run([t for t, _ in captures])[0]
    except Exception as e:
        raise ValueError(f"The initial value of a tf.Variable created inside a tf.function must not depend on "
                         f"the function's inputs: {value!r} ({e})") from None
