"""Model.summary(): Keras 2's table of layers (name and class, output shape, parameter count and, for
non-linear graphs, the inbound connections), then the parameter totals with their memory size."""
import numpy as np

_BREAKS = ("),", "},", "],", "',")


def _count(weights):
    unique = {id(w): w for w in weights}.values()
    return int(sum(np.prod([d or 0 for d in w.shape.as_list()], dtype=np.int64) for w in unique))


def _memory(weights):
    unique = {id(w): w for w in weights}.values()
    return int(sum(np.prod(w.shape.as_list(), dtype=np.int64) * w.dtype.size for w in unique
                   if None not in w.shape.as_list()))


def readable_memory_size(size):
    for unit in ["Byte", "KB", "MB", "GB", "TB", "PB"]:
        if size / 1024 < 1:
            return f"{size:.2f} {unit}"
        size /= 1024
    return f"{size:.2f} PB"


def _is_sequential_like(model):
    if type(model).__name__ == "Sequential" or not getattr(model, "_is_graph_network", False):
        return True
    nodes = []
    for group in model._nodes_by_depth.values():
        if len(group) > 1 or (len(group) == 1 and len(group[0].keras_inputs) > 1):
            return False
        nodes += group
    for layer in model.layers:  # a layer used twice makes it a graph
        if sum(1 for n in layer._inbound_nodes if any(n is m for m in nodes)) > 1:
            return False
    return True


def _row(fields, positions, print_fn):
    left = [str(x) for x in fields]
    while any(left):
        line = ""
        for col in range(len(left)):
            start = positions[col - 1] if col > 0 else 0
            last = col == len(positions) - 1
            space = 0 if last else 2
            cutoff = positions[col] - start - space - (0 if last else 1)
            fit = left[col][:cutoff]
            cuts = [fit.find(b) + len(b) for b in _BREAKS if fit.find(b) >= 0]  # break after a ")," etc.
            if cuts:
                cutoff = min(cuts)
                fit = fit[:cutoff]
            if col == 0:
                line += " "
            line += fit + " " * space
            left[col] = left[col][cutoff:]
            line += " " * (positions[col] - len(line))
        print_fn(line)


def _output_shape(layer):
    try:
        return layer.output_shape
    except AttributeError:
        return "multiple"


def print_summary(model, line_length=None, positions=None, print_fn=None, expand_nested=False,
                  show_trainable=False, layer_range=None):
    print_fn = print_fn or print
    sequential_like = _is_sequential_like(model)
    if sequential_like:
        line_length = line_length or 65
        positions = positions or [0.45, 0.85, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #"]
    else:
        line_length = line_length or 98
        positions = positions or [0.3, 0.6, 0.70, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #", "Connected to"]
        relevant = [n for group in model._nodes_by_depth.values() for n in group]
    if positions[-1] <= 1:
        positions = [int(line_length * p) for p in positions]
    if show_trainable:
        line_length += 11
        positions = list(positions) + [line_length]
        header.append("Trainable")
    layers = model.layers
    if layer_range is not None:
        names = [l.name for l in layers]
        layers = layers[names.index(layer_range[0]):names.index(layer_range[1]) + 1]

    print_fn(f'Model: "{model.name}"')
    print_fn("_" * line_length)
    _row(header, positions, print_fn)
    print_fn("=" * line_length)
    for layer in layers:
        name = f"{layer.name} ({type(layer).__name__})"
        if sequential_like:
            if not layer.built and not getattr(layer, "_is_graph_network", False):
                params = "0 (unused)"
            else:
                params = layer.count_params()
            fields = [name, _output_shape(layer), params]
        else:
            connections = []
            for node in layer._inbound_nodes:
                if not any(node is n for n in relevant):
                    continue
                for inbound, node_index, tensor_index, _ in node.iterate_inbound():
                    connections.append(f"{inbound.name}[{node_index}][{tensor_index}]")
            fields = [name, _output_shape(layer), layer.count_params(), connections]
        if show_trainable:
            fields.append("Y" if layer.trainable else "N")
        _row(fields, positions, print_fn)
        print_fn(" " * line_length)
    print_fn("=" * line_length)
    trainable, non_trainable = model.trainable_weights, model.non_trainable_weights
    t_count, n_count = _count(trainable), _count(non_trainable)
    t_mem, n_mem = _memory(trainable), _memory(non_trainable)
    print_fn(f"Total params: {t_count + n_count} ({readable_memory_size(t_mem + n_mem)})")
    print_fn(f"Trainable params: {t_count} ({readable_memory_size(t_mem)})")
    print_fn(f"Non-trainable params: {n_count} ({readable_memory_size(n_mem)})")
    print_fn("_" * line_length)
