"""Model.compile/fit/evaluate/predict (Keras 2): the step methods run inside a tf.function (one trace,
plus one relaxed-shape trace for a last partial batch) unless `run_eagerly`; the loop around them stays
in Python and keeps logs as tensors until a callback needs numbers."""

import numpy as np

from eagerflow.eager.backprop import GradientTape
from eagerflow.framework import nest
from eagerflow.keras import _callbacks as callbacks_mod
from eagerflow.keras._engine import compile_utils, data_adapter
from eagerflow.keras._metrics import Metric

_NOT_COMPILED = "You must compile your model before training/testing. Use `model.compile(optimizer, loss)`."
_EMPTY_LOGS = ("Unexpected result of `{}_function` (Empty logs). This could be due to issues in input pipeline that "
               "resulted in an empty dataset. Otherwise, please use `Model.compile(..., run_eagerly=True)`, or "
               "`tf.config.run_functions_eagerly(True)` for more information of where went wrong, or file a "
               "issue/bug to `tf.keras`.")


def _function(fn):
    from eagerflow.function.polymorphic_function import function
    return function(fn, reduce_retracing=True)


def _resolve_verbose(verbose):
    return 1 if verbose == "auto" else verbose


def _flatten_metrics_in_order(logs, names):
    results = [logs[n] for n in names if n in logs]
    results += [logs[k] for k in sorted(logs) if k not in names]
    return results[0] if len(results) == 1 else results


def _as_callback_list(callbacks, model, verbose, epochs, steps, add_history=False):
    if isinstance(callbacks, callbacks_mod.CallbackList):
        return callbacks
    return callbacks_mod.CallbackList(callbacks, add_history=add_history, add_progbar=verbose != 0, model=model,
                                      verbose=verbose, epochs=epochs, steps=steps)


def _concat(batches):
    """Per-batch outputs (tensors, or structures of them) joined along the batch axis as NumPy arrays."""
    flat = [nest.flatten(b) for b in batches]
    joined = [np.concatenate([np.asarray(f[i].numpy() if hasattr(f[i], "numpy") else f[i]) for f in flat])
              for i in range(len(flat[0]))]
    return nest.pack_sequence_as(batches[0], joined)


class TrainingMixin:
    """The compile/fit API of keras.Model (mixed into Model before Layer)."""

    # --- compile ---------------------------------------------------------------------------------
    def compile(self, optimizer="rmsprop", loss=None, metrics=None, loss_weights=None, weighted_metrics=None,
                run_eagerly=None, steps_per_execution=None, jit_compile=None, pss_evaluation_shards=0, **kwargs):
        from eagerflow.keras._optimizers.by_name import get as get_optimizer
        if kwargs:
            raise TypeError(f"Invalid keyword argument(s) in `compile()`: {tuple(kwargs)}. Valid keyword arguments "
                            f"include \"cloning\", \"experimental_run_tf_function\", \"distribute\", "
                            f"\"target_tensors\", or \"sample_weight_mode\".")
        self.optimizer = get_optimizer(optimizer)
        self.loss = loss
        output_names = self._compiled_output_names()
        self.compiled_loss = compile_utils.LossesContainer(loss, loss_weights=loss_weights,
                                                           output_names=output_names)
        self.compiled_metrics = compile_utils.MetricsContainer(metrics, weighted_metrics,
                                                               output_names=output_names)
        self._run_eagerly = run_eagerly
        self._steps_per_execution = steps_per_execution or 1
        self._jit_compile = jit_compile
        self._is_compiled = True
        self.stop_training = False
        self.train_function = self.test_function = self.predict_function = None

    def _compiled_output_names(self):
        """The names that per-output losses and metrics go by: a functional model's output layers (a
        subclassed model's are made from its outputs on the first batch)."""
        if not self.__dict__.get("_is_graph_network", False):
            return None
        return list(self.output_names)

    @property
    def run_eagerly(self):
        from eagerflow.function.polymorphic_function import functions_run_eagerly
        return bool(self.__dict__.get("_run_eagerly")) or functions_run_eagerly()

    @run_eagerly.setter
    def run_eagerly(self, value):
        self._run_eagerly = value
        self.train_function = self.test_function = self.predict_function = None

    def _assert_compile_was_called(self):
        if not self.__dict__.get("_is_compiled", False):
            raise RuntimeError(_NOT_COMPILED)

    @property
    def metrics(self):
        """The loss tracker and compiled metrics (once built by a first batch), then metrics held as
        attributes of the model."""
        out = []
        if self.__dict__.get("_is_compiled", False):
            out += self.compiled_loss.metrics + self.compiled_metrics.metrics
        seen = {id(m) for m in out}
        for value in self.__dict__.values():
            if isinstance(value, Metric) and id(value) not in seen:
                seen.add(id(value))
                out.append(value)
        return out

    @property
    def metrics_names(self):
        return [m.name for m in self.metrics]

    def reset_metrics(self):
        for m in self.metrics:
            m.reset_state()

    # --- steps (overridable, Keras 2's signatures) -------------------------------------------------
    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None):
        return self.compiled_loss(y, y_pred, sample_weight, regularization_losses=getattr(self, "losses", None))

    def compute_metrics(self, x, y, y_pred, sample_weight):
        self.compiled_metrics.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def get_metrics_result(self):
        out = {}
        for m in self.metrics:
            r = m.result()
            if isinstance(r, dict):
                out.update(r)
            else:
                out[m.name] = r
        return out

    def _validate_target_and_loss(self, y, loss):
        if self.loss and y is None:
            raise ValueError(f"Target data is missing. Your model was compiled with loss={self.loss}, and therefore "
                             f"expects target data to be provided in `fit()`.")
        if loss is None:
            raise ValueError("No loss found. You may have forgotten to provide a `loss` argument in the "
                             "`compile()` method.")

    def train_step(self, data):
        x, y, sample_weight = data_adapter.unpack_x_y_sample_weight(data)
        if self.loss and y is None:
            self._validate_target_and_loss(y, self.loss)
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x, y, y_pred, sample_weight) if self.loss is not None else None
        self._validate_target_and_loss(y, loss)
        self.optimizer.minimize(loss, self.trainable_variables, tape=tape)
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def test_step(self, data):
        x, y, sample_weight = data_adapter.unpack_x_y_sample_weight(data)
        y_pred = self(x, training=False)
        self.compute_loss(x, y, y_pred, sample_weight)
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def predict_step(self, data):
        x, _, _ = data_adapter.unpack_x_y_sample_weight(data)
        return self(x, training=False)

    # --- the functions fit calls: `fn(iterator)` runs the next batch ----------------------------------
    def _make_function(self, attr, step, force):
        fn = self.__dict__.get(attr)
        if fn is not None and not force:
            return fn
        step_fn = step if self.run_eagerly else _function(step)

        def run(iterator):
            return step_fn(next(iterator))

        run.step_function = step_fn
        setattr(self, attr, run)
        return run

    def make_train_function(self, force=False):
        return self._make_function("train_function", lambda data: self.train_step(data), force)

    def make_test_function(self, force=False):
        return self._make_function("test_function", lambda data: self.test_step(data), force)

    def make_predict_function(self, force=False):
        return self._make_function("predict_function", lambda data: self.predict_step(data), force)

    # --- fit / evaluate / predict ------------------------------------------------------------------
    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None, validation_split=0.0,
            validation_data=None, shuffle=True, class_weight=None, sample_weight=None, initial_epoch=0,
            steps_per_epoch=None, validation_steps=None, validation_batch_size=None, validation_freq=1,
            max_queue_size=10, workers=1, use_multiprocessing=False):
        self._assert_compile_was_called()
        verbose = _resolve_verbose(verbose)
        if validation_split and validation_data is None:
            (x, y, sample_weight), validation_data = data_adapter.train_validation_split(
                (x, y, sample_weight), validation_split)
        handler = data_adapter.DataHandler(x, y, sample_weight, batch_size=batch_size,
                                           steps_per_epoch=steps_per_epoch, shuffle=shuffle,
                                           class_weight=class_weight)
        cbs = _as_callback_list(callbacks, self, verbose, epochs, handler.inferred_steps, add_history=True)
        train_function = self.make_train_function()
        self.stop_training = False
        batch_hooks = cbs.implements_batch_hooks("train")
        cbs.on_train_begin()
        epoch_logs = None
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            cbs.on_epoch_begin(epoch)
            logs = self._run_steps("train", train_function, handler.epoch_iterator(), cbs, batch_hooks)
            if logs is None:
                raise ValueError(_EMPTY_LOGS.format("train"))
            epoch_logs = callbacks_mod.sync_logs(logs)
            if validation_data is not None and self._should_eval(epoch, validation_freq):
                vx, vy, vsw = data_adapter.unpack_x_y_sample_weight(validation_data)
                val_logs = self.evaluate(vx, vy, sample_weight=vsw, batch_size=validation_batch_size or batch_size,
                                         steps=validation_steps, callbacks=cbs, return_dict=True)
                epoch_logs.update({"val_" + k: v for k, v in val_logs.items()})
            cbs.on_epoch_end(epoch, epoch_logs)
            if self.stop_training:
                break
        cbs.on_train_end(logs=epoch_logs)
        return cbs._history

    def _run_steps(self, mode, function, iterator, cbs, batch_hooks, outputs=None):
        """Runs `function` on each batch of `iterator` between the `mode`'s batch hooks (fit, evaluate and
        predict alike); returns the last logs. Predict appends each batch's outputs to `outputs`."""
        begin = getattr(cbs, f"on_{mode}_batch_begin")
        end = getattr(cbs, f"on_{mode}_batch_end")
        logs, step = None, 0
        while True:
            if batch_hooks:
                begin(step)
            try:
                logs = function(iterator)
            except StopIteration:
                break
            if outputs is not None:
                outputs.append(logs)
            if batch_hooks:
                end(step, logs if outputs is None else {"outputs": logs})
            step += 1
            if mode == "train" and self.stop_training:
                break
        return logs

    @staticmethod
    def _should_eval(epoch, validation_freq):
        epoch = epoch + 1
        if isinstance(validation_freq, int):
            if validation_freq < 1:
                raise ValueError("`validation_freq` can not be less than 1.")
            return epoch % validation_freq == 0
        if isinstance(validation_freq, (list, tuple)):
            return epoch in validation_freq
        raise ValueError(f"Expected `validation_freq` to be a list or int. Received: "
                         f"validation_freq={validation_freq} of the type {type(validation_freq)}.")

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None, steps=None,
                 callbacks=None, max_queue_size=10, workers=1, use_multiprocessing=False, return_dict=False,
                 **kwargs):
        self._assert_compile_was_called()
        verbose = _resolve_verbose(verbose)
        handler = data_adapter.DataHandler(x, y, sample_weight, batch_size=batch_size, steps_per_epoch=steps)
        cbs = _as_callback_list(callbacks, self, verbose, 1, handler.inferred_steps)
        test_function = self.make_test_function()
        batch_hooks = cbs.implements_batch_hooks("test")
        self.reset_metrics()
        cbs.on_test_begin()
        logs = self._run_steps("test", test_function, handler.epoch_iterator(), cbs, batch_hooks)
        if logs is None:
            raise ValueError(_EMPTY_LOGS.format("test"))
        logs = callbacks_mod.sync_logs(logs)
        cbs.on_test_end(logs=logs)
        return logs if return_dict else _flatten_metrics_in_order(logs, self.metrics_names)

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None, max_queue_size=10,
                workers=1, use_multiprocessing=False):
        verbose = _resolve_verbose(verbose)
        handler = data_adapter.DataHandler(x, batch_size=batch_size, steps_per_epoch=steps)
        cbs = _as_callback_list(callbacks, self, verbose, 1, handler.inferred_steps)
        predict_function = self.make_predict_function()
        batch_hooks = cbs.implements_batch_hooks("predict")
        cbs.on_predict_begin()
        outputs = []
        self._run_steps("predict", predict_function, handler.epoch_iterator(), cbs, batch_hooks, outputs)
        if not outputs:
            raise ValueError("Unexpected result of `predict_function` (Empty batch_outputs). Please use "
                             "`Model.compile(..., run_eagerly=True)`, or `tf.config.run_functions_eagerly(True)` "
                             "for more information of where went wrong, or file a issue/bug to `tf.keras`.")
        cbs.on_predict_end()
        return _concat(outputs)

    # --- single batches ----------------------------------------------------------------------------
    def _one_batch(self, make, x, y, sample_weight, class_weight=None):
        handler = data_adapter.DataHandler(x, y, sample_weight, batch_size=int(nest.flatten(x)[0].shape[0]) or 1,
                                           class_weight=class_weight)
        return make()(handler.epoch_iterator())

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None, reset_metrics=True,
                       return_dict=False):
        self._assert_compile_was_called()
        if reset_metrics:
            self.reset_metrics()
        logs = callbacks_mod.sync_logs(self._one_batch(self.make_train_function, x, y, sample_weight, class_weight))
        return logs if return_dict else _flatten_metrics_in_order(logs, self.metrics_names)

    def test_on_batch(self, x, y=None, sample_weight=None, reset_metrics=True, return_dict=False):
        self._assert_compile_was_called()
        if reset_metrics:
            self.reset_metrics()
        logs = callbacks_mod.sync_logs(self._one_batch(self.make_test_function, x, y, sample_weight))
        return logs if return_dict else _flatten_metrics_in_order(logs, self.metrics_names)

    def predict_on_batch(self, x):
        return _concat([self._one_batch(self.make_predict_function, x, None, None)])


