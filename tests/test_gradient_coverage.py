"""The gradient modules exist and import on their own. Which ops have a gradient entry, and the
numerical check of each differentiable op, come from the op table (tests/test_op_table.py)."""
import importlib.util


def test_gradient_modules_import_standalone():
    for m in ("array_grad", "nn_grad", "linalg_grad", "math_grad", "gradients_impl_all"):
        assert importlib.util.find_spec("eagerflow.ops." + m) is not None
