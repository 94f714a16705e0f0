"""tf.function. Until graph tracing lands (issue 3), a Function runs its Python function
eagerly — the same semantics as tf.config.run_functions_eagerly(True)."""
import functools


class Function:
    """A callable wrapping `python_function`; runs it eagerly for now."""

    def __init__(self, python_function, input_signature=None, autograph=True, **kwargs):
        self.python_function = python_function
        self.input_signature = input_signature
        functools.update_wrapper(self, python_function)

    def __call__(self, *args, **kwargs):
        return self.python_function(*args, **kwargs)

    def __get__(self, instance, owner):
        if instance is None:
            return self
        return functools.partial(self.__call__, instance)


def function(func=None, input_signature=None, autograph=True, jit_compile=None, reduce_retracing=False,
             experimental_relax_shapes=None, **kwargs):
    """tf.function decorator in all its call forms."""
    def wrap(f):
        return Function(f, input_signature=input_signature, autograph=autograph)
    return wrap if func is None else wrap(func)
