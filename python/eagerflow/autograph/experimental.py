"""tf.autograph.experimental: do_not_convert, set_loop_options, Feature."""
from eagerflow.autograph._core.converter import Feature
from eagerflow.autograph._impl.api import do_not_convert
from eagerflow.autograph._lang.directives import set_loop_options

__all__ = ["Feature", "do_not_convert", "set_loop_options"]
