"""Keras 2's serialized form of a configurable object ({'module', 'class_name', 'config', 'registered_name'})."""


def serialize_keras_object(obj, module):
    """None for None; else the object's class and config as Keras 2's get_config() nests them."""
    if obj is None:
        return None
    return {"module": module, "class_name": type(obj).__name__, "config": obj.get_config(), "registered_name": None}
