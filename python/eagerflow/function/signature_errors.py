"""The error for a call whose inputs are incompatible with a tf.function's input_signature."""
import builtins


class ValueError(TypeError, builtins.ValueError):  # noqa: A001 - the name tracebacks show
    """Both TypeError (what TF 2.21 raises: "Binding inputs to tf.function failed ...") and
    ValueError (what TF 2.11 raised, and what the TF guide's examples catch), so code written for
    either version catches it; tracebacks show it as `...ValueError: ...`."""
