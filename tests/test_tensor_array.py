"""tf.TensorArray and the TensorList ops: eager semantics, tf.function graphs, graph While loops."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core
from eagerflow.ops._execute import execute1


def np_eq(t, expected, dtype=None):
    a = t.numpy()
    np.testing.assert_array_equal(a, np.asarray(expected, dtype=dtype or a.dtype))
    if dtype is not None:
        assert a.dtype == np.dtype(dtype)


# ---- eager ----

def test_eager_write_read_stack():
    ta = tf.TensorArray(tf.float32, size=3)
    assert ta.dtype == tf.float32 and ta.dynamic_size is False
    assert ta.element_shape == tf.TensorShape(None)
    np_eq(ta.size(), 3, np.int32)
    ta = ta.write(0, 1.0).write(2, 3.0)
    assert ta.element_shape == tf.TensorShape([])
    np_eq(ta.read(0), 1.0, np.float32)
    np_eq(ta.read(1), 0.0, np.float32)  # unwritten: zeros of the element shape
    np_eq(ta.stack(), [0.0, 0.0, 3.0], np.float32)  # index 0 was cleared by its read (TF eager)


def test_eager_write_shares_state_like_tf():
    ta = tf.TensorArray(tf.float32, size=2, clear_after_read=False)
    ta2 = ta.write(0, 5.0)
    assert ta2 is not ta
    np_eq(ta.read(0), 5.0)  # TF eager: the old object sees the write too
    ta.write(1, 6.0)  # result ignored: still written
    np_eq(ta2.stack(), [5.0, 6.0])


def test_eager_python_value_converted_to_dtype():
    ta = tf.TensorArray(tf.float32, size=2).write(0, 1).write(1, np.float64(2.5))
    np_eq(ta.stack(), [1.0, 2.5], np.float32)


@pytest.mark.parametrize("dtype,vals", [(tf.int32, [1, 2, 3]), (tf.int64, [1, -2, 3]), (tf.float64, [0.5, 1.5, -2.0]),
                                        (tf.bool, [True, False, True]), (tf.uint8, [0, 255, 7]),
                                        (tf.float16, [0.5, 1.0, 2.0]), (tf.complex64, [1 + 2j, 0j, -1j])])
def test_dtypes_roundtrip(dtype, vals):
    ta = tf.TensorArray(dtype, size=0, dynamic_size=True)
    for i, v in enumerate(vals):
        ta = ta.write(i, tf.constant(v, dtype=dtype))
    np_eq(ta.stack(), np.array(vals, dtype=dtype.as_numpy_dtype))
    np_eq(ta.gather([2, 0]), np.array([vals[2], vals[0]], dtype=dtype.as_numpy_dtype))


def test_strings():
    ta = tf.TensorArray(tf.string, size=2, clear_after_read=False).write(0, "ab").write(1, b"c")
    np_eq(ta.stack(), np.array([b"ab", b"c"], dtype=object))
    assert ta.read(0).numpy() == b"ab"
    assert tf.TensorArray(tf.string, size=2, element_shape=[]).stack().numpy().tolist() == [b"", b""]


def test_dynamic_size_grows():
    ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for i in range(5):
        ta = ta.write(i, i * i)
    np_eq(ta.stack(), [0, 1, 4, 9, 16], np.int32)
    np_eq(ta.size(), 5)
    ta = tf.TensorArray(tf.float32, size=2, dynamic_size=True).write(5, [1.0])
    np_eq(ta.stack(), [[0.0]] * 5 + [[1.0]])


def test_multi_dim_elements_and_element_shape():
    ta = tf.TensorArray(tf.float32, size=2, element_shape=[2])
    np_eq(ta.stack(), np.zeros([2, 2], np.float32))
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    ta = tf.TensorArray(tf.float32, size=3, clear_after_read=False).write(1, x)
    assert ta.element_shape == tf.TensorShape([2, 3])
    np_eq(ta.stack(), np.stack([np.zeros_like(x), x, np.zeros_like(x)]))
    np_eq(ta.read(0), np.zeros_like(x))


def test_unstack_scatter_split_concat_gather():
    v = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)
    ta = tf.TensorArray(tf.float32, size=3, clear_after_read=False).unstack(v)
    np_eq(ta.stack(), v)
    np_eq(ta.concat(), v.reshape(-1))
    np_eq(ta.gather([2, 0]), v[[2, 0]])
    np_eq(ta.read(1), v[1])
    s = tf.TensorArray(tf.float32, size=4, clear_after_read=False).scatter([0, 2], v[:2])
    np_eq(s.stack(), [[1, 2], [0, 0], [3, 4], [0, 0]])
    sp = tf.TensorArray(tf.float32, size=2, clear_after_read=False).split([1.0, 2.0, 3.0], [1, 2])
    np_eq(sp.read(0), [1.0])
    np_eq(sp.read(1), [2.0, 3.0])
    np_eq(sp.concat(), [1.0, 2.0, 3.0])
    np_eq(sp.size(), 2)


def test_empty_stack_eager():
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    out = ta.stack()
    assert out.shape == (0,) and out.dtype == tf.float32
    assert tf.TensorArray(tf.int32, size=0, element_shape=[3]).stack().shape == (0, 3)


def test_eager_errors_match_tf():
    ta = tf.TensorArray(tf.float32, size=3)
    with pytest.raises(tf.errors.OutOfRangeError,
                       match="Tried to write to index 5 but array is not resizeable and size is: 3"):
        ta.write(5, 1.0)
    with pytest.raises(tf.errors.OutOfRangeError, match=r"Writing to negative indices \(index -1\) is not allowed."):
        ta.write(-1, 1.0)
    with pytest.raises(tf.errors.OutOfRangeError, match=r"Reading from negative indices \(index -1\)"):
        ta.read(-1)
    with pytest.raises(tf.errors.OutOfRangeError, match="Tried to read from index 3 but array size is: 3"):
        ta.read(3)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="TensorArray dtype is float32 but Op is trying to write dtype int32"):
        ta.write(1, tf.constant(1))
    ta = ta.write(0, 1.0)
    with pytest.raises(ValueError, match=r"Incompatible shape for value \(\(2,\)\), expected \(\(\)\)"):
        ta.write(1, [1.0, 2.0])
    with pytest.raises(ValueError, match="Cannot convert a partially known TensorShape <unknown> to a Tensor."):
        tf.TensorArray(tf.float32, size=2).read(0)
    with pytest.raises(ValueError, match="Size must be declared for TensorArrays when eager execution is enabled."):
        tf.TensorArray(tf.float32)
    with pytest.raises(ValueError, match="Cannot unstack 3 tensors into a TensorArray of static size 2"):
        tf.TensorArray(tf.float32, size=2).unstack([1.0, 2.0, 3.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Concat saw a scalar shape at index 0"):
        tf.TensorArray(tf.float32, size=1).write(0, 1.0).concat()


def test_clear_after_read_eager():
    ta = tf.TensorArray(tf.float32, size=2).write(0, 1.0)
    np_eq(ta.read(0), 1.0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Could not read index 0 twice because it was cleared"):
        ta.read(0)
    ta = ta.write(0, 2.0)  # a new write makes it readable again
    np_eq(ta.read(0), 2.0)
    keep = tf.TensorArray(tf.float32, size=1, clear_after_read=False).write(0, 1.0)
    keep.read(0)
    np_eq(keep.read(0), 1.0)


def test_close_and_repr():
    ta = tf.TensorArray(tf.float32, size=1)
    assert ta.close() is None
    assert repr(ta).startswith("<eagerflow.ops.tensor_array_ops.TensorArray object at 0x")
    assert ta.flow.dtype == tf.variant and ta.flow.shape == ()


# ---- the ops and value semantics ----

def _reserve(n, shape=-1, dtype=tf.float32):
    return execute1("TensorListReserve", [tf.constant(shape), tf.constant(n)],
                    {"element_dtype": dtype, "shape_type": tf.int32})


def test_list_values_are_immutable_eagerly():
    l0 = _reserve(2)
    l1 = execute1("TensorListSetItem", [l0, tf.constant(0), tf.constant(1.0)], {"element_dtype": tf.float32})
    l2 = execute1("TensorListSetItem", [l1, tf.constant(0), tf.constant(2.0)], {"element_dtype": tf.float32})
    stack = lambda l: execute1("TensorListStack", [l, tf.constant([], tf.int32)], {"element_dtype": tf.float32})
    np_eq(stack(l1), [1.0, 0.0])
    np_eq(stack(l2), [2.0, 0.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="only contains uninitialized tensors"):
        execute1("TensorListStack", [l0, tf.constant(-1)], {"element_dtype": tf.float32})


def test_list_ops_misc():
    l = execute1("EmptyTensorList", [tf.constant([2]), tf.constant(2)], {"element_dtype": tf.int32, "shape_type": tf.int32})
    l = execute1("TensorListPushBack", [l, tf.constant([1, 2])], {"element_dtype": tf.int32})
    l = execute1("TensorListPushBack", [l, tf.constant([3, 4])], {"element_dtype": tf.int32})
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tried to push item into a full list"):
        execute1("TensorListPushBack", [l, tf.constant([5, 6])], {"element_dtype": tf.int32})
    np_eq(execute1("TensorListLength", [l]), 2, np.int32)
    np_eq(execute1("TensorListElementShape", [l], {"shape_type": tf.int32}), [2])
    rest, last = _core.execute(_core.get_op("TensorListPopBack"), [l, tf.constant(-1)],
                               {"element_dtype": tf.int32}, None)
    np_eq(last, [3, 4])
    np_eq(execute1("TensorListLength", [rest]), 1)
    np_eq(execute1("TensorListLength", [l]), 2)  # the input list is unchanged
    r = execute1("TensorListResize", [l, tf.constant(4)], {})
    np_eq(execute1("TensorListStack", [r, tf.constant(-1)], {"element_dtype": tf.int32}), [[1, 2], [3, 4], [0, 0], [0, 0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid data types; op elements float but list elements int32"):
        execute1("TensorListStack", [l, tf.constant(-1)], {"element_dtype": tf.float32})
    with pytest.raises(tf.errors.InvalidArgumentError, match="Trying to access element 7 in a list with 2 elements."):
        execute1("TensorListGetItem", [l, tf.constant(7), tf.constant(-1)], {"element_dtype": tf.int32})
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tried to set a tensor with incompatible shape"):
        execute1("TensorListSetItem", [l, tf.constant(0), tf.constant([1, 2, 3])], {"element_dtype": tf.int32})
    unknown = execute1("TensorListElementShape", [_reserve(1)], {"shape_type": tf.int64})
    assert unknown.shape == () and unknown.numpy() == -1 and unknown.dtype == tf.int64


# ---- tf.function (graphs) ----

def test_function_unrolled_writes_and_stack():
    @tf.function
    def f(x):
        ta = tf.TensorArray(tf.float32, size=4)
        for i in range(4):
            ta = ta.write(i, x * i)
        return ta.stack(), ta.size(), ta.read(2)

    s, n, r = f(tf.constant([1.0, 2.0]))
    np_eq(s, [[0, 0], [1, 2], [2, 4], [3, 6]], np.float32)
    np_eq(n, 4, np.int32)
    np_eq(r, [2.0, 4.0])
    s, _, _ = f(tf.constant([1.0, -1.0]))
    np_eq(s[3], [3.0, -3.0])


def test_function_graph_values_are_immutable():
    @tf.function
    def f():
        ta = tf.TensorArray(tf.float32, size=2)
        a = ta.write(0, 1.0)
        b = a.write(0, 2.0)  # a stays as it was
        return a.stack(), b.stack(), a.read(1)

    a, b, z = f()
    np_eq(a, [1.0, 0.0])
    np_eq(b, [2.0, 0.0])
    np_eq(z, 0.0)


def test_function_node_names_and_symbolic_flow():
    seen = {}

    @tf.function
    def f():
        ta = tf.TensorArray(tf.float32, size=3)
        seen["flow0"] = ta.flow
        ta = ta.write(0, 1.0)
        seen["flow1"] = ta.flow
        seen["shape"] = ta.element_shape
        return ta.stack()

    np_eq(f(), [1.0, 0.0, 0.0])
    assert seen["flow0"].name == "TensorArrayV2:0" and seen["flow0"].dtype == tf.variant
    assert seen["flow1"].name == "TensorArrayV2Write/TensorListSetItem:0"
    assert seen["shape"] == tf.TensorShape([])


def test_function_dynamic_size_and_static_stack_shape():
    shapes = {}

    @tf.function
    def f(x):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        ta = ta.write(0, x).write(1, x * 2)
        out = ta.stack()
        shapes["stack"] = out.shape
        return out, ta.size(), ta.concat()

    s, n, c = f(tf.constant([1.0, 2.0]))
    np_eq(s, [[1, 2], [2, 4]])
    np_eq(n, 2)
    np_eq(c, [1, 2, 2, 4])
    assert shapes["stack"].as_list() == [None, 2]


def test_function_unstack_gather_scatter():
    @tf.function
    def f(x):
        ta = tf.TensorArray(tf.float32, size=3).unstack(x)
        g = ta.gather([2, 1])
        s = tf.TensorArray(tf.float32, size=3).scatter([1], x[:1])
        return g, s.stack()

    x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    g, s = f(x)
    np_eq(g, [[5, 6], [3, 4]])
    np_eq(s, [[0, 0], [1, 2], [0, 0]])


def test_function_run_time_errors():
    @tf.function
    def out_of_range():
        return tf.TensorArray(tf.float32, size=3).write(5, 1.0).stack()

    with pytest.raises(tf.errors.InvalidArgumentError, match="Trying to modify element 5 in a list with 3 elements."):
        out_of_range()

    @tf.function
    def wrong_dtype():
        return tf.TensorArray(tf.float32, size=3).write(1, tf.constant(1)).stack()

    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid data types; op elements int32 but list elements float"):
        wrong_dtype()

    @tf.function
    def empty():
        return tf.TensorArray(tf.float32, size=0, dynamic_size=True).stack()

    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Tried to stack elements of an empty list with non-fully-defined element_shape: <unknown>"):
        empty()

    @tf.function
    def unread(n):
        return tf.TensorArray(tf.float32, size=n).read(0)

    with pytest.raises(tf.errors.InvalidArgumentError, match="Trying to read an uninitialized tensor but element_shape"):
        unread(tf.constant(2))

    @tf.function
    def too_many(x):
        return tf.TensorArray(tf.float32, size=2).unstack(x).stack()

    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Operation expected a list with 2 elements but got a list with 3 elements."):
        too_many(tf.constant([1.0, 2.0, 3.0]))


def test_function_trace_time_shape_error():
    @tf.function
    def f():
        ta = tf.TensorArray(tf.float32, size=3).write(0, [1.0])
        return ta.write(1, [1.0, 2.0]).stack()

    with pytest.raises(ValueError, match=r"Inconsistent shapes: saw \(2,\) but expected \(1,\)"):
        f()


def test_function_returns_and_takes_eager_array():
    ta = tf.TensorArray(tf.float32, size=2, clear_after_read=False).write(0, 3.0)

    @tf.function
    def f():
        return ta.write(1, 4.0).stack()  # a captured eager list: copied, never changed in place

    np_eq(f(), [3.0, 4.0])
    np_eq(f(), [3.0, 4.0])
    np_eq(ta.stack(), [3.0, 0.0])


# ---- composite protocol and graph While loops ----

def test_composite_roundtrip():
    ta = tf.TensorArray(tf.int32, size=2, element_shape=[3])
    meta, comps = ta.__tf_flatten__()
    assert len(comps) == 1 and comps[0] is ta.flow
    back = tf.TensorArray.__tf_unflatten__(meta, comps)
    assert back.dtype == tf.int32 and back.element_shape == tf.TensorShape([3]) and back.dynamic_size is False
    np_eq(back.stack(), np.zeros([2, 3], np.int32))


def test_while_loop_writes_tensor_array():
    @tf.function
    def f(n):
        ta = tf.TensorArray(tf.float32, size=n)
        i, ta, _ = tf.while_loop(lambda i, ta, n: i < n,
                               lambda i, ta, n: (i + 1, ta.write(i, tf.cast(i, tf.float32) * 2.0), n),
                               [tf.constant(0), ta, n])
        return ta.stack()

    np_eq(f(tf.constant(4)), [0.0, 2.0, 4.0, 6.0])
    out = f(tf.constant(1000))
    np_eq(out, np.arange(1000, dtype=np.float32) * 2)


def test_autograph_for_range_loop_and_if():
    @tf.function
    def f(n):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        for i in tf.range(n):
            if i % 2 == 0:
                ta = ta.write(i, tf.cast(i, tf.float32))
            else:
                ta = ta.write(i, -1.0)
        return ta.stack()

    np_eq(f(tf.constant(5)), [0.0, -1.0, 2.0, -1.0, 4.0])
    np_eq(f(tf.constant(1000))[999], -1.0)


def test_cond_carries_tensor_array():
    @tf.function
    def f(p):
        ta = tf.TensorArray(tf.float32, size=2)
        ta = tf.cond(p, lambda: ta.write(0, 1.0), lambda: ta.write(1, 2.0))
        return ta.stack()

    np_eq(f(tf.constant(True)), [1.0, 0.0])
    np_eq(f(tf.constant(False)), [0.0, 2.0])


def test_eager_while_loop_and_cond():
    ta = tf.TensorArray(tf.float32, size=3)
    _, ta = tf.while_loop(lambda i, ta: i < 3, lambda i, ta: (i + 1, ta.write(i, 1.0)), [0, ta])
    np_eq(ta.stack(), [1.0, 1.0, 1.0])


def test_while_loop_dynamic_size_push():
    @tf.function
    def f(n):
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True, element_shape=[])
        i, ta, _ = tf.while_loop(lambda i, ta, n: i < n, lambda i, ta, n: (i + 1, ta.write(i, i * i), n),
                               [tf.constant(0), ta, n])
        return ta.stack(), ta.size()

    s, k = f(tf.constant(5))
    np_eq(s, [0, 1, 4, 9, 16])
    np_eq(k, 5)
    s, k = f(tf.constant(0))
    assert s.shape == (0,)


# ---- copy-on-write storage and in-place safety ----

def test_old_arrays_keep_their_values_across_chunks():
    # Lists share their element chunks (256 per chunk) until written: old values must never change.
    flows = []
    ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for i in range(600):
        ta = ta.write(i, i)
        if i in (0, 255, 256, 599):
            flows.append((i, ta.flow))
    stack = lambda f: execute1("TensorListStack", [f, tf.constant([], tf.int32)], {"element_dtype": tf.int32})
    for i, f in flows:
        np_eq(stack(f), np.arange(i + 1))
    # rewriting every element of a shared list leaves the original alone
    base = flows[-1][1]
    l = base
    for i in range(0, 600, 7):
        l = execute1("TensorListSetItem", [l, tf.constant(i), tf.constant(-1)], {"element_dtype": tf.int32})
    np_eq(stack(base), np.arange(600))
    expect = np.arange(600)
    expect[::7] = -1
    np_eq(stack(l), expect)


def test_resize_shrink_then_grow_shows_unset():
    ta = tf.TensorArray(tf.float32, size=300, element_shape=[])
    ta = ta.unstack(np.arange(300, dtype=np.float32))
    small = execute1("TensorListResize", [ta.flow, tf.constant(10)], {})
    big = execute1("TensorListResize", [small, tf.constant(300)], {})
    out = execute1("TensorListStack", [big, tf.constant([], tf.int32)], {"element_dtype": tf.float32}).numpy()
    np.testing.assert_array_equal(out[:10], np.arange(10))
    assert not out[10:].any()
    np_eq(execute1("TensorListLength", [ta.flow]), 300)


def test_graph_identity_shared_list_is_not_updated_in_place():
    @tf.function
    def f():
        a = tf.TensorArray(tf.float32, size=2).write(0, 1.0)
        meta, (flow,) = a.__tf_flatten__()
        b = tf.TensorArray.__tf_unflatten__(meta, (tf.identity(flow),))  # shares a's list
        b = b.write(0, 9.0).write(1, 8.0)
        return a.stack(), b.stack()

    a, b = f()
    np_eq(a, [1.0, 0.0])
    np_eq(b, [9.0, 8.0])


def test_dynamic_rnn_guide_example_f27():
    def rnn_step(inp, state):
        return inp + state

    @tf.function
    def dynamic_rnn(rnn_step, input_data, initial_state):
        input_data = tf.transpose(input_data, [1, 0, 2])
        max_seq_len = input_data.shape[0]
        states = tf.TensorArray(tf.float32, size=max_seq_len)
        state = initial_state
        for i in range(max_seq_len):
            state = rnn_step(input_data[i], state)
            states = states.write(i, state)
        return tf.transpose(states.stack(), [1, 0, 2])

    x = np.random.default_rng(0).uniform(size=[2, 3, 4]).astype(np.float32)
    out = dynamic_rnn(rnn_step, tf.constant(x), tf.zeros([2, 4]))
    assert out.shape == (2, 3, 4) and out.dtype == tf.float32
    np.testing.assert_allclose(out.numpy(), np.cumsum(x, axis=1), rtol=1e-6)


def test_random_ops_against_numpy_model_with_snapshots():
    # Random writes / scatters / resizes on raw lists; every snapshot keeps its value (no aliasing).
    rng = np.random.default_rng(1)
    model = np.zeros([0, 2], np.float32)
    l = execute1("TensorListReserve", [tf.constant([2]), tf.constant(0)], {"element_dtype": tf.float32,
                                                                          "shape_type": tf.int32})
    snaps = []
    for step in range(300):
        op = rng.integers(4)
        if op == 0 or len(model) == 0:
            i = int(rng.integers(0, len(model) + 300))
            v = rng.standard_normal(2).astype(np.float32)
            l = execute1("TensorListSetItem", [l, tf.constant(i), tf.constant(v)],
                         {"element_dtype": tf.float32, "resize_if_index_out_of_bounds": True})
            if i >= len(model):
                model = np.concatenate([model, np.zeros([i + 1 - len(model), 2], np.float32)])
            model = model.copy()
            model[i] = v
        elif op == 1:
            idx = rng.choice(len(model), size=min(3, len(model)), replace=False)
            v = rng.standard_normal([len(idx), 2]).astype(np.float32)
            l = execute1("TensorListScatterIntoExistingList", [l, tf.constant(v), tf.constant(idx.astype(np.int32))],
                         {"element_dtype": tf.float32})
            model = model.copy()
            model[idx] = v
        elif op == 2:
            n = int(rng.integers(0, len(model) + 1))
            l = execute1("TensorListResize", [l, tf.constant(n)], {})
            model = model[:n].copy()
        else:
            l = execute1("TensorListPushBack", [l, tf.constant([1.0, float(step)])], {"element_dtype": tf.float32})
            model = np.concatenate([model, [[1.0, float(step)]]]).astype(np.float32)
        if step % 25 == 0:
            snaps.append((l, model))
    stack = lambda l: execute1("TensorListStack", [l, tf.constant([2])], {"element_dtype": tf.float32}).numpy()
    for l_, m in snaps + [(l, model)]:
        np.testing.assert_array_equal(stack(l_), m)


def test_huge_index_is_rejected():
    l = _reserve(1)
    # The index is an int32 input (TF's signature): a wider one is refused before the kernel.
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"input #1\(zero-based\) was expected to be a int32"):
        execute1("TensorListSetItem", [l, tf.constant(2 ** 40, tf.int64), tf.constant(1.0)],
                 {"element_dtype": tf.float32, "resize_if_index_out_of_bounds": True})
    big = _reserve(2 ** 31 - 1)  # reserving allocates no element storage
    np_eq(execute1("TensorListLength", [big]), 2 ** 31 - 1)


# ---- gradients of the list ops (called directly: linear maps, so exact checks) ----

F32 = {"element_dtype": tf.float32}


def _grad(op_type, inputs, attrs, out_grads):
    from gradient_checker import call_gradient
    return call_gradient(op_type, inputs, attrs, out_grads)


def _from(x):
    return execute1("TensorListFromTensor", [tf.constant(x), tf.constant(-1)], {**F32, "shape_type": tf.int32})


def _stack(l, shape=(2,)):
    return execute1("TensorListStack", [l, tf.constant(list(shape), tf.int32)], F32).numpy()


X = np.arange(6, dtype=np.float32).reshape(3, 2)
G = np.array([[1, -1], [2, -2], [3, -3]], np.float32)


def test_grad_stack_and_from_tensor_are_inverse():
    (dl, _) = _grad("TensorListStack", [_from(X), tf.constant([2])], {**F32, "num_elements": 3}, [G])
    np.testing.assert_array_equal(_stack(dl), G)
    (dx, _) = _grad("TensorListFromTensor", [X, tf.constant(-1)], {**F32, "shape_type": tf.int32}, [_from(G)])
    np.testing.assert_array_equal(dx.numpy(), G)
    (dx, _) = _grad("TensorListFromTensor", [X, tf.constant(-1)], {**F32, "shape_type": tf.int32}, [None])
    assert not dx.numpy().any()


def test_grad_get_and_set_item():
    dl, _, _ = _grad("TensorListGetItem", [_from(X), tf.constant(1), tf.constant([2])], F32, [G[0]])
    np.testing.assert_array_equal(_stack(dl), [[0, 0], G[0], [0, 0]])
    dl, _, ditem = _grad("TensorListSetItem", [_from(X), tf.constant(2), tf.constant([9.0, 9.0])], F32, [_from(G)])
    np.testing.assert_array_equal(ditem.numpy(), G[2])
    np.testing.assert_array_equal(_stack(dl), [G[0], G[1], [0, 0]])


def test_grad_push_pop_resize():
    l2 = _from(X[:2])
    dl, dt = _grad("TensorListPushBack", [l2, tf.constant(X[2])], F32, [_from(G)])
    np.testing.assert_array_equal(_stack(dl), G[:2])
    np.testing.assert_array_equal(dt.numpy(), G[2])
    dl, _ = _grad("TensorListPopBack", [_from(X), tf.constant([2])], F32, [_from(G[:2]), tf.constant(G[2])])
    np.testing.assert_array_equal(_stack(dl), G)
    dl, _ = _grad("TensorListResize", [_from(X), tf.constant(5)], {}, [_from(np.concatenate([G, G[:2]]))])
    np.testing.assert_array_equal(_stack(dl), G)


def test_grad_gather_scatter():
    dl, _, _ = _grad("TensorListGather", [_from(X), tf.constant([2, 0]), tf.constant([2])], F32, [G[:2]])
    np.testing.assert_array_equal(_stack(dl), [G[1], [0, 0], G[0]])
    dt, _, _, _ = _grad("TensorListScatterV2", [X[:2], tf.constant([2, 0]), tf.constant([2]), tf.constant(3)],
                        {**F32, "shape_type": tf.int32}, [_from(G)])
    np.testing.assert_array_equal(dt.numpy(), [G[2], G[0]])
    dl, dt, _ = _grad("TensorListScatterIntoExistingList", [_from(X), X[:1], tf.constant([1])], F32, [_from(G)])
    np.testing.assert_array_equal(dt.numpy(), [G[1]])
    np.testing.assert_array_equal(_stack(dl), [G[0], [0, 0], G[2]])


def test_grad_concat_split():
    lengths = tf.constant([1, 2], tf.int64)
    sp = execute1("TensorListSplit", [tf.constant([1.0, 2.0, 3.0]), tf.constant(-1), lengths],
                  {**F32, "shape_type": tf.int32})
    dl, _, _ = _grad("TensorListConcatV2", [sp, tf.constant(-1), tf.constant(np.zeros([0], np.int64))],
                     {**F32, "shape_type": tf.int32}, [tf.constant([5.0, 6.0, 7.0]), None])
    np.testing.assert_array_equal(execute1("TensorListGetItem", [dl, tf.constant(1), tf.constant(-1)], F32).numpy(),
                                  [6.0, 7.0])
    grad_list = execute1("TensorListReserve", [tf.constant([-1]), tf.constant(2)], {**F32, "shape_type": tf.int32})
    grad_list = execute1("TensorListSetItem", [grad_list, tf.constant(1), tf.constant([8.0, 9.0])], F32)
    dt, _, _ = _grad("TensorListSplit", [[1.0, 2.0, 3.0], tf.constant(-1), lengths], {**F32, "shape_type": tf.int32},
                     [grad_list])
    np.testing.assert_array_equal(dt.numpy(), [0.0, 8.0, 9.0])  # element 0 unset: zeros via leading_dims


def test_function_argument_sees_current_eager_state():
    ta = tf.TensorArray(tf.float32, size=2, clear_after_read=False).write(0, 1.0)

    @tf.function
    def f(t):
        return t.stack()

    np_eq(f(ta), [1.0, 0.0])
    np_eq(f(ta), [1.0, 0.0])
    ta.write(1, 5.0)  # eager writes change the array: the function must see them
    np_eq(f(ta), [1.0, 5.0])


def test_folded_list_constants_are_not_merged():
    # Constant folding turns writes of constants into variant Consts; CSE must not treat two
    # different lists as equal constants (they have no bytes to compare).
    @tf.function
    def f(x):
        a = tf.TensorArray(tf.float32, size=2).write(0, 1.0).write(1, x)
        b = tf.TensorArray(tf.float32, size=2).write(0, 2.0).write(1, x)
        return a.stack(), b.stack()

    a, b = f(tf.constant(5.0))
    np_eq(a, [1.0, 5.0])
    np_eq(b, [2.0, 5.0])


def test_gradient_tape_through_tensor_array():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(x)
        ta = tf.TensorArray(tf.float32, size=3).write(0, x * 2.0).write(1, x * x)
        y = tf.reduce_sum(ta.stack())
    np_eq(t.gradient(y, x), [4.0, 6.0])  # d/dx sum(2x + x^2)

    @tf.function
    def f(x):
        with tf.GradientTape() as t:
            t.watch(x)
            ta = tf.TensorArray(tf.float32, size=3)
            for i in range(3):
                ta = ta.write(i, x * float(i))
            y = tf.reduce_sum(ta.stack() ** 2)
        return t.gradient(y, x)

    np_eq(f(x), [10.0, 20.0])  # d/dx sum_i (i x)^2 = 10 x


def test_gradient_of_a_tensor_array_read_twice_sums_lists():
    # Two reads of one array: their list gradients are summed by AddN on variants.
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            ta = tf.TensorArray(tf.float32, size=2, clear_after_read=False)
            ta = ta.write(0, x * 2.0).write(1, x * 3.0)
            y = tf.reduce_sum(ta.read(0) * ta.read(1)) + tf.reduce_sum(ta.stack())
        return tape.gradient(y, x)
    np.testing.assert_allclose(f(tf.constant([1.0, 2.0])).numpy(), [17.0, 29.0])  # 12x + 5


def test_add_n_of_lists_checks_lengths():
    from eagerflow.ops import _execute
    a = tf.TensorArray(tf.float32, size=2).write(0, 1.0).flow
    b = tf.TensorArray(tf.float32, size=3).flow
    with pytest.raises(tf.errors.InvalidArgumentError, match="different lengths. One is 2 and the other is 3"):
        _execute.execute1("AddN", [a, b])
