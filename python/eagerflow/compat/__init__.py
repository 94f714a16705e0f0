"""tf.compat: the TF1 API (tf.compat.v1) and bytes/str helpers."""
import numbers as _numbers

from eagerflow.compat import v1


def as_bytes(bytes_or_text, encoding="utf-8"):
    """tf.compat.as_bytes: str -> bytes (encoded), bytes unchanged."""
    if isinstance(bytes_or_text, bytearray):
        return bytes(bytes_or_text)
    if isinstance(bytes_or_text, str):
        return bytes_or_text.encode(encoding)
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text
    raise TypeError("Expected binary or unicode string, got %r" % (bytes_or_text,))


def as_text(bytes_or_text, encoding="utf-8"):
    """tf.compat.as_text: bytes -> str (decoded), str unchanged."""
    if isinstance(bytes_or_text, str):
        return bytes_or_text
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text.decode(encoding)
    raise TypeError("Expected binary or unicode string, got %r" % bytes_or_text)


as_str = as_text
as_str_any = lambda value, encoding="utf-8": as_str(value, encoding) if isinstance(value, bytes) else str(value)  # noqa: E731
integral_types = (_numbers.Integral,)
real_types = (_numbers.Real,)
complex_types = (_numbers.Complex,)
bytes_or_text_types = (bytes, str)
