"""AutoGraph conversion in Python mode: converted code behaves exactly like the original when no
tensor decides control flow; to_code's form; converted_call's choices; errors pointing at user code."""
import functools
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import eagerflow as tf
from eagerflow.autograph._impl import api, conversion

ag = tf.autograph


def conv(f):
    return ag.to_graph(f)


# --- to_code ---------------------------------------------------------------------------------------

def calc(a, b, c):
    d = a * b + c
    e = a * b * c
    return d, e


CALC_CODE = """def tf__calc(a, b, c):
    with ag__.FunctionScope('calc', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        d = ((ag__.ld(a) * ag__.ld(b)) + ag__.ld(c))
        e = ((ag__.ld(a) * ag__.ld(b)) * ag__.ld(c))
        try:
            do_return = True
            retval_ = (ag__.ld(d), ag__.ld(e))
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
"""


def test_to_code_straight_line_matches_tf_form():
    assert ag.to_code(calc) == CALC_CODE
    assert ag.to_code(tf.function(calc).python_function) == CALC_CODE
    assert ag.to_code(tf.function(calc)) == CALC_CODE


def tanh_loop(x):
    while tf.reduce_sum(x) > 1:
        tf.print(x)
        x = tf.tanh(x)
    return x


def test_to_code_while_loop_form():
    code = ag.to_code(tanh_loop)
    assert code.startswith("def tf__tanh_loop(x):\n")
    for line in ["def get_state():", "return (x,)", "def set_state(vars_):", "nonlocal x", "(x,) = vars_",
                 "def loop_body():", "def loop_test():",
                 "x = ag__.converted_call(ag__.ld(tf).tanh, (ag__.ld(x),), None, fscope)",
                 "return ag__.converted_call(ag__.ld(tf).reduce_sum, (ag__.ld(x),), None, fscope) > 1",
                 "ag__.while_stmt(loop_test, loop_body, get_state, set_state, ('x',), {})"]:
        assert "\n" + " " * 4 in code and line in code, line
    assert "\n\n" not in code  # the guides' layout (A-04, F-24): no blank lines, TF 2.21 adds them


def if_else(x):
    if x > 0:
        y = x * 2
    else:
        y = -x
    return y


def test_to_code_if_stmt_form():
    code = ag.to_code(if_else)
    assert "y = ag__.Undefined('y')" in code
    assert "ag__.if_stmt(ag__.ld(x) > 0, if_body, else_body, get_state, set_state, ('y',), 1)" in code


def breaks(n):
    s = 0
    for i in range(n):
        if i > 3:
            break
        s += i
    return s


def test_to_code_break_lowering_form():
    code = ag.to_code(breaks)
    assert "break_ = False" in code and "return ag__.not_(break_)" in code
    assert "('s', 'break_'), {'iterate_names': 'i'})" in code
    assert "\n" + " " * 12 + "break\n" not in code and " break\n" not in code


def test_to_code_logical_and_ifexp_and_print():
    def g(a, b):
        c = a and b or not a
        d = 1 if a else 2
        print(c)
        return c, d
    code = ag.to_code(g)
    assert "ag__.or_(lambda: ag__.and_(lambda: ag__.ld(a), lambda: ag__.ld(b)), lambda: ag__.not_(ag__.ld(a)))" in code
    assert "ag__.if_exp(ag__.ld(a), lambda: 1, lambda: 2, 'a')" in code
    assert "ag__.ld(print)(ag__.ld(c))" in code


def test_to_code_nested_function_is_converted():
    def outer(x):
        def inner(y):
            return y + 1
        return inner(x)
    code = ag.to_code(outer)
    assert "@ag__.autograph_artifact" in code and "ag__.FunctionScope('inner', 'fscope_1', ag__.STD)" in code
    assert conv(outer)(1) == 2


def test_to_code_of_unconvertible_raises():
    with pytest.raises(Exception, match="converting"):
        ag.to_code(len)


# --- Python-mode semantics: converted == original ---------------------------------------------------

def branches(x):
    if x > 10:
        r = "big"
    elif x > 5:
        r = "mid"
    elif x == 5:
        return "five"
    else:
        r = "small"
        if x < 0:
            r = "neg"
    return r


def loops(n):
    total = 0
    i = 0
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        if i > 20:
            break
        total += i
    else:
        total -= 1000
    for j in range(n):
        if j == 7:
            break
        for k in range(j):
            if k == 2:
                continue
            if k > 4:
                break
            total += k * j
    else:
        total += 1
    return total


def returns_in_loops(xs):
    for x in xs:
        for y in xs:
            if x * y > 20:
                return x, y
        if x < 0:
            return "neg"
    while xs:
        xs = xs[1:]
        if len(xs) == 2:
            return "two left"
    return None


def logic(a, b):
    out = []
    if a and b:
        out.append(1)
    if a or b:
        out.append(2)
    if not a:
        out.append(3)
    v = a and b or "x"
    return out, v, (a if b else b), not (a or b)


def nested_fns(x):
    def helper(y, scale=2):
        if y > 3:
            return y * scale
        return y
    acc = [helper(i) for i in range(x)]
    return sum(acc), helper(x, scale=10), (lambda z: helper(z) + 1)(x)


def try_with(x):
    try:
        if x == 0:
            raise ValueError("zero")
        r = 10 // x
    except ValueError:
        return "caught"
    finally:
        pass
    return r


def star_args(*args, k=3, **kw):
    s = 0
    for a in args:
        s += a
    for key in sorted(kw):
        if kw[key] is None:
            continue
        s += kw[key] * k
    return s


@pytest.mark.parametrize("x", range(-3, 14))
def test_branches(x):
    assert conv(branches)(x) == branches(x)


@pytest.mark.parametrize("n", [0, 1, 3, 7, 10, 25])
def test_loops(n):
    assert conv(loops)(n) == loops(n)


@pytest.mark.parametrize("xs", [[], [1, 2, 3], [1, 5, 6], [-1, 2], [1, 1, 1, 1]])
def test_returns_in_loops(xs):
    assert conv(returns_in_loops)(list(xs)) == returns_in_loops(list(xs))


@pytest.mark.parametrize("a", [0, 1, "", "s", None])
@pytest.mark.parametrize("b", [0, 2, []])
def test_logic(a, b):
    assert conv(logic)(a, b) == logic(a, b)


def test_short_circuit_keeps_side_effects_lazy():
    calls = []

    def t(v):
        calls.append(v)
        return v

    def f():
        return (t(0) and t(1)), (t(2) or t(3)), (t(4) if t(5) else t(6))
    assert conv(f)() == (0, 2, 4)
    assert calls == [0, 2, 5, 4]


def test_nested_functions_and_try_and_star_args():
    for x in range(6):
        assert conv(nested_fns)(x) == nested_fns(x)
    for x in (0, 3, 20):
        assert conv(try_with)(x) == try_with(x)
    assert conv(star_args)(1, 2, 3, k=2, a=1, b=None) == star_args(1, 2, 3, k=2, a=1, b=None)


def test_closure_and_nonlocal_and_global():
    count = 0

    def bump(n):
        nonlocal count
        for _ in range(n):
            if count >= 0:
                count += 1
        return count
    assert conv(bump)(3) == 3 and count == 3
    count = 10  # the converted function reads the live closure cell
    assert conv(bump)(1) == 11


GLOBAL_COUNTER = 0


def global_bump(n):
    global GLOBAL_COUNTER
    for _ in range(n):
        if n > 0:
            GLOBAL_COUNTER += 1
    return GLOBAL_COUNTER


def test_global_statement():
    global GLOBAL_COUNTER
    GLOBAL_COUNTER = 0
    assert conv(global_bump)(4) == 4 and GLOBAL_COUNTER == 4


def test_methods_and_partial_and_recursion():
    class Acc:
        def __init__(self):
            self.v = 0

        def add(self, n):
            for i in range(n):
                if i % 2:
                    self.v += i
            return self.v

    def fact(n):
        if n <= 1:
            return 1
        return n * fact(n - 1)

    a = Acc()
    assert conv(a.add)(6) == 9
    assert conv(fact)(6) == 720
    p = functools.partial(star_args, 1, 2)
    assert api.converted_call(p, (3,), None) == 6


def test_undefined_variable_reads_raise_unbound_local_error():
    def f(x):
        if x > 0:
            y = 1
        return y
    assert conv(f)(1) == 1
    with pytest.raises(UnboundLocalError, match="'y'"):
        conv(f)(-1)


def test_python_assert():
    def f(x):
        assert x > 0, "x must be positive"
        return x
    assert conv(f)(1) == 1
    with pytest.raises(AssertionError, match="x must be positive"):
        conv(f)(-1)


def test_generator_iteration_and_for_else():
    def gen(n):
        yield from range(n)

    def f(n):
        s = 0
        for v in gen(n):
            if v == 4:
                break
            s += v
        else:
            s = -1
        return s
    for n in (0, 3, 10):
        assert conv(f)(n) == f(n)


def test_tuple_targets_and_enumerate_zip():
    def f(xs):
        s = 0
        for i, (a, b) in enumerate(zip(xs, xs[1:])):
            if a < b:
                s += i * a
        return s
    assert conv(f)([1, 3, 2, 5, 4]) == f([1, 3, 2, 5, 4])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-20, 20), max_size=8), st.integers(-5, 25))
def test_property_converted_equals_original(xs, n):
    assert conv(loops)(n) == loops(n)
    assert conv(branches)(n) == branches(n)
    assert conv(returns_in_loops)(list(xs)) == returns_in_loops(list(xs))


# --- converted_call --------------------------------------------------------------------------------

def test_converted_call_leaves_library_code_alone():
    assert not conversion.is_user_function(np.sum)
    assert not conversion.is_user_function(functools.reduce)
    assert not conversion.is_user_function(tf.autograph.to_code)
    assert not conversion.is_user_function(lambda: 1)
    assert conversion.is_user_function(loops)
    assert api.converted_call(len, ([1, 2],), None) == 2
    assert api.converted_call(max, (1, 5), {"key": None}) == 5
    assert api.converted_call(np.add, (1, 2), None) == 3
    assert api.converted_call(sorted, ([3, 1],), {"reverse": True}) == [3, 1]


def _stack_names():
    """Code names on the stack (this helper is user code, so converted code runs it converted too)."""
    f, out = sys._getframe(), []
    while f is not None:
        out.append(f.f_code.co_name)
        f = f.f_back
    return out


def test_user_functions_called_from_converted_code_are_converted():
    seen = []

    def who():
        seen.extend(_stack_names())

    def f():
        who()
    conv(f)()
    assert "tf__who" in seen and "who" not in seen


def test_do_not_convert():
    seen = []

    @tf.autograph.experimental.do_not_convert
    def who():
        seen.extend(_stack_names())

    def f():
        who()
    conv(f)()
    assert "who" in seen and "tf__who" not in seen
    assert tf.autograph.experimental.do_not_convert is api.do_not_convert


def test_conversion_is_cached():
    assert conversion.convert(loops) is conversion.convert(loops)
    f = tf.function(loops)
    f(3)
    assert f._traced_function() is f._traced_function()


# --- tf.function integration (Python control flow over Python values) ---------------------------------

def test_function_with_python_arguments_unrolls():
    @tf.function
    def f(x, n):
        for i in range(n):
            if i % 2 == 0:
                x = x + i
        return x
    assert f(tf.constant(1), 5).numpy() == 7
    assert f(tf.constant(1), 2).numpy() == 1


def test_autograph_false_does_not_convert():
    names = []

    @tf.function(autograph=False)
    def f(x):
        names.extend(_stack_names())
        return x
    f(tf.constant(1))
    assert "f" in names and "tf__f" not in names

    @tf.function
    def g(x):
        names.extend(_stack_names())
        return x
    g(tf.constant(1))
    assert "tf__g" in names


def test_trace_errors_point_at_user_code():
    @tf.function
    def f(x):
        y = x + 1
        raise ValueError("bad value %d" % 3)
    with pytest.raises(ValueError) as e:
        f(tf.constant(1))
    msg = str(e.value)
    assert msg.startswith("in user code:")
    assert __file__ in msg and "in f  *" in msg and 'raise ValueError("bad value %d" % 3)' in msg
    assert msg.rstrip().endswith("ValueError: bad value 3")


def test_recursion_becomes_staging_error():
    @tf.function
    def rec(n):
        return rec(n - 1)
    with pytest.raises(tf.autograph.StagingError) as e:
        rec(tf.constant(3))
    assert isinstance(e.value, RecursionError)
    assert "in user code:" in str(e.value) and "RecursionError" in str(e.value)


def test_methods_with_tf_function():
    class M(tf.Module):
        def __init__(self):
            self.v = tf.Variable(0)

        @tf.function
        def step(self, n):
            for _ in range(n):
                self.v.assign_add(1)
            return self.v.read_value()
    m = M()
    assert m.step(3).numpy() == 3


def test_to_code_break_flag_augassign_and_undefined_as_tf_2_21():
    # TF 2.21's form: `(break_,)` marks the flag used at the top of the for body, an augmented
    # assignment first reads its target (`s = ag__.ld(s)`) and keeps its value unconverted, and every
    # name the loop binds that is not yet defined is declared Undefined (continue_ too).
    code = ag.to_code(breaks)
    assert "            continue_ = False\n            (break_,)\n" in code
    assert "                s = ag__.ld(s)\n                s += i\n" in code
    assert "        continue_ = ag__.Undefined('continue_')\n" in code and "        i = ag__.Undefined('i')\n" in code
    assert tf.function(breaks)(tf.constant(10)).numpy() == 6
