"""tf.types.experimental: TraceType, the protocol tf.function uses to decide when to retrace."""
from eagerflow.framework.trace import PlaceholderContext, TraceType, TracingContext  # noqa: F401

__all__ = ["TraceType"]
