"""Benchmark fixtures: TensorFlow is compared side by side when it is installed (extra 'tf')."""
import pytest

try:  # pragma: no cover - optional
    import tensorflow as real_tf  # noqa: F401
except Exception:  # ImportError, or a broken install
    real_tf = None


@pytest.fixture
def tf_or_skip():
    if real_tf is None:
        pytest.skip("TensorFlow is not installed (pip install '.[tf]' to compare)")
    return real_tf
