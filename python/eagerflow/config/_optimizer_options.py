"""tf.config.optimizer: switches for the graph optimizer that runs on every traced function
before its plan is built (cpp/graph/passes). TF's option names; eagerflow maps them onto its own
passes and ignores the rest (as TF ignores unknown names):
  constant_folding=False          -> no constant folding
  disable_model_pruning=True      -> no pruning of unused nodes
  arithmetic_optimization=False   -> no common-subexpression elimination (TF does CSE there)
  remapping=False                 -> no elementwise fusion and no Conv2D + BiasAdd (+ Relu) fusion
                                     (TF fuses ops in its remapper)
  scoped_allocator_optimization=False -> no buffer reuse in the executor (memory planning)
  loop_optimization=False         -> While loops over scalars are not compiled to the scalar
                                     interpreter (kernels/cpu/scalar_loop.h); they run their plans
  disable_meta_optimizer=True     -> no passes at all
  min_graph_nodes=N               -> graphs with fewer than N nodes are not optimized
Options apply to functions traced (plans built) afterwards."""
import operator

from eagerflow import _core

# TF's RewriterConfig fields in their proto order (the order get_experimental_options uses).
_TOGGLES = ('layout_optimizer', 'constant_folding', 'shape_optimization', 'remapping', 'arithmetic_optimization',
            'dependency_optimization', 'loop_optimization', 'function_optimization', 'debug_stripper',
            'disable_model_pruning', 'scoped_allocator_optimization', 'pin_to_host_optimization',
            'implementation_selector', 'auto_mixed_precision', 'disable_meta_optimizer')
_ALWAYS_SHOWN = ('disable_model_pruning', 'disable_meta_optimizer')
_KNOWN = frozenset(_TOGGLES + ('min_graph_nodes', 'auto_parallel'))

_options = {}


def _apply():
    off = bool(_options.get('disable_meta_optimizer', False))

    def on(name):  # a toggle left unset keeps the default (on)
        return not off and _options.get(name, True) is not False

    _core.set_optimizer_options({
        'pruning': not off and not _options.get('disable_model_pruning', False),
        'constant_folding': on('constant_folding'),
        'common_subexpression_elimination': on('arithmetic_optimization'),
        'remapping': on('remapping'),
        'elementwise_fusion': on('remapping'),
        'memory_planning': on('scoped_allocator_optimization'),
        'loop_optimization': on('loop_optimization'),
        'min_graph_nodes': int(_options.get('min_graph_nodes', 0) or 0),
    })


def set_experimental_options(options):
    """Sets experimental optimizer options (a dict of TF option names); None resets one."""
    updates = dict(options)
    checked = {}
    for name, value in updates.items():
        if name not in _KNOWN:
            continue
        if value is not None:
            value = operator.index(value)  # TypeError: 'str' object cannot be interpreted as an integer
            if name != 'min_graph_nodes':
                value = bool(value)
        checked[name] = value
    for name, value in checked.items():
        if value is None:
            _options.pop(name, None)
        else:
            _options[name] = value
    _apply()


def get_experimental_options():
    """The optimizer options set so far, as TF reports them."""
    out = {}
    for name in _TOGGLES:
        if name in _options:
            out[name] = bool(_options[name])
        elif name in _ALWAYS_SHOWN:
            out[name] = False
    if _options.get('min_graph_nodes'):
        out['min_graph_nodes'] = int(_options['min_graph_nodes'])
    return out

