"""tf.compat.v1: the TF1 graph API (Session, placeholder, default graph) on eagerflow's graphs."""
from eagerflow.compat.v1 import dtypes, errors, nn
from eagerflow.compat.v1._session import InteractiveSession, Session, get_default_session
from eagerflow.compat.v1._graph_api import (disable_eager_execution, disable_v2_behavior, enable_eager_execution,
                                            get_default_graph, global_variables, global_variables_initializer,
                                            initialize_all_variables, local_variables_initializer, name_scope,
                                            placeholder, reset_default_graph, trainable_variables,
                                            variables_initializer)
from eagerflow.framework.ops import Graph, Operation, control_dependencies, executing_eagerly
from eagerflow.ops.variables import Variable
from eagerflow.framework.tensor import Tensor
from eagerflow.ops.no_op import no_op
from eagerflow.eager.gradients_impl import gradients_v1 as gradients, hessians_v1 as hessians
from eagerflow.framework.convert import constant, convert_to_tensor_v2 as convert_to_tensor
from eagerflow.framework.dtypes import (DType, as_dtype, bfloat16, bool, complex64, complex128, double, float16,
                                        float32, float64, half, int8, int16, int32, int64, string, uint8, uint16,
                                        uint32, uint64)

__all__ = ["DType", "Graph", "InteractiveSession", "Operation", "Session", "Tensor", "Variable", "as_dtype", "bfloat16",
           "bool", "complex128", "complex64", "constant", "control_dependencies", "convert_to_tensor", "disable_eager_execution", "disable_v2_behavior", "double", "dtypes",
           "enable_eager_execution", "errors", "executing_eagerly", "float16", "float32", "float64",
           "get_default_graph", "get_default_session", "gradients", "hessians", "global_variables", "global_variables_initializer", "half", "nn",
           "initialize_all_variables", "int8", "int16", "int32", "int64", "local_variables_initializer",
           "name_scope", "no_op", "placeholder", "reset_default_graph", "string", "trainable_variables", "uint8", "uint16", "uint32", "uint64",
           "variables_initializer"]
