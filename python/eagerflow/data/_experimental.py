"""tf.data.experimental's functions: the older spellings of Dataset and Iterator methods."""


def cardinality(dataset):
    """dataset.cardinality() (INFINITE_CARDINALITY / UNKNOWN_CARDINALITY where not known)."""
    return dataset.cardinality()


def get_next_as_optional(iterator):
    """iterator.get_next_as_optional()."""
    return iterator.get_next_as_optional()
