"""File-reading datasets (TF's readers.py): TextLineDataset reads each file of a dataset of file
names with the C++ TextLineDataset op, one after another (flat_map) or num_parallel_reads at once
(a parallel interleave), as TF does."""
from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.framework.tensor_shape import TensorShape
from eagerflow.framework.tensor_spec import TensorSpec
from eagerflow.ops import _execute, array_ops
from eagerflow.data import _dataset

_DEFAULT_READER_BUFFER_SIZE_BYTES = 256 * 1024
_STRING = TensorSpec([], dtypes.string)


def _filenames_dataset(filenames):
    """A dataset of scalar file names from a dataset, a string tensor or Python strings (flattened)."""
    if isinstance(filenames, _dataset.DatasetV2):
        spec = filenames.element_spec
        if not isinstance(spec, TensorSpec) or spec.dtype != dtypes.string:
            raise TypeError("The `filenames` argument must contain `tf.string` elements. Got a dataset of `%s` "
                            "elements." % (spec,))
        if not spec.shape.is_compatible_with(TensorShape([])):
            raise TypeError("The `filenames` argument must contain `tf.string` elements of shape [] (i.e. scalars). "
                            "Got a dataset of element shape %s." % (spec.shape,))
        return filenames
    if not isinstance(filenames, _core.Tensor):
        try:
            filenames = _core.convert_to_tensor(filenames, dtypes.string._type_enum)
        except (TypeError, ValueError):
            filenames = _core.convert_to_tensor(filenames)
    if filenames.dtype != dtypes.string:
        raise TypeError("The `filenames` argument must contain `tf.string` elements. Got `%r` elements."
                        % filenames.dtype)
    return _dataset.DatasetV2.from_tensor_slices(array_ops.reshape(filenames, [-1]))


def _reader(read_one_file, filenames, num_parallel_reads):
    if num_parallel_reads is None:
        return filenames.flat_map(read_one_file)
    return filenames.interleave(read_one_file, cycle_length=num_parallel_reads, block_length=1,
                                num_parallel_calls=num_parallel_reads)


class _TextLineDataset(_dataset.DatasetV2):
    """The lines of the files in a string tensor (one file in TextLineDataset's flat_map)."""

    def __init__(self, filenames, compression_type=None, buffer_size=None):
        compression = _core.convert_to_tensor("" if compression_type is None else compression_type,
                                              dtypes.string._type_enum)
        size = _core.convert_to_tensor(_DEFAULT_READER_BUFFER_SIZE_BYTES if buffer_size is None else buffer_size,
                                       dtypes.int64._type_enum)
        variant = _execute.execute1("TextLineDataset", [filenames, compression, size])
        super().__init__(variant, _STRING)


class TextLineDatasetV2(_dataset.DatasetV2):
    """tf.data.TextLineDataset: the lines of one or more text files, without their line endings."""

    def __init__(self, filenames, compression_type=None, buffer_size=None, num_parallel_reads=None, name=None):
        self._filenames = _filenames_dataset(filenames)

        def read_one_file(filename):
            return _TextLineDataset(filename, compression_type, buffer_size)

        self._impl = _reader(read_one_file, self._filenames, num_parallel_reads)
        super().__init__(self._impl._variant_tensor, _STRING)


def _list_files(file_pattern, shuffle=None, seed=None, name=None):
    """Dataset.list_files: the files matching the pattern(s), shuffled unless shuffle=False;
    InvalidArgumentError when none matches (TF's Assert)."""
    from eagerflow.ops import check_ops, io_ops, math_ops, string_ops
    pattern = _core.convert_to_tensor(file_pattern, dtypes.string._type_enum) if not isinstance(
        file_pattern, _core.Tensor) else file_pattern
    matching = io_ops.matching_files(pattern)
    flat = array_ops.reshape(pattern, [-1])
    if _core.current_graph() is None:
        if int(matching.shape[0]) == 0:
            joined = ", ".join(p.decode("utf-8", "replace") for p in flat.numpy().tolist())
            message = string_ops.join(["No files matched pattern: ", joined])
            check_ops.Assert(_core.convert_to_tensor(False), [message], summarize=1)
    dataset = _dataset.DatasetV2.from_tensor_slices(matching)
    if shuffle is None or shuffle:
        count = max(int(matching.shape[0]), 1) if _core.current_graph() is None else math_ops.maximum(
            array_ops.shape(matching, out_type=dtypes.int64)[0], 1)
        dataset = dataset.shuffle(count, seed=seed)
    return dataset


# Dataset.list_files reads files: installed from here, above the Dataset class.
_dataset.DatasetV2.list_files = staticmethod(_list_files)
