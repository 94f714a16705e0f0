"""tf.strings namespace."""
from eagerflow.ops.logging_ops import string_format as format
from eagerflow.ops.ragged.ragged_string_ops import (bytes_split, split, unicode_decode, unicode_decode_with_offsets,
                                                    unicode_encode, unicode_split, unicode_split_with_offsets)
from eagerflow.ops.string_ops import (as_string, join, length, lower, reduce_join, regex_full_match, regex_replace,
                                      strip, substr, to_hash_bucket_fast, to_hash_bucket_strong, to_number,
                                      unicode_script, unicode_transcode, upper)

__all__ = ["as_string", "bytes_split", "format", "join", "length", "lower", "reduce_join", "regex_full_match", "regex_replace", "split", "strip", "substr",
           "to_hash_bucket_fast", "to_hash_bucket_strong", "to_number", "unicode_decode", "unicode_decode_with_offsets",
           "unicode_encode", "unicode_split", "unicode_split_with_offsets", "unicode_script",
           "unicode_transcode", "upper"]
