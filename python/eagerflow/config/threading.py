"""tf.config.threading namespace."""
from eagerflow.framework.config import (get_inter_op_parallelism_threads, get_intra_op_parallelism_threads,
                                        set_inter_op_parallelism_threads, set_intra_op_parallelism_threads)
