"""tf.config: devices, thread pools, graph optimizer options, running functions eagerly."""
from eagerflow.config import experimental, optimizer, threading
from eagerflow.framework.config import (LogicalDevice, PhysicalDevice, get_visible_devices, list_logical_devices,
                                        list_physical_devices, set_visible_devices)
from eagerflow.function.polymorphic_function import functions_run_eagerly, run_functions_eagerly

__all__ = ["LogicalDevice", "PhysicalDevice", "experimental", "functions_run_eagerly", "get_visible_devices",
           "list_logical_devices", "list_physical_devices", "optimizer", "run_functions_eagerly",
           "set_visible_devices", "threading"]
