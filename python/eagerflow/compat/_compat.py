"""Conversions between bytes and str, and the number type tuples, of tf.compat."""
import numbers


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


def as_str_any(value, encoding="utf-8"):
    """tf.compat.as_str_any: bytes decoded, anything else str()."""
    return as_str(value, encoding) if isinstance(value, bytes) else str(value)


integral_types = (numbers.Integral,)
real_types = (numbers.Real,)
complex_types = (numbers.Complex,)
bytes_or_text_types = (bytes, str)
