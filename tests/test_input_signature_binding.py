"""Calls against a tf.function input_signature follow TF 2.21 (conversions, TypeError at creation for
uncovered parameters); an incompatible input raises one error that is both TF 2.21's TypeError and
the ValueError the TF guide's examples catch."""
import numpy as np
import pytest

import eagerflow as tf

INT_VECTOR = tf.TensorSpec(shape=[None], dtype=tf.int32)


def _f(spec=INT_VECTOR):
    return tf.function(lambda x: x * 2, input_signature=(spec,))


def test_incompatible_tensor_is_both_type_error_and_value_error():
    f = _f()
    for bad in (tf.constant([[1, 2], [3, 4]]), tf.constant([1.0, 2.0]), 3):
        with pytest.raises(TypeError) as e:
            f(bad)
        assert isinstance(e.value, ValueError)
        assert type(e.value).__name__ == "ValueError"  # what tracebacks (and the guide's checks) show
        assert str(e.value).startswith("Python inputs incompatible with input_signature:\n  inputs: (\n    ")
        assert str(e.value).endswith("  input_signature: (\n    TensorSpec(shape=(None,), dtype=tf.int32, name=None)).")


def test_values_convert_to_the_spec_dtype():
    f = _f()
    assert f([1, 2]).numpy().tolist() == [2, 4]
    assert f(np.array([1, 2])).dtype == tf.int32  # NumPy arrays are cast, as in TF
    assert f(np.array([1.0, 2.0])).numpy().tolist() == [2, 4]
    g = _f(tf.TensorSpec([None], tf.float32))
    r = g(np.array([1.0, 2.0]))
    assert r.dtype == tf.float32 and r.numpy().tolist() == [2.0, 4.0]
    assert g([1.5, 2.5]).numpy().tolist() == [3.0, 5.0]
    assert g(tf.Variable([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]


def test_values_that_do_not_convert_are_binding_errors():
    f = _f()
    sig = "for signature: (x: TensorSpec(shape=(None,), dtype=tf.int32, name=None))."
    cases = [([1.5, 2], "Cannot convert [1.5, 2] to EagerTensor of dtype int32"), ("a", "Cannot convert 'a' to EagerTensor"),
             (None, "Attempt to convert a value (None) with an unsupported type"),
             (tf.Variable([1.0, 2.0]), "Incompatible type conversion requested to type int32 for `tf.Variable of type "
                                       "float32.")]
    for value, reason in cases:
        with pytest.raises(TypeError) as e:
            f(value)
        assert isinstance(e.value, ValueError)
        text = str(e.value)
        assert text.startswith("Binding inputs to tf.function failed due to `" + reason) and text.endswith(sig), text


def test_structures_must_match_the_signature():
    f = tf.function(lambda pair: pair[0], input_signature=([tf.TensorSpec([None]), tf.TensorSpec([None])],))
    assert f([[1.0], [2.0]]).numpy().tolist() == [1.0]
    with pytest.raises(ValueError, match=r"Can not cast \(\[1\.0\], \[2\.0\]\) to list type\."):
        f(([1.0], [2.0]))  # TF tells a tuple from a list
    with pytest.raises(TypeError, match=r"Expected \[1\.0\] to have length of 2"):
        f([1.0])
    d = tf.function(lambda d: d["a"], input_signature=({"a": tf.TensorSpec([])},))
    assert d({"a": 1.0}).numpy() == 1.0
    with pytest.raises(TypeError, match=r"\{'b': 1\.0\} has different keys with the TraceType Dict\[\['a', "
                                        r"TensorSpec\(shape=\(\), dtype=tf\.float32, name=None\)\]\]\."):
        d({"b": 1.0})


def test_signature_must_cover_every_parameter_at_creation():
    def two(x, y):
        return x

    with pytest.raises(TypeError, match="^input_signature missing type constraint for y$"):
        tf.function(two, input_signature=(tf.TensorSpec([None]),))
    with pytest.raises(TypeError, match="^input_signature contains 1 extra type constraints.$"):
        tf.function(lambda x: x, input_signature=(tf.TensorSpec([None]), tf.TensorSpec([None])))

    def keyword_only(*, x):
        return x

    with pytest.raises(TypeError, match="keyword-only parameter `x` must have a default value"):
        tf.function(keyword_only, input_signature=(tf.TensorSpec([None]),))


def test_parameters_left_to_their_defaults_take_only_the_default():
    def k(x, y=2):
        return x + tf.cast(y, x.dtype)

    f = tf.function(k, input_signature=(tf.TensorSpec([None]),))
    assert f(tf.constant([1.0])).numpy().tolist() == [3.0]
    assert f(tf.constant([1.0]), 2).numpy().tolist() == [3.0]
    with pytest.raises(TypeError, match=r"Can not cast 3 to Literal\[2\]`\. .* for signature: \(x: TensorSpec\(shape="
                                        r"\(None,\), dtype=tf\.float32, name=None\), y: Literal\[2\] = "
                                        r"<captured_default_value>\)\."):
        f(tf.constant([1.0]), y=3)


def test_varargs_take_the_remaining_specs():
    f = tf.function(lambda *args: args[0], input_signature=(tf.TensorSpec([None]),))
    assert f(tf.constant([1.0])).numpy().tolist() == [1.0]
    with pytest.raises(TypeError, match=r"too many positional arguments`\. .* for signature: \(args_0: TensorSpec"):
        f(tf.constant([1.0]), tf.constant([2.0]))
