"""Datasets over files: TextLineDataset (lines, endings, several files, parallel reads, errors),
Dataset.list_files, tf.io.matching_files, tf.io.gfile.glob, and Dataset.cache(filename) (written on
a complete pass only, read back afterwards). Expected values were checked against TF 2.21."""
import os

import numpy as np
import pytest

import eagerflow as tf


def values(ds):
    return list(ds.as_numpy_iterator())


@pytest.fixture
def files(tmp_path):
    (tmp_path / "f1.txt").write_bytes(b"a\r\nb\n\nc")
    (tmp_path / "f2.txt").write_bytes(b"x\ny\n")
    (tmp_path / "f3.txt").write_bytes(b"")
    (tmp_path / "g1.txt").write_bytes(b"c\r")
    (tmp_path / "g3.txt").write_bytes(b"\n\n")
    return tmp_path


def test_text_lines_drop_endings_like_tf(files):
    ds = tf.data.TextLineDataset([str(files / n) for n in ("f1.txt", "f2.txt", "f3.txt")])
    assert repr(ds) == "<TextLineDatasetV2 element_spec=TensorSpec(shape=(), dtype=tf.string, name=None)>"
    assert values(ds) == [b"a", b"b", b"", b"c", b"x", b"y"]
    assert int(ds.cardinality()) == tf.data.UNKNOWN_CARDINALITY
    assert values(tf.data.TextLineDataset([str(files / "g1.txt"), str(files / "g3.txt")])) == [b"c", b"", b""]
    assert values(ds) == values(ds)  # a dataset reads its files again on each pass


def test_text_lines_long_lines_and_small_buffers(files):
    rng = np.random.default_rng(0)
    alphabet = np.frombuffer(b"abc r", np.uint8)
    lines = [bytes(rng.choice(alphabet, size=n).tolist()) for n in rng.integers(0, 3000, size=200)]
    path = files / "long.txt"
    path.write_bytes(b"\n".join(lines) + b"\n")
    for size in (1, 7, 4096, None):
        assert values(tf.data.TextLineDataset(str(path), buffer_size=size)) == lines


def test_text_lines_scalar_tensor_and_dataset_of_names(files):
    name = str(files / "f2.txt")
    assert values(tf.data.TextLineDataset(tf.constant(name))) == [b"x", b"y"]
    assert values(tf.data.TextLineDataset(tf.data.Dataset.from_tensor_slices([name, name]))) == [b"x", b"y"] * 2
    assert values(tf.data.TextLineDataset(tf.constant([[name]]))) == [b"x", b"y"]  # flattened, as TF


def test_text_lines_num_parallel_reads_interleaves(files):
    names = [str(files / "f1.txt"), str(files / "f2.txt")]
    ds = tf.data.TextLineDataset(names, num_parallel_reads=2)
    assert values(ds) == [b"a", b"x", b"b", b"y", b"", b"c"]  # TF's order
    many = []
    for i in range(6):
        p = files / ("m%d.txt" % i)
        p.write_bytes(b"".join(b"%d-%d\n" % (i, j) for j in range(50 + i)))
        many.append(str(p))
    expected = values(tf.data.Dataset.from_tensor_slices(many).interleave(tf.data.TextLineDataset, cycle_length=3))
    assert values(tf.data.TextLineDataset(many, num_parallel_reads=3)) == expected
    assert sorted(expected) == sorted(values(tf.data.TextLineDataset(many)))


def test_text_lines_in_a_pipeline_and_a_function(files):
    ds = tf.data.TextLineDataset(str(files / "f2.txt")).map(tf.strings.length).batch(2)

    @tf.function
    def total(d):
        s = tf.constant(0)
        for x in d:
            s += tf.reduce_sum(x)
        return s
    assert int(total(ds)) == 2


def test_missing_file_is_not_found_at_iteration(files):
    ds = tf.data.TextLineDataset([str(files / "f2.txt"), str(files / "nope.txt")])  # no error yet
    it = iter(ds)
    assert next(it).numpy() == b"x"
    assert next(it).numpy() == b"y"
    with pytest.raises(tf.errors.NotFoundError, match="nope.txt; No such file or directory"):
        next(it)
    with pytest.raises(tf.errors.FailedPreconditionError, match="; Is a directory"):
        values(tf.data.TextLineDataset(str(files)))


def test_text_line_bad_arguments(files):
    with pytest.raises(TypeError, match=r"The `filenames` argument must contain `tf.string` elements. Got "
                                        r"`tf.int32` elements."):
        tf.data.TextLineDataset(3)
    name = str(files / "f2.txt")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Unsupported compression_type."):
        values(tf.data.TextLineDataset(name, compression_type="BAD"))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"`buffer_size` must be >= 0 \(0 == default\)"):
        values(tf.data.TextLineDataset(name, buffer_size=-1))
    assert values(tf.data.TextLineDataset(name, compression_type="")) == [b"x", b"y"]


def test_gzip_and_zlib_files(files):
    gzip = pytest.importorskip("gzip")
    zlib = pytest.importorskip("zlib")
    (files / "z1.gz").write_bytes(gzip.compress(b"a\r\nb\n\nc"))
    (files / "z2.gz").write_bytes(gzip.compress(b"x\n") + gzip.compress(b"y\nz"))  # two members
    (files / "z3.zz").write_bytes(zlib.compress(b"p\nq\n"))
    lines = [b"line %d " % i * (i % 7) for i in range(3000)]
    (files / "big.gz").write_bytes(gzip.compress(b"\n".join(lines)))
    try:
        got = values(tf.data.TextLineDataset([str(files / "z1.gz"), str(files / "z2.gz")], compression_type="GZIP"))
    except tf.errors.UnimplementedError:
        pytest.skip("built without zlib")
    assert got == [b"a", b"b", b"", b"c", b"x", b"y", b"z"]
    assert values(tf.data.TextLineDataset(str(files / "z3.zz"), compression_type="ZLIB")) == [b"p", b"q"]
    assert values(tf.data.TextLineDataset(str(files / "big.gz"), compression_type="GZIP", buffer_size=100)) == lines
    (files / "trunc.gz").write_bytes(gzip.compress(b"hello\nworld\n" * 100)[:30])
    short = values(tf.data.TextLineDataset(str(files / "trunc.gz"), compression_type="GZIP"))
    assert short[:2] == [b"hello", b"world"] and len(short) < 200  # TF: what could be decoded
    (files / "bad.gz").write_bytes(b"not gzip data at all")
    for name, kind in (("bad.gz", "GZIP"), ("z1.gz", "ZLIB")):
        with pytest.raises(tf.errors.DataLossError,
                           match=r"inflate\(\) failed with error -3: incorrect header check"):
            values(tf.data.TextLineDataset(str(files / name), compression_type=kind))


def test_matching_files_and_glob(files, monkeypatch):
    (files / ".hidden.txt").write_bytes(b"")
    (files / "sub").mkdir()
    (files / "sub" / "s.txt").write_bytes(b"")
    monkeypatch.chdir(files)
    got = tf.io.matching_files("*.txt")
    assert got.dtype == tf.string
    assert got.numpy().tolist() == [b"./.hidden.txt", b"./f1.txt", b"./f2.txt", b"./f3.txt", b"./g1.txt",
                                    b"./g3.txt"]
    assert tf.io.matching_files("*/*.txt").numpy().tolist() == [b"./sub/s.txt"]
    assert tf.io.matching_files("g1.txt").numpy().tolist() == [b"g1.txt"]  # no wildcard: itself
    assert tf.io.matching_files("nope.txt").shape == (0,)
    assert tf.io.matching_files(["g1.txt", "f?.txt"]).numpy().tolist() == [b"./f1.txt", b"./f2.txt", b"./f3.txt",
                                                                            b"g1.txt"]
    assert tf.io.matching_files(str(files / "f[12].txt")).numpy().tolist() == [
        str(files / "f1.txt").encode(), str(files / "f2.txt").encode()]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Input patterns tensor must be scalar or vector, but had shape: \[1,1\]"):
        tf.io.matching_files([["g1.txt"]])
    assert tf.io.gfile.glob(str(files / "g*")) == [str(files / "g1.txt"), str(files / "g3.txt")]


def test_list_files(files):
    pattern = str(files / "*.txt")
    ds = tf.data.Dataset.list_files(pattern, shuffle=False)
    assert repr(ds) == "<_TensorSliceDataset element_spec=TensorSpec(shape=(), dtype=tf.string, name=None)>"
    expected = [str(files / n).encode() for n in ("f1.txt", "f2.txt", "f3.txt", "g1.txt", "g3.txt")]
    assert values(ds) == expected
    shuffled = tf.data.Dataset.list_files(pattern, seed=3)
    assert repr(shuffled).startswith("<_ShuffleDataset")
    assert sorted(values(shuffled)) == expected
    assert values(tf.data.Dataset.list_files(pattern, seed=3)) == values(tf.data.Dataset.list_files(pattern, seed=3))
    lines = tf.data.Dataset.list_files(str(files / "f*.txt"), shuffle=False).interleave(tf.data.TextLineDataset,
                                                                                      cycle_length=1)
    assert values(lines) == [b"a", b"b", b"", b"c", b"x", b"y"]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Expected 'tf.Tensor\(False, shape=\(\), dtype=bool\)' to be true. Summarized data: "
                             r"b'No files matched pattern: .*\*.nope'"):
        tf.data.Dataset.list_files(str(files / "*.nope"))


# ---- cache(filename) ----

def test_cache_to_file_writes_on_a_full_pass_then_reads(tmp_path):
    prefix = str(tmp_path / "cache")
    calls = []

    def count(x):
        calls.append(int(x))
        return x
    ds = tf.data.Dataset.range(5).map(lambda x: tf.py_function(count, [x], tf.int64)).cache(prefix)
    assert repr(ds).startswith("<CacheDataset element_spec=")
    assert [int(v) for v in values(ds)] == list(range(5))
    assert sorted(os.listdir(tmp_path)) == ["cache.data-00000-of-00001", "cache.index"]
    assert [int(v) for v in values(ds)] == list(range(5))
    assert calls == list(range(5))  # the second pass read the file
    # A new dataset with the same file name reads the cache, whatever its input (TF's rule).
    assert [int(v) for v in values(tf.data.Dataset.range(10, 12).cache(prefix))] == list(range(5))


def test_cache_partial_pass_leaves_no_cache(tmp_path):
    prefix = str(tmp_path / "c")
    ds = tf.data.Dataset.range(5).cache(prefix)
    it = iter(ds)
    next(it)
    next(it)
    assert sorted(os.listdir(tmp_path))[0] == "c_0.data-00000-of-00001.tempstate" + sorted(os.listdir(tmp_path))[0][
        len("c_0.data-00000-of-00001.tempstate"):]
    assert "c_0.lockfile" in os.listdir(tmp_path)
    it2 = iter(ds)
    with pytest.raises(tf.errors.AlreadyExistsError,
                       match=r"There appears to be a concurrent caching iterator running - cache lockfile already "
                             r"exists \('.*c_0.lockfile'\). If you are sure no other running TF computations are "
                             r"using this cache prefix, delete the lockfile and re-initialize the iterator. Lockfile "
                             r"contents: Created at: \d+"):
        next(it2)
    del it, it2
    assert os.listdir(tmp_path) == []  # the partial pass is discarded
    assert [int(v) for v in values(ds)] == list(range(5))
    assert [int(v) for v in values(ds.take(2))] == [0, 1]


def test_cache_file_round_trips_structures(tmp_path):
    x = {"s": np.array([b"ab", b"", b"c\x00d"], dtype=object), "f": np.arange(6, dtype=np.float32).reshape(3, 2),
         "b": np.array([True, False, True]), "h": np.arange(3, dtype=np.float16)}
    ds = tf.data.Dataset.from_tensor_slices(x).cache(str(tmp_path / "s"))
    first, second = values(ds), values(ds)
    for a, b in zip(first, second):
        assert a["s"] == b["s"]
        for k in "fbh":
            np.testing.assert_array_equal(a[k], b[k])
            assert a[k].dtype == b[k].dtype
    assert [a["s"] for a in second] == [b"ab", b"", b"c\x00d"]
    ragged = tf.data.Dataset.range(1, 4).map(lambda n: tf.range(n)).cache(str(tmp_path / "r"))
    values(ragged)
    assert [v.tolist() for v in values(ragged)] == [[0], [0, 1], [0, 1, 2]]


def test_cache_file_errors(tmp_path):
    with pytest.raises(tf.errors.NotFoundError, match="nodir/x_0.lockfile; No such file or directory"):
        values(tf.data.Dataset.range(2).cache(str(tmp_path / "nodir" / "x")))
    prefix = str(tmp_path / "t")
    values(tf.data.Dataset.range(2).cache(prefix))
    with pytest.raises(tf.errors.InvalidArgumentError, match="holds int64 tensors where the dataset has float"):
        values(tf.data.Dataset.range(2).map(lambda x: tf.cast(x, tf.float32)).cache(prefix))
