"""tf.keras.callbacks (Keras 2): hooks called by fit/evaluate/predict, History, the progress bar logger,
early stopping, learning-rate control, NaN termination."""
import logging
import os
import sys

import numpy as np

from eagerflow.keras._utils.progbar import Progbar

_log = logging.getLogger("eagerflow.keras")


def _print_msg(message):
    sys.stdout.write(message + "\n")
    sys.stdout.flush()


def to_python(value):
    """A logged value as a Python number (tensors and NumPy scalars synced)."""
    if hasattr(value, "numpy"):
        value = value.numpy()
    if isinstance(value, np.ndarray) and value.ndim == 0 or isinstance(value, np.generic):
        return value.item()
    return value


def sync_logs(logs):
    return {k: to_python(v) for k, v in logs.items()} if logs else {}


_BATCH_HOOKS = {
    "train": ("on_train_batch_begin", "on_train_batch_end"),
    "test": ("on_test_batch_begin", "on_test_batch_end"),
    "predict": ("on_predict_batch_begin", "on_predict_batch_end"),
}


class Callback:
    """Base class: override any `on_*` hook; `self.model` and `self.params` are set by fit."""

    def __init__(self):
        self.validation_data = None
        self.model = None
        self.params = None
        self._supports_tf_logs = False

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self.model = model

    def on_batch_begin(self, batch, logs=None):
        """A backwards compatibility alias for `on_train_batch_begin`."""

    def on_batch_end(self, batch, logs=None):
        """A backwards compatibility alias for `on_train_batch_end`."""

    def on_epoch_begin(self, epoch, logs=None):
        pass

    def on_epoch_end(self, epoch, logs=None):
        pass

    def on_train_batch_begin(self, batch, logs=None):
        self.on_batch_begin(batch, logs=logs)

    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs=logs)

    def on_test_batch_begin(self, batch, logs=None):
        pass

    def on_test_batch_end(self, batch, logs=None):
        pass

    def on_predict_batch_begin(self, batch, logs=None):
        pass

    def on_predict_batch_end(self, batch, logs=None):
        pass

    def on_train_begin(self, logs=None):
        pass

    def on_train_end(self, logs=None):
        pass

    def on_test_begin(self, logs=None):
        pass

    def on_test_end(self, logs=None):
        pass

    def on_predict_begin(self, logs=None):
        pass

    def on_predict_end(self, logs=None):
        pass

    # Which batch hooks a callback overrides: fit skips calling (and syncing logs for) the others.
    def _implements_hooks(self, mode):
        names = _BATCH_HOOKS[mode] + (("on_batch_begin", "on_batch_end") if mode == "train" else ())
        return any(getattr(type(self), n) is not getattr(Callback, n) for n in names)

    def _implements_train_batch_hooks(self):
        return self._implements_hooks("train")

    def _implements_test_batch_hooks(self):
        return self._implements_hooks("test")

    def _implements_predict_batch_hooks(self):
        return self._implements_hooks("predict")


class CallbackList:
    """Calls each hook on every callback; adds History and ProgbarLogger when fit asks for them.

    Logs stay tensors between hooks; they are synced to Python numbers only for callbacks that
    do not declare `_supports_tf_logs`.
    """

    def __init__(self, callbacks=None, add_history=False, add_progbar=False, model=None, **params):
        self.callbacks = list(callbacks) if callbacks else []
        self._history = None
        self._progbar = None
        for cb in self.callbacks:
            if isinstance(cb, History):
                self._history = cb
            elif isinstance(cb, ProgbarLogger):
                self._progbar = cb
        if add_history and self._history is None:
            self._history = History()
            self.callbacks.append(self._history)
        if add_progbar and self._progbar is None:
            self._progbar = ProgbarLogger(count_mode="steps")
            self.callbacks.append(self._progbar)
        self.model = None
        self._cache = {}
        if model is not None:
            self.set_model(model)
        if params:
            self.set_params(params)

    def append(self, callback):
        self.callbacks.append(callback)

    def set_params(self, params):
        self.params = params
        self._cache = {}
        for cb in self.callbacks:
            cb.set_params(params)

    def set_model(self, model):
        self.model = model
        for cb in self.callbacks:
            cb.set_model(model)

    def _concerned(self, mode):
        """The callbacks a hook goes to (for batch hooks: those implementing them) and whether they all take
        tensor logs; cached, since batch hooks run every step."""
        key = (mode, len(self.callbacks))
        cached = self._cache.get(key)
        if cached is None:
            cbs = self.callbacks
            if mode is not None:
                cbs = [cb for cb in cbs if getattr(cb, f"_implements_{mode}_batch_hooks")()]
            cached = self._cache[key] = (cbs, all(getattr(cb, "_supports_tf_logs", False) for cb in cbs))
        return cached

    def implements_batch_hooks(self, mode):
        return any(getattr(cb, f"_implements_{mode}_batch_hooks")() for cb in self.callbacks)

    def _call(self, name, *args, logs=None, mode=None):
        """Calls hook `name` on each callback with one logs dict: the step's tensors when every callback
        concerned takes them (`_supports_tf_logs`), else one synced copy shared by all, as Keras 2 does."""
        cbs, tf_logs = self._concerned(mode)
        if logs is None:
            logs = {}
        elif not tf_logs:
            logs = sync_logs(logs)
        for cb in cbs:
            getattr(cb, name)(*args, logs)

    def on_batch_begin(self, batch, logs=None):
        self.on_train_batch_begin(batch, logs=logs)

    def on_batch_end(self, batch, logs=None):
        self.on_train_batch_end(batch, logs=logs)

    def on_epoch_begin(self, epoch, logs=None):
        self._call("on_epoch_begin", epoch, logs=logs)

    def on_epoch_end(self, epoch, logs=None):
        self._call("on_epoch_end", epoch, logs=logs)

    def on_train_batch_begin(self, batch, logs=None):
        self._call("on_train_batch_begin", batch, logs=logs, mode="train")

    def on_train_batch_end(self, batch, logs=None):
        self._call("on_train_batch_end", batch, logs=logs, mode="train")

    def on_test_batch_begin(self, batch, logs=None):
        self._call("on_test_batch_begin", batch, logs=logs, mode="test")

    def on_test_batch_end(self, batch, logs=None):
        self._call("on_test_batch_end", batch, logs=logs, mode="test")

    def on_predict_batch_begin(self, batch, logs=None):
        self._call("on_predict_batch_begin", batch, logs=logs, mode="predict")

    def on_predict_batch_end(self, batch, logs=None):
        self._call("on_predict_batch_end", batch, logs=logs, mode="predict")

    def on_train_begin(self, logs=None):
        self._call("on_train_begin", logs=logs)

    def on_train_end(self, logs=None):
        self._call("on_train_end", logs=logs)

    def on_test_begin(self, logs=None):
        self._call("on_test_begin", logs=logs)

    def on_test_end(self, logs=None):
        self._call("on_test_end", logs=logs)

    def on_predict_begin(self, logs=None):
        self._call("on_predict_begin", logs=logs)

    def on_predict_end(self, logs=None):
        self._call("on_predict_end", logs=logs)

    def __iter__(self):
        return iter(self.callbacks)


class History(Callback):
    """Records each epoch's logs: `history.history` maps names to lists of Python floats; fit returns it."""

    def __init__(self):
        super().__init__()
        self.history = {}

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for k, v in (logs or {}).items():
            self.history.setdefault(k, []).append(v)
        self.model.history = self


class ProgbarLogger(Callback):
    """Prints the progress bar (verbose=1) or one line per epoch (verbose=2); the values shown are
    synced from the step's tensors only when the bar is redrawn (at most every 0.05 s)."""

    def __init__(self, count_mode="samples", stateful_metrics=None):
        super().__init__()
        self._supports_tf_logs = True
        if count_mode not in ("samples", "steps"):
            raise ValueError(f'Unknown `count_mode`: {count_mode}. Expected values are ["samples", "steps"]')
        self.use_steps = count_mode == "steps"
        self.stateful_metrics = set(stateful_metrics) if stateful_metrics else set()
        self.seen = 0
        self.progbar = None
        self.target = None
        self.verbose = 1
        self.epochs = 1
        self._call_batch_hooks = True
        self._called_in_fit = False

    def set_params(self, params):
        self.verbose = params["verbose"]
        self.epochs = params["epochs"]
        if self.use_steps and "steps" in params:
            self.target = params["steps"]
        elif not self.use_steps and "samples" in params:
            self.target = params["samples"]
        else:
            self.target = None
        self._call_batch_hooks = self.verbose == 1 or self.target is None

    def on_train_begin(self, logs=None):
        self._called_in_fit = True  # validation inside fit is silent

    def on_test_begin(self, logs=None):
        if not self._called_in_fit:
            self._reset_progbar()
            self._maybe_init_progbar()

    def on_predict_begin(self, logs=None):
        self._reset_progbar()
        self._maybe_init_progbar()

    def on_epoch_begin(self, epoch, logs=None):
        self._reset_progbar()
        self._maybe_init_progbar()
        if self.verbose and self.epochs > 1:
            _print_msg(f"Epoch {epoch + 1}/{self.epochs}")

    def on_train_batch_end(self, batch, logs=None):
        self._batch_update_progbar(batch, logs)

    def on_test_batch_end(self, batch, logs=None):
        if not self._called_in_fit:
            self._batch_update_progbar(batch, logs)

    def on_predict_batch_end(self, batch, logs=None):
        self._batch_update_progbar(batch, None)

    def on_epoch_end(self, epoch, logs=None):
        self._finalize_progbar(logs)

    def on_test_end(self, logs=None):
        if not self._called_in_fit:
            self._finalize_progbar(logs)

    def on_predict_end(self, logs=None):
        self._finalize_progbar(logs)

    def _reset_progbar(self):
        self.seen = 0
        self.progbar = None

    def _maybe_init_progbar(self):
        if self.model is not None:
            self.stateful_metrics = self.stateful_metrics.union(m.name for m in self.model.metrics)
        if self.progbar is None:
            self.progbar = Progbar(target=self.target, verbose=self.verbose, stateful_metrics=self.stateful_metrics,
                                   unit_name="step" if self.use_steps else "sample")
        self.progbar._update_stateful_metrics(self.stateful_metrics)

    def _implements_train_batch_hooks(self):
        return self._call_batch_hooks

    _implements_test_batch_hooks = _implements_predict_batch_hooks = _implements_train_batch_hooks

    def _batch_update_progbar(self, batch, logs=None):
        if self.progbar is None:
            self._maybe_init_progbar()
        if self.use_steps:
            self.seen = batch + 1
        else:
            logs = dict(logs or {})
            self.seen += logs.pop("size", 1)
        if self.verbose != 1:
            return
        # Between redraws only values averaged by the bar need recording; the model's metrics are shown as is.
        if self.progbar.will_display(self.seen, finalize=False):
            self._maybe_init_progbar()
        elif not logs or all(k in self.stateful_metrics for k in logs):
            return
        self.progbar.update(self.seen, list(sync_logs(logs).items()), finalize=False)

    def _finalize_progbar(self, logs):
        logs = sync_logs(logs)
        if self.target is None:
            self.target = self.seen
            self.progbar.target = self.seen
        self.progbar.update(self.target, list(logs.items()), finalize=True)


class LambdaCallback(Callback):
    """A callback from plain functions: on_epoch_begin/end(epoch, logs), on_batch_begin/end(batch, logs),
    on_train_begin/end(logs)."""

    def __init__(self, on_epoch_begin=None, on_epoch_end=None, on_batch_begin=None, on_batch_end=None,
                 on_train_begin=None, on_train_end=None, **kwargs):
        super().__init__()
        self.__dict__.update(kwargs)
        for name, fn in (("on_epoch_begin", on_epoch_begin), ("on_epoch_end", on_epoch_end),
                         ("on_batch_begin", on_batch_begin), ("on_batch_end", on_batch_end),
                         ("on_train_begin", on_train_begin), ("on_train_end", on_train_end)):
            if fn is not None:
                setattr(self, name, fn)

    def _implements_hooks(self, mode):
        names = _BATCH_HOOKS[mode] + (("on_batch_begin", "on_batch_end") if mode == "train" else ())
        return any(n in self.__dict__ for n in names) or super()._implements_hooks(mode)


class TerminateOnNaN(Callback):
    """Stops training when a batch's loss is NaN or infinite."""

    def __init__(self):
        super().__init__()
        self._supports_tf_logs = True

    def on_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is not None:
            loss = to_python(loss)
            if np.isnan(loss) or np.isinf(loss):
                _print_msg(f"Batch {batch}: Invalid loss, terminating training")
                self.model.stop_training = True


class EarlyStopping(Callback):
    """Stops training when `monitor` has not improved by `min_delta` for `patience` epochs."""

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto", baseline=None,
                 restore_best_weights=False, start_from_epoch=0):
        super().__init__()
        self.monitor, self.patience, self.verbose, self.baseline = monitor, patience, verbose, baseline
        self.min_delta = abs(min_delta)
        self.wait = 0
        self.stopped_epoch = 0
        self.restore_best_weights = restore_best_weights
        self.best_weights = None
        self.start_from_epoch = start_from_epoch
        if mode not in ("auto", "min", "max"):
            _log.warning("EarlyStopping mode %s is unknown, fallback to auto mode.", mode)
            mode = "auto"
        if mode == "max" or (mode == "auto" and monitor.endswith(("acc", "accuracy", "auc"))):
            self.monitor_op = np.greater
        else:
            self.monitor_op = np.less
            self.min_delta *= -1

    def on_train_begin(self, logs=None):
        self.wait = 0
        self.stopped_epoch = 0
        self.best = np.inf if self.monitor_op == np.less else -np.inf
        self.best_weights = None
        self.best_epoch = 0

    def on_epoch_end(self, epoch, logs=None):
        current = self.get_monitor_value(logs)
        if current is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()  # restore the first epoch's if none improves
            self.best_epoch = epoch
        self.wait += 1
        if self._is_improvement(current, self.best):
            self.best = current
            self.best_epoch = epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._is_improvement(current, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            _print_msg(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                _print_msg(f"Restoring model weights from the end of the best epoch: {self.best_epoch + 1}.")
            self.model.set_weights(self.best_weights)

    def get_monitor_value(self, logs):
        logs = logs or {}
        value = logs.get(self.monitor)
        if value is None:
            _log.warning("Early stopping conditioned on metric `%s` which is not available. Available metrics are: %s",
                         self.monitor, ",".join(list(logs.keys())))
        return value

    def _is_improvement(self, monitor_value, reference_value):
        return self.monitor_op(monitor_value - self.min_delta, reference_value)


def _get_lr(model):
    return float(np.asarray(to_python(model.optimizer.learning_rate)))


class ModelCheckpoint(Callback):
    """Saves the model's weights (TF checkpoint format) every epoch or every `save_freq` batches; with
    `save_best_only`, only when `monitor` improves. `filepath` may hold `{epoch:02d}` and log keys."""

    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False, save_weights_only=False,
                 mode="auto", save_freq="epoch", options=None, initial_value_threshold=None, **kwargs):
        super().__init__()
        if not save_weights_only:
            raise NotImplementedError("ModelCheckpoint(save_weights_only=False) saves whole models "
                                      "(model.save: SavedModel or .keras), which eagerflow does not have; use "
                                      "save_weights_only=True (TF checkpoints that model.load_weights reads).")
        if save_freq != "epoch" and not isinstance(save_freq, int):
            raise ValueError(f"Unrecognized save_freq: {save_freq}")
        self.monitor, self.verbose, self.filepath = monitor, verbose, os.fspath(filepath)
        self.save_best_only, self.save_weights_only, self.save_freq = save_best_only, save_weights_only, save_freq
        self.period = kwargs.pop("period", 1)
        self.epochs_since_last_save = 0
        self._batches_seen_since_last_saving = 0
        self._last_batch_seen = -1
        self._current_epoch = 0
        if mode not in ("auto", "min", "max"):
            _log.warning("ModelCheckpoint mode %s is unknown, fallback to auto mode.", mode)
            mode = "auto"
        if mode == "max" or (mode == "auto" and ("acc" in monitor or monitor.startswith("fmeasure"))):
            self.monitor_op, default = np.greater, -np.inf
        else:
            self.monitor_op, default = np.less, np.inf
        self.best = default if initial_value_threshold is None else initial_value_threshold

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if self.save_freq == "epoch":
            return
        add = batch + 1 if batch <= self._last_batch_seen else batch - self._last_batch_seen
        self._batches_seen_since_last_saving += add
        self._last_batch_seen = batch
        if self._batches_seen_since_last_saving >= self.save_freq:
            self._batches_seen_since_last_saving = 0
            self._save_model(self._current_epoch, batch, logs)

    def on_epoch_end(self, epoch, logs=None):
        self.epochs_since_last_save += 1
        if self.save_freq == "epoch":
            self._save_model(epoch, None, logs)

    def _file_path(self, epoch, batch, logs):
        try:
            if batch is None or "batch" in logs:
                return self.filepath.format(epoch=epoch + 1, **logs)
            return self.filepath.format(epoch=epoch + 1, batch=batch + 1, **logs)
        except KeyError as e:
            raise KeyError(f'Failed to format this callback filepath: "{self.filepath}". Reason: {e}') from None

    def _save_model(self, epoch, batch, logs):
        if not (isinstance(self.save_freq, int) or self.epochs_since_last_save >= self.period):
            return
        logs = {k: float(v) if hasattr(v, "numpy") or isinstance(v, np.generic) else v
                for k, v in (logs or {}).items()}
        self.epochs_since_last_save = 0
        filepath = self._file_path(epoch, batch, logs)
        if os.path.isdir(filepath):
            raise IOError("Please specify a non-directory filepath for ModelCheckpoint. Filepath used is an "
                          f"existing directory: {filepath}")
        if self.save_best_only:
            current = logs.get(self.monitor)
            if current is None:
                _log.warning("Can save best model only with %s available, skipping.", self.monitor)
            elif self.monitor_op(current, self.best):
                if self.verbose > 0:
                    print(f"\nEpoch {epoch + 1}: {self.monitor} improved from {self.best:.5f} to {current:.5f}, "
                          f"saving model to {filepath}")
                self.best = current
                self.model.save_weights(filepath, overwrite=True)
            elif self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {self.best:.5f}")
        else:
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: saving model to {filepath}")
            self.model.save_weights(filepath, overwrite=True)


class LearningRateScheduler(Callback):
    """Sets the optimizer's learning rate at each epoch's start to `schedule(epoch, lr)`."""

    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule, self.verbose = schedule, verbose

    def on_epoch_begin(self, epoch, logs=None):
        if not hasattr(self.model.optimizer, "learning_rate"):
            raise ValueError('Optimizer must have a "lr" attribute.')
        lr = _get_lr(self.model)
        try:
            lr = self.schedule(epoch, lr)
        except TypeError:  # a schedule of the epoch only
            lr = self.schedule(epoch)
        if hasattr(lr, "numpy"):
            if not lr.dtype.is_floating:
                raise ValueError(f"The dtype of `lr` Tensor should be float. Got: {lr.dtype}")
        elif not isinstance(lr, (float, np.float32, np.float64)):
            raise ValueError(f'The output of the "schedule" function should be float. Got: {lr}')
        self.model.optimizer.learning_rate = float(to_python(lr))
        if self.verbose > 0:
            _print_msg(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to {lr}.")

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["lr"] = np.float32(_get_lr(self.model))


class ReduceLROnPlateau(Callback):
    """Multiplies the learning rate by `factor` when `monitor` has not improved for `patience` epochs."""

    def __init__(self, monitor="val_loss", factor=0.1, patience=10, verbose=0, mode="auto", min_delta=1e-4,
                 cooldown=0, min_lr=0, **kwargs):
        super().__init__()
        self.monitor = monitor
        if factor >= 1.0:
            raise ValueError(f"ReduceLROnPlateau does not support a factor >= 1.0. Got {factor}")
        if "epsilon" in kwargs:
            min_delta = kwargs.pop("epsilon")
            _log.warning("`epsilon` argument is deprecated and will be removed, use `min_delta` instead.")
        self.factor, self.min_lr, self.min_delta, self.patience = factor, min_lr, min_delta, patience
        self.verbose, self.cooldown, self.mode = verbose, cooldown, mode
        self._reset()

    def _reset(self):
        if self.mode not in ("auto", "min", "max"):
            _log.warning("Learning rate reduction mode %s is unknown, fallback to auto mode.", self.mode)
            self.mode = "auto"
        if self.mode == "min" or (self.mode == "auto" and "acc" not in self.monitor):
            self.monitor_op = lambda a, b: np.less(a, b - self.min_delta)
            self.best = np.inf
        else:
            self.monitor_op = lambda a, b: np.greater(a, b + self.min_delta)
            self.best = -np.inf
        self.cooldown_counter = 0
        self.wait = 0

    def on_train_begin(self, logs=None):
        self._reset()

    def in_cooldown(self):
        return self.cooldown_counter > 0

    def on_epoch_end(self, epoch, logs=None):
        logs = logs if logs is not None else {}
        logs["lr"] = np.float32(_get_lr(self.model))
        current = logs.get(self.monitor)
        if current is None:
            _log.warning("Learning rate reduction is conditioned on metric `%s` which is not available. Available "
                         "metrics are: %s", self.monitor, ",".join(list(logs.keys())))
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.monitor_op(current, self.best):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                old_lr = np.float32(_get_lr(self.model))
                if old_lr > np.float32(self.min_lr):
                    new_lr = max(old_lr * self.factor, self.min_lr)
                    self.model.optimizer.learning_rate = float(new_lr)
                    if self.verbose > 0:
                        _print_msg(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate to {new_lr}.")
                    self.cooldown_counter = self.cooldown
                    self.wait = 0


for _cls in (Callback, CallbackList, History, ProgbarLogger, LambdaCallback, TerminateOnNaN, EarlyStopping,
             LearningRateScheduler, ReduceLROnPlateau):
    _cls.__module__ = "keras.callbacks"
