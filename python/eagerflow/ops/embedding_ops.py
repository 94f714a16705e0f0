"""tf.nn.embedding_lookup: rows of `params` gathered by `ids` (GatherV2, whose gradient it shares)."""
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.ops import array_ops, nn_ops


def embedding_lookup(params, ids, max_norm=None, name=None):
    """params[ids]; a list of shards is TF's "div" partition (consecutive ids per shard, so the
    shards in order are the whole table). max_norm rescales each embedding to that L2 norm at most."""
    if isinstance(params, (list, tuple)):
        if not params:
            raise ValueError(f"Length of params is currently {len(params)}. Need at least one param.")
        params = params[0] if len(params) == 1 else array_ops.concat([convert_to_tensor(p) for p in params], 0)
    ids = convert_to_tensor(ids)
    out = array_ops.gather(params, ids, name=name)
    if max_norm is None:
        return out
    ids_rank, out_rank = ids.shape.rank, out.shape.rank
    return nn_ops.clip_by_norm(out, max_norm, axes=list(range(ids_rank, out_rank)))
