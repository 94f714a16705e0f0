"""Protocol-buffer wire format for the few TF messages Python writes (checkpoint object graphs, summary
events): varints, length-delimited and fixed-width fields. The decoder checks every length."""
import struct


_SMALL = [bytes((i,)) for i in range(128)]


def varint(n):
    if 0 <= n < 128:
        return _SMALL[n]
    n &= (1 << 64) - 1
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def field_varint(field, n):
    return varint(field << 3) + varint(n) if n else b""


def field_bytes(field, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    return varint((field << 3) | 2) + varint(len(data)) + data


def field_string(field, s):
    return field_bytes(field, s) if s else b""


def fields(data):
    """(field number, value) pairs: ints for varints, bytes for length-delimited fields."""
    pos, n = 0, len(data)

    def read_varint():
        nonlocal pos
        result = shift = 0
        while True:
            if pos >= n or shift > 63:
                raise ValueError("truncated varint")
            b = data[pos]
            pos += 1
            result |= (b & 0x7F) << shift
            if not b & 0x80:
                return result
            shift += 7

    while pos < n:
        tag = read_varint()
        field, wire = tag >> 3, tag & 7
        if wire == 0:
            yield field, read_varint()
        elif wire == 2:
            size = read_varint()
            if size > n - pos:
                raise ValueError("truncated bytes field")
            yield field, data[pos:pos + size]
            pos += size
        elif wire in (1, 5):
            width = 8 if wire == 1 else 4
            if width > n - pos:
                raise ValueError("truncated fixed field")
            yield field, int.from_bytes(data[pos:pos + width], "little")
            pos += width
        else:
            raise ValueError(f"unsupported wire type {wire}")




def field_double(field, x):
    return varint((field << 3) | 1) + struct.pack("<d", x)


def field_float(field, x):
    return varint((field << 3) | 5) + struct.pack("<f", x)
