"""tf.SparseTensor: construction, printing, sparse ops and conversion."""
import eagerflow as tf

st1 = tf.sparse.SparseTensor(indices=[[0, 3], [2, 4]], values=[10, 20], dense_shape=[3, 10])
print(st1)


def pprint_sparse_tensor(st):
    s = "<SparseTensor shape=%s \n values={" % (st.dense_shape.numpy().tolist(),)
    for (index, value) in zip(st.indices, st.values):
        s += f"\n  %s: %s" % (index.numpy().tolist(), value.numpy().tolist())
    return s + "}>"


print(pprint_sparse_tensor(st1))
st2 = tf.sparse.from_dense([[1, 0, 0, 8], [0, 0, 0, 0], [0, 0, 3, 0]])
print(pprint_sparse_tensor(st2))
print(tf.sparse.to_dense(st2))
st_a = tf.sparse.SparseTensor(indices=[[0, 2], [3, 4]], values=[31, 2], dense_shape=[4, 10])
st_b = tf.sparse.SparseTensor(indices=[[0, 2], [7, 0]], values=[56, 38], dense_shape=[4, 10])
try:
    tf.sparse.add(st_a, st_b)
except Exception as e:
    print(type(e).__name__)
st_b = tf.sparse.SparseTensor(indices=[[0, 2], [3, 0]], values=[56, 38], dense_shape=[4, 10])
st_sum = tf.sparse.add(st_a, st_b)
print(pprint_sparse_tensor(st_sum))
st_c = tf.sparse.SparseTensor(indices=([0, 1], [1, 0], [1, 1]), values=[13, 15, 17], dense_shape=(2, 2))
mb = tf.constant([[4], [6]])
product = tf.sparse.sparse_dense_matmul(st_c, mb)
print(product)
sparse_pattern_A = tf.sparse.SparseTensor(indices=[[2, 4], [3, 3], [3, 4], [4, 3], [4, 4], [5, 4]],
                                          values=[1, 1, 1, 1, 1, 1], dense_shape=[8, 5])
sparse_pattern_B = tf.sparse.SparseTensor(indices=[[0, 2], [1, 1], [1, 3], [2, 0], [2, 4], [2, 5], [3, 5],
                                                   [4, 5], [5, 0], [5, 4], [5, 5], [6, 1], [6, 3], [7, 2]],
                                          values=[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], dense_shape=[8, 6])
sparse_patterns_list = [sparse_pattern_A, sparse_pattern_B]
sparse_pattern = tf.sparse.concat(axis=1, sp_inputs=sparse_patterns_list)
print(tf.sparse.to_dense(sparse_pattern))
sparse_slice_A = tf.sparse.slice(sparse_pattern_A, start=[0, 0], size=[8, 5])
print(tf.sparse.to_dense(sparse_slice_A)[2:6])
st2_plus_5 = tf.sparse.map_values(tf.add, st2, 5)
print(tf.sparse.to_dense(st2_plus_5))
st2_plus_5 = tf.sparse.SparseTensor(st2.indices, st2.values + 5, st2.dense_shape)
print(st2_plus_5.values)
print(tf.sparse.reduce_sum(st1), tf.sparse.reduce_sum(st1, axis=1))
print(tf.sparse.reduce_max(st2, axis=0))
print(tf.sparse.reorder(tf.sparse.SparseTensor([[1, 0], [0, 1]], [1.0, 2.0], [2, 2])))
print(tf.sparse.transpose(st2).dense_shape)
print(tf.sparse.reshape(st2, [2, 6]).indices)
print(tf.sparse.retain(st2, [True, False, True]).values)
print(tf.sparse.to_dense(tf.sparse.expand_dims(st_c, 0)).shape)
print(st1.shape, st1.dtype, st1.get_shape())
st_f = tf.SparseTensor([[0, 0], [1, 1]], [1.5, -2.0], [2, 3])
print(tf.sparse.to_dense(st_f, default_value=9.0))
print(tf.sparse.sparse_dense_matmul(st_f, tf.ones([3, 1])))
print(tf.math.reduce_sum(tf.sparse.to_dense(st_f)), tf.sparse.bincount if False else "")
