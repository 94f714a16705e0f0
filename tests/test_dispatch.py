"""framework/dispatch.py: TF's fallback dispatch on public functions (Keras's use of it is tested in
test_keras_tf_op_layers.py)."""
import inspect

import pytest

import eagerflow as tf
from eagerflow.framework import dispatch


class Marker:
    pass


@pytest.fixture
def marker_dispatcher():
    calls = []
    dispatch.add_fallback_dispatcher(lambda args, kwargs: any(isinstance(a, Marker) for a in args),
                                     lambda fn, name, args, kwargs: calls.append((name, args, kwargs)) or "handled")
    yield calls
    dispatch._DISPATCHERS.pop()


def test_a_registered_dispatcher_gets_the_failed_call(marker_dispatcher):
    m = Marker()
    assert tf.nn.relu(m) == "handled" and marker_dispatcher == [("nn.relu", (m,), {})]  # as the call was written
    assert tf.nn.relu(m, "r") == "handled" and marker_dispatcher[-1] == ("nn.relu", (m, "r"), {})
    assert tf.reshape(m, (2, 2)) == "handled" and marker_dispatcher[-1][0] == "reshape"


def test_a_call_no_dispatcher_claims_raises_its_own_error(marker_dispatcher):
    with pytest.raises(ValueError, match="Attempt to convert a value"):
        tf.nn.relu(object())
    assert marker_dispatcher == []


def test_wrappers_keep_the_signature_defaults_and_argument_errors():
    def f(a, b=2, /, c=3, *rest, d, e=5, **kw):
        return a, b, c, rest, d, e, kw

    w = dispatch.add_fallback_support(f, "f")
    assert w(1, d=4) == (1, 2, 3, (), 4, 5, {})
    assert w(1, 9, 8, 7, 6, d=4, e=0, z=1) == (1, 9, 8, (7, 6), 4, 0, {"z": 1})
    assert str(inspect.signature(w)) == "(a, b=2, /, c=3, *rest, d, e=5, **kw)"
    assert w.__name__ == "f" and w.__wrapped__ is f and w._tf_api_name == "f"
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'a'"):
        w()
    builtin = dispatch.add_fallback_support(len, "len")  # no Python signature: the generic wrapper
    assert builtin([1, 2]) == 2
