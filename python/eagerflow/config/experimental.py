"""tf.config.experimental: the older spellings of the device functions."""
from eagerflow.framework.config import (get_memory_growth, get_visible_devices, list_logical_devices,
                                        list_physical_devices, set_memory_growth, set_visible_devices)

__all__ = ["get_memory_growth", "get_visible_devices", "list_logical_devices", "list_physical_devices",
           "set_memory_growth", "set_visible_devices"]
