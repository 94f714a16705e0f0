"""tf.summary: TensorBoard event files in TensorFlow's format."""
from eagerflow.summary import experimental
from eagerflow.summary._ops import graph, histogram, image, scalar, should_record_summaries, text, write
from eagerflow.summary._trace import trace_export, trace_off, trace_on
from eagerflow.summary._writer import (SummaryWriter, create_file_writer, create_noop_writer, flush, record_if)

__all__ = ["SummaryWriter", "create_file_writer", "create_noop_writer", "experimental", "flush", "graph", "histogram", "image",
           "record_if", "scalar", "should_record_summaries", "text", "trace_export", "trace_off", "trace_on", "write"]
