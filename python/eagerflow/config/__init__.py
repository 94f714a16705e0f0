"""tf.config namespace."""
# --- (framework/config.py) ---
from eagerflow.framework.config import (LogicalDevice, PhysicalDevice, get_visible_devices, list_logical_devices,
                                        list_physical_devices, set_visible_devices)
from eagerflow.config import experimental, threading
# --- function (function/polymorphic_function.py) ---
from eagerflow.function.polymorphic_function import functions_run_eagerly, run_functions_eagerly
# --- (config/optimizer.py: graph optimizer options) ---
from eagerflow.config import optimizer
