"""tf.config.experimental: the older spellings of the device functions, and memory statistics."""
from eagerflow.framework.config import (get_memory_growth, get_memory_info, get_memory_usage, get_visible_devices,
                                        list_logical_devices, list_physical_devices, reset_memory_stats,
                                        set_memory_growth, set_visible_devices)

__all__ = ["get_memory_growth", "get_memory_info", "get_memory_usage", "get_visible_devices", "list_logical_devices",
           "list_physical_devices", "reset_memory_stats", "set_memory_growth", "set_visible_devices"]
