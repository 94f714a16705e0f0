"""ConcreteFunction.inference_fn: TF 2.21's AtomicFunction of a trace (values and printed forms TF
gave)."""
import re

import pytest

import eagerflow as tf


@pytest.fixture
def cf():
    @tf.function
    def f(x, y=2):
        return {"a": x * y + 1.0, "b": x}
    return f.get_concrete_function(tf.TensorSpec([2], tf.float32))


SPEC = "TensorSpec(shape=(2,), dtype=tf.float32, name=None)"


def test_identity(cf):
    inf = cf.inference_fn
    assert type(inf).__name__ == "AtomicFunction"
    assert isinstance(inf.name, bytes) and re.fullmatch(rb"__inference_f_\d+", inf.name)
    assert inf.name == cf.inference_fn.name
    assert inf.graph is cf.graph
    assert inf.cached_definition.signature.name == inf.name.decode()
    assert [a.name for a in inf.definition.signature.output_arg] == ["identity", "identity_1"]


def test_printed_forms(cf):
    inf = cf.inference_fn
    out = f"Dict[['a', {SPEC}], ['b', {SPEC}]]"
    assert str(inf.function_type) == f"(x: {SPEC}, y: Literal[2]) -> {out}"
    assert str(inf) == f"<AtomicFunction> {inf.name.decode()}(x: {SPEC}, y: Literal[2]) -> {out}"
    assert repr(inf).startswith(f"AtomicFunction(name={inf.name!r},\n")


def test_call_binds_the_function_type(cf):
    inf = cf.inference_fn
    r = inf(tf.constant([1., 2.]), 2)
    assert sorted(r) == ["a", "b"]
    assert r["a"].numpy().tolist() == [3., 5.] and r["b"].numpy().tolist() == [1., 2.]
    with pytest.raises(TypeError, match="missing a required argument: 'y'"):
        inf(tf.constant([1., 2.]))
    with pytest.raises(TypeError) as e:
        inf(tf.constant([1, 2]), 2)
    assert str(e.value) == ("Can not cast TensorSpec(shape=(2,), dtype=tf.int32, name=None) to "
                            f"{SPEC}")


def test_call_flat(cf):
    inf = cf.inference_fn
    r = inf.call_flat(tf.constant([1., 2.]))
    assert isinstance(r, list) and [t.numpy().tolist() for t in r] == [[3., 5.], [1., 2.]]
    with pytest.raises(ValueError) as e:
        inf.call_flat()
    assert str(e.value).startswith('Signature specifies 1 arguments, got: 0. Expected inputs: [name: "x"\n'
                                   'type: DT_FLOAT\n]. Received inputs: (). Function Type: Input Parameters:\n'
                                   f"  x (POSITIONAL_OR_KEYWORD): {SPEC}\n")
