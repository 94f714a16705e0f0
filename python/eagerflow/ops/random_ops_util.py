"""tf.random.Algorithm and the key/counter/alg triple that the V2 stateless random ops take."""
import enum

from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.ops._execute import execute


class Algorithm(enum.Enum):
    """A random-number-generation algorithm (tf.random.Algorithm)."""
    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


def convert_alg_to_int(alg):
    """An int (or a tensor) for `alg`: an int, an Algorithm, a tensor or "philox"/"threefry"/"auto_select"."""
    if isinstance(alg, bool):
        raise TypeError(f"Can't convert argument `alg` (of value {alg} and type {type(alg)}) to int.")
    if isinstance(alg, int):
        return alg
    if isinstance(alg, Algorithm):
        return alg.value
    if isinstance(alg, _core.Tensor):
        return alg
    if isinstance(alg, str):
        canon = alg.strip().lower().replace("-", "").replace("_", "")
        names = {"philox": Algorithm.PHILOX, "threefry": Algorithm.THREEFRY, "autoselect": Algorithm.AUTO_SELECT}
        if canon in names:
            return names[canon].value
        raise ValueError(unsupported_alg_error_msg(alg))
    raise TypeError(f"Can't convert argument `alg` (of value {alg} and type {type(alg)}) to int.")


def unsupported_alg_error_msg(alg):
    if isinstance(alg, int):
        philox, threefry, auto = 1, 2, 3
    elif isinstance(alg, str):
        philox, threefry, auto = "philox", "threefry", "auto_select"
    else:
        philox, threefry, auto = Algorithm.PHILOX, Algorithm.THREEFRY, Algorithm.AUTO_SELECT
    return (f"Argument `alg` got unsupported value {alg}. Supported values are {philox} for the Philox "
            f"algorithm, {threefry} for the ThreeFry algorithm, and {auto} for auto-selection.")


def get_key_counter_alg(seed, alg):
    """(key, counter, alg) for the V2 ops from a shape-[2] seed. Philox scrambles the seed as
    AUTO_SELECT does on CPU (TF's Python scrambling gives the same bits)."""
    if alg is None:
        alg = Algorithm.AUTO_SELECT.value
    alg = convert_alg_to_int(alg)
    if alg in (Algorithm.AUTO_SELECT.value, Algorithm.PHILOX.value):
        key, counter = execute("StatelessRandomGetKeyCounter", [_seed_tensor(seed)])
    elif alg == Algorithm.THREEFRY.value:
        # ThreeFry's one-word counter: TF's CPU kernels reject it ("counter must be a vector ...").
        s = [int(v) & 0xFFFFFFFF for v in _seed_tensor(seed).numpy()]
        key = convert_to_tensor([_to_int64(s[0] | s[1] << 32)], dtype=dtypes.int64)
        counter = convert_to_tensor([0], dtype=dtypes.int64)
    else:
        raise ValueError(unsupported_alg_error_msg(alg))
    return key, counter, alg


def alg_tensor(alg):
    return alg if isinstance(alg, _core.Tensor) else convert_to_tensor(alg, dtype=dtypes.int32)


def _seed_tensor(seed):
    if isinstance(seed, _core.Tensor):
        return seed
    if hasattr(seed, "_as_tensor"):
        return seed._as_tensor()
    return convert_to_tensor(seed)


def _to_int64(n):
    return n - (1 << 64) if n >= 1 << 63 else n
