"""tf.keras.optimizers.Optimizer (Keras 2's optimizer of tf_keras): iterations and learning-rate variables,
slot variables ("Adam/m/dense/kernel:0") made on the first apply, gradient filtering and clipping;
subclasses give `build` and `update_step`.

Every update is a variable op (assign / assign_add / assign_sub), so `apply_gradients` works eagerly
and inside tf.function alike, and slot variables are plain tf.Variables: a tf.function trace that
builds a new optimizer after the first trace gets TF's singleton-variable ValueError.
"""
from eagerflow.framework import dtypes
from eagerflow.framework.indexed_slices import IndexedSlices
from eagerflow.framework.ops import name_scope
from eagerflow.framework.tf_logging import get_logger
from eagerflow.ops.variables import Variable
from eagerflow.keras._optimizers.learning_rate_schedule import LearningRateSchedule
from eagerflow.ops import math_ops, nn_ops
from eagerflow.train._checkpoint import restore_deferred as _restore_deferred  # checkpoint values for new slots


class CallableList(list):
    """Keras 2's `optimizer.variables`: a list that may also be called (`optimizer.variables()`)."""

    def __call__(self):
        return self


def _base(v):
    """The variable itself for an _UnreadVariable (what assign returns)."""
    return v.__dict__.get("_parent", v)


class Optimizer:
    """Base class of Keras optimizers."""

    def __init__(self, learning_rate, weight_decay=None, clipnorm=None, clipvalue=None, global_clipnorm=None,
                 use_ema=False, ema_momentum=0.99, ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        for key in kwargs:
            raise TypeError(f"{key} is not a valid argument, kwargs should be empty  for "
                            "`optimizer_experimental.Optimizer`.")
        self.name = type(self).__name__ if name is None else name
        if sum(x is not None for x in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError(f"Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set. Received: "
                             f"clipnorm={clipnorm}, clipvalue={clipvalue}, global_clipnorm={global_clipnorm}")
        if use_ema or gradient_accumulation_steps or loss_scale_factor:
            raise NotImplementedError("use_ema, gradient_accumulation_steps and loss_scale_factor are not "
                                      "implemented in eagerflow's optimizers.")
        self.weight_decay = weight_decay
        self.clipnorm, self.clipvalue, self.global_clipnorm = clipnorm, clipvalue, global_clipnorm
        self.use_ema, self.ema_momentum, self.ema_overwrite_frequency = use_ema, ema_momentum, ema_overwrite_frequency
        self.loss_scale_factor = loss_scale_factor
        self.gradient_accumulation_steps = gradient_accumulation_steps
        self.built = False
        self._variables = []
        self._trainable_variables = []
        self._index = {}  # id(variable) -> position in _trainable_variables
        self._iterations = self._make_variable(0, "iteration", dtypes.int64)
        if isinstance(learning_rate, LearningRateSchedule) or (callable(learning_rate)
                                                                and not hasattr(learning_rate, "_handle")):
            self._learning_rate = learning_rate
        else:  # a number (Keras 2 takes ints, bools and NumPy numbers too)
            try:
                value = float(learning_rate)
            except (TypeError, ValueError):
                raise TypeError(f"Cannot convert {learning_rate!r} to EagerTensor of dtype float") from None
            self._learning_rate = self._make_variable(value, "learning_rate", dtypes.float32, track=False)

    def _make_variable(self, initial, name, dtype, shape=None, track=True):
        """A non-trainable variable named exactly `name` (outside any enclosing name scope, as Keras 2)."""
        with name_scope(""):
            if callable(initial):
                v = Variable(lambda: initial(shape, dtype=dtype), dtype=dtype, trainable=False, name=name,
                             shape=shape)
            else:
                v = Variable(initial, dtype=dtype, trainable=False, name=name)
        if track:
            self._variables.append(v)
        return v

    # --- state -----------------------------------------------------------------------------------
    @property
    def iterations(self):
        return self._iterations

    @property
    def variables(self):
        """The iteration counter and the slot variables (callable too, as in Keras 2)."""
        return CallableList(self._variables)

    @property
    def learning_rate(self):
        lr = self._learning_rate
        if isinstance(lr, LearningRateSchedule):
            return lr(self._iterations)
        if callable(lr) and not hasattr(lr, "_handle"):
            return lr()
        return lr

    @learning_rate.setter
    def learning_rate(self, value):
        if isinstance(value, LearningRateSchedule) or (callable(value) and not hasattr(value, "_handle")):
            self._learning_rate = value
            return
        if isinstance(self._learning_rate, LearningRateSchedule) or not hasattr(self._learning_rate, "_handle"):
            raise TypeError("This optimizer was created with a `LearningRateSchedule` object as its "
                            "`learning_rate` constructor argument, hence its learning rate is not settable. If "
                            "you need the learning rate to be settable, you should instantiate the optimizer with "
                            "a float `learning_rate` argument.")
        self._learning_rate.assign(value)

    def add_variable_from_reference(self, reference_variable, name=None, initializer="zeros"):
        """A slot variable shaped like `reference_variable`, named after it ("Adam/m/dense/kernel:0")."""
        ref = _base(reference_variable)
        base = ref.name[:-2] if ref.name.endswith(":0") else ref.name
        slot_name = f"{self.name}/{name}/{base}"
        from eagerflow.keras import initializers
        init = initializers.get(initializer)
        return self._make_variable(init, slot_name, ref.dtype, shape=tuple(ref.shape.as_list()))

    def _slot_groups(self):
        """The slot variables a subclass keeps: a list of (enabled, [(attribute, slot name)], initializer).
        The slots of one group are made variable by variable (Adam: m then v of each variable), the groups
        one after the other, which is the order Keras 2 makes them in; a disabled group's lists are empty."""
        return []

    def build(self, var_list):
        """Records the variables this optimizer updates and makes the subclass's slot variables (once)."""
        if self.built:
            return
        self._trainable_variables = list(var_list)
        self._index = {id(_base(v)): i for i, v in enumerate(self._trainable_variables)}
        for enabled, slots, initializer in self._slot_groups():
            made = {attr: [] for attr, _ in slots}
            for v in (self._trainable_variables if enabled else []):
                for attr, name in slots:
                    made[attr].append(self.add_variable_from_reference(v, name, initializer))
            for attr, variables in made.items():
                setattr(self, attr, variables)
        self.built = True

    def _slot(self, slots, variable):
        return slots[self._index[id(_base(variable))]]

    # --- applying --------------------------------------------------------------------------------
    def apply_gradients(self, grads_and_vars):
        """Applies (gradient, variable) pairs; returns the updated `iterations` (Keras 2)."""
        grads, trainable_variables = zip(*grads_and_vars)
        return self.apply(grads, trainable_variables)

    def compute_gradients(self, loss, var_list, tape=None):
        """(gradient, variable) pairs of `loss`: a callable (run under a new tape) or a tensor recorded by `tape`."""
        from eagerflow.eager.backprop import GradientTape
        if not callable(loss) and tape is None:
            raise ValueError(f"`tape` is required when a `Tensor` loss is passed. Received: loss={loss}, "
                             f"tape={tape}.")
        if tape is None:
            tape = GradientTape()
        if callable(loss):
            with tape:
                if not callable(var_list):
                    tape.watch(var_list)
                loss = loss()
        if callable(var_list):
            var_list = var_list()
        grads = tape.gradient(loss, var_list)
        return list(zip(grads, var_list))

    def minimize(self, loss, var_list, tape=None):
        """Computes the gradients of `loss` (Keras 2's `minimize`) and applies them."""
        grads_and_vars = self.compute_gradients(loss, var_list, tape)
        self.apply_gradients(grads_and_vars)

    def apply(self, grads, trainable_variables=None):
        """One update step: slot variables are made on the first call, None gradients are skipped."""
        grads = list(grads)
        if len(grads) == 0:
            return  # nothing to do (Keras does not count an empty step either)
        if trainable_variables is None:
            if not self.built:
                raise ValueError("When passing `grads` without `variables`, the optimizer must already be built "
                                 "on a list of variables. Call `optimizer.build(trainable_variables)` first.")
            trainable_variables = self._trainable_variables
        else:
            trainable_variables = list(trainable_variables)
            if not self.built:
                self.build(trainable_variables)
                self.built = True
                _restore_deferred(self)
            for v in trainable_variables:
                if id(_base(v)) not in self._index:
                    raise ValueError(f"Unknown variable: {v!r}. This optimizer can only be called for the variables "
                                     f"it was originally built with. When working with a new set of variables, "
                                     f"you should recreate a new optimizer instance.")
        if len(grads) != len(trainable_variables):
            raise ValueError(f"Expected the same number of gradients and variables. Received: {len(grads)} "
                             f"gradients and {len(trainable_variables)} variables.")
        grads, trainable_variables = self._filter_empty_gradients(grads, trainable_variables)
        # Keras 2 deduplicates sparse gradients before its sparse updates: the same as the dense sum.
        grads = [g._as_tensor() if isinstance(g, IndexedSlices) else g for g in grads]
        grads = self._clip_gradients(grads)
        learning_rate = self.learning_rate
        self._apply_weight_decay(trainable_variables, learning_rate)
        for g, v in zip(grads, trainable_variables):
            self.update_step(g, v, learning_rate)
        step = self._iterations.assign_add(1)
        for v in trainable_variables:
            if getattr(v, "constraint", None) is not None:
                v.assign(v.constraint(v))
        return step

    def _filter_empty_gradients(self, grads, variables):
        kept = [(g, v) for g, v in zip(grads, variables) if g is not None]
        if not kept:
            names = [v.name for v in variables]
            pairs = tuple(zip(grads, variables))
            raise ValueError(f"No gradients provided for any variable: ({names},). Provided `grads_and_vars` is "
                             f"{pairs}.")
        if len(kept) < len(grads):
            missing = [v.name for g, v in zip(grads, variables) if g is None]
            get_logger().warning(f"Gradients do not exist for variables {missing} when minimizing the loss. If "
                                 "you're using `model.compile()`, did you forget to provide a `loss` argument?")
        return [g for g, _ in kept], [v for _, v in kept]

    def _clip_gradients(self, grads):
        if self.clipnorm is not None and self.clipnorm > 0:
            return [nn_ops.clip_by_norm(g, self.clipnorm) for g in grads]
        if self.clipvalue is not None:
            return [math_ops.clip_by_value(g, -self.clipvalue, self.clipvalue) for g in grads]
        if self.global_clipnorm is not None and self.global_clipnorm > 0:
            # the norm in float32, so that gradients of several float dtypes share one
            norm = nn_ops.global_norm([math_ops.cast(g, dtypes.float32) for g in grads])
            return nn_ops.clip_by_global_norm(grads, self.global_clipnorm, use_norm=norm)[0]
        return grads

    def _apply_weight_decay(self, variables, learning_rate):
        if not self.weight_decay:
            return
        for v in variables:
            lr = math_ops.cast(learning_rate, v.dtype)
            v.assign_sub(v * math_ops.cast(self.weight_decay, v.dtype) * lr)

    def update_step(self, gradient, variable, learning_rate):
        raise NotImplementedError

    # --- config ----------------------------------------------------------------------------------
    def get_config(self):
        lr = self._learning_rate
        if hasattr(lr, "_handle"):
            lr = float(lr.numpy())
        return {"name": self.name, "learning_rate": lr, "weight_decay": self.weight_decay,
                "clipnorm": self.clipnorm, "global_clipnorm": self.global_clipnorm, "clipvalue": self.clipvalue,
                "use_ema": self.use_ema, "ema_momentum": self.ema_momentum,
                "ema_overwrite_frequency": self.ema_overwrite_frequency, "loss_scale_factor": self.loss_scale_factor,
                "gradient_accumulation_steps": self.gradient_accumulation_steps}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


Optimizer.__module__ = "keras.optimizers"
