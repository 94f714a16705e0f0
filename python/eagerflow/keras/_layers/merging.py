"""keras.layers Add, Subtract, Multiply, Average, Maximum, Minimum and Concatenate: layers that
merge a list of inputs."""
from functools import reduce

from eagerflow.keras._layers.layer import Layer
from eagerflow.ops import array_ops, math_ops


class _Merge(Layer):
    def _merge(self, inputs):
        raise NotImplementedError

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) < 1:
            raise ValueError(f"A merge layer should be called on a list of inputs. Received: inputs={inputs} (not a "
                             "list of tensors)")
        return self._merge(list(inputs))


class Add(_Merge):
    """The elementwise sum of the inputs."""
    def _merge(self, inputs):
        return reduce(math_ops.add, inputs)


class Subtract(_Merge):
    """inputs[0] - inputs[1]."""
    def _merge(self, inputs):
        if len(inputs) != 2:
            raise ValueError(f"A `Subtract` layer should be called on exactly 2 inputs. Received: inputs={inputs}")
        return math_ops.subtract(inputs[0], inputs[1])


class Multiply(_Merge):
    """The elementwise product of the inputs."""
    def _merge(self, inputs):
        return reduce(math_ops.multiply, inputs)


class Average(_Merge):
    """The elementwise mean of the inputs."""
    def _merge(self, inputs):
        return reduce(math_ops.add, inputs) / len(inputs)


class Maximum(_Merge):
    """The elementwise maximum of the inputs."""
    def _merge(self, inputs):
        return reduce(math_ops.maximum, inputs)


class Minimum(_Merge):
    """The elementwise minimum of the inputs."""
    def _merge(self, inputs):
        return reduce(math_ops.minimum, inputs)


class Concatenate(_Merge):
    """The inputs joined along `axis`."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def _merge(self, inputs):
        return array_ops.concat(inputs, self.axis)


for _cls in (Add, Subtract, Multiply, Average, Maximum, Minimum, Concatenate):
    _cls.__module__ = "keras.layers"
