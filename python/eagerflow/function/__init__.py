"""tf.function: tracing Python into C++ graphs (Function, ConcreteFunction, FuncGraph)."""
from eagerflow.function.polymorphic_function import Function, function, run_functions_eagerly
from eagerflow.function.concrete_function import ConcreteFunction
from eagerflow.framework.tensor_spec import TensorSpec
