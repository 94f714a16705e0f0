"""tf.keras.utils.Progbar: Keras 2's progress bar, printed form and timing rules included."""
import os
import sys
import time

import numpy as np


def _dynamic_display():
    """Keras 2 redraws in place (backspaces and a carriage return) on a terminal, in Jupyter and on
    any POSIX system, even when stdout is piped."""
    return ((hasattr(sys.stdout, "isatty") and sys.stdout.isatty()) or "ipykernel" in sys.modules
            or "posix" in sys.modules or "PYCHARM_HOSTED" in os.environ)


def _write(message):
    sys.stdout.write(message)
    sys.stdout.flush()


def format_time(seconds, unit_name):
    """' 3s/epoch', ' 12ms/step', ' 850us/step'."""
    if seconds >= 1 or seconds == 0:
        return f" {seconds:.0f}s/{unit_name}"
    if seconds >= 1e-3:
        return f" {seconds * 1e3:.0f}ms/{unit_name}"
    return f" {seconds * 1e6:.0f}us/{unit_name}"


def _format_value(avg, absolute=True):
    big = abs(avg) > 1e-3 if absolute else avg > 1e-3  # verbose=2 compares without abs, as Keras 2 does
    return f" {avg:.4f}" if big else f" {avg:.4e}"


class Progbar:
    """Displays a progress bar: `update(current, values)` with (name, value) pairs; values of names
    not in `stateful_metrics` are averaged over the steps seen."""

    def __init__(self, target, width=30, verbose=1, interval=0.05, stateful_metrics=None, unit_name="step"):
        self.target, self.width, self.verbose = target, width, verbose
        self.interval, self.unit_name = interval, unit_name
        self.stateful_metrics = set(stateful_metrics) if stateful_metrics else set()
        self._dynamic_display = _dynamic_display()
        self._total_width = 0
        self._seen_so_far = 0
        self._values = {}
        self._values_order = []
        self._start = time.time()
        self._last_update = 0
        self._time_at_epoch_start = self._start
        self._time_at_epoch_end = None
        self._time_after_first_step = None

    def _update_stateful_metrics(self, stateful_metrics):
        self.stateful_metrics = self.stateful_metrics.union(stateful_metrics)

    def will_display(self, current, finalize=None):
        """Whether `update(current, ..., finalize)` would print now (callers skip syncing values if not)."""
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        if self.verbose == 1:
            return finalize or time.time() - self._last_update >= self.interval
        return self.verbose == 2 and finalize

    def update(self, current, values=None, finalize=None):
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        for k, v in values or []:
            if k not in self._values_order:
                self._values_order.append(k)
            if k in self.stateful_metrics:
                self._values[k] = [v, 1]
            else:
                base = max(current - self._seen_so_far, 1)
                if k in self._values:
                    self._values[k][0] += v * base
                    self._values[k][1] += base
                else:
                    self._values[k] = [v * base, base]
        self._seen_so_far = current
        now = time.time()
        info = f" - {now - self._start:.0f}s"
        if current == self.target:
            self._time_at_epoch_end = now
        if self.verbose == 1:
            if now - self._last_update < self.interval and not finalize:
                return
            self._print_bar(current, now, info, finalize)
        elif self.verbose == 2 and finalize:
            self._print_line(current, now, info)
        self._last_update = now

    def _average(self, k):
        total, count = self._values[k]
        return np.mean(total / max(1, count))

    def _print_bar(self, current, now, info, finalize):
        prev_total_width = self._total_width
        message = "\b" * prev_total_width + "\r" if self._dynamic_display else "\n"
        if self.target is not None:
            digits = int(np.log10(self.target)) + 1
            bar = f"{current:{digits}d}/{self.target} ["
            prog_width = int(self.width * float(current) / self.target)
            if prog_width > 0:
                bar += "=" * (prog_width - 1) + (">" if current < self.target else "=")
            bar += "." * (self.width - prog_width) + "]"
        else:
            bar = "%7d/Unknown" % current
        self._total_width = len(bar)
        message += bar
        per_unit = self._estimate_step_duration(current, now)
        if self.target is None or finalize:
            info += format_time(per_unit, self.unit_name)
        else:
            eta = per_unit * (self.target - current)
            if eta > 3600:
                eta_format = "%d:%02d:%02d" % (eta // 3600, (eta % 3600) // 60, eta % 60)
            elif eta > 60:
                eta_format = "%d:%02d" % (eta // 60, eta % 60)
            else:
                eta_format = "%ds" % eta
            info = f" - ETA: {eta_format}"
        for k in self._values_order:
            info += f" - {k}:" + _format_value(self._average(k))
        self._total_width += len(info)
        if prev_total_width > self._total_width:
            info += " " * (prev_total_width - self._total_width)
        if finalize:
            info += "\n"
        _write(message + info)

    def _print_line(self, current, now, info):
        digits = int(np.log10(self.target)) + 1
        info = f"{current:{digits}d}/{self.target}" + info
        for k in self._values_order:
            info += f" - {k}:" + _format_value(self._average(k), absolute=False)
        if self._time_at_epoch_end:
            per_epoch = self._time_at_epoch_end - self._time_at_epoch_start
            self._time_at_epoch_start = now
            self._time_at_epoch_end = None
            info += " -" + format_time(per_epoch, "epoch")
            info += " -" + format_time(per_epoch / self.target, self.unit_name)
            info += "\n"
        _write(info)

    def add(self, n, values=None):
        self.update(self._seen_so_far + n, values)

    def _estimate_step_duration(self, current, now):
        """Seconds per step, leaving out the (compiling) first step once there are more."""
        if not current:
            return 0
        if self._time_after_first_step is not None and current > 1:
            per_unit = (now - self._time_after_first_step) / (current - 1)
        else:
            per_unit = (now - self._start) / current
        if current == 1:
            self._time_after_first_step = now
        return per_unit


Progbar.__module__ = "keras.utils"
