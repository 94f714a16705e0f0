"""tf.config.threading: the sizes of the inter-op and intra-op thread pools."""
from eagerflow.framework.config import (get_inter_op_parallelism_threads, get_intra_op_parallelism_threads,
                                        set_inter_op_parallelism_threads, set_intra_op_parallelism_threads)

__all__ = ["get_inter_op_parallelism_threads", "get_intra_op_parallelism_threads",
           "set_inter_op_parallelism_threads", "set_intra_op_parallelism_threads"]
