"""The `checkpoint` state file (TF's CheckpointState text proto), tf.train.latest_checkpoint,
get_checkpoint_state and CheckpointManager (numbered saves, max_to_keep, keep_checkpoint_every_n_hours).

The state file is written to a temporary name and renamed, so a crash never leaves it half-written.
"""
import glob
import os
import re
import time
import uuid

_STATE_FILE = "checkpoint"
_LINE = re.compile(r'^\s*([A-Za-z_]+)\s*:\s*(?:"((?:[^"\\]|\\.)*)"|([-+0-9.eE]+|inf|nan))\s*$')


def _escape(s):
    return s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _unescape(s):
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), s)


class CheckpointState:
    """tf.train.CheckpointState's fields."""

    def __init__(self, model_checkpoint_path="", all_model_checkpoint_paths=(),
                 all_model_checkpoint_timestamps=(), last_preserved_timestamp=0.0):
        self.model_checkpoint_path = model_checkpoint_path
        self.all_model_checkpoint_paths = list(all_model_checkpoint_paths)
        self.all_model_checkpoint_timestamps = list(all_model_checkpoint_timestamps)
        self.last_preserved_timestamp = last_preserved_timestamp

    def __str__(self):
        lines = [f'model_checkpoint_path: "{_escape(self.model_checkpoint_path)}"']
        lines += [f'all_model_checkpoint_paths: "{_escape(p)}"' for p in self.all_model_checkpoint_paths]
        lines += [f"all_model_checkpoint_timestamps: {t!r}" for t in self.all_model_checkpoint_timestamps]
        if self.last_preserved_timestamp:
            lines.append(f"last_preserved_timestamp: {self.last_preserved_timestamp!r}")
        return "\n".join(lines) + "\n"

    __repr__ = __str__


def _parse_state(text, path):
    state = CheckpointState()
    for line in text.splitlines():
        if not line.strip():
            continue
        m = _LINE.match(line)
        if not m:
            raise ValueError(f"Unable to parse the checkpoint state file {path}: {line!r}")
        key, string, number = m.groups()
        if key == "model_checkpoint_path":
            state.model_checkpoint_path = _unescape(string or "")
        elif key == "all_model_checkpoint_paths":
            state.all_model_checkpoint_paths.append(_unescape(string or ""))
        elif key == "all_model_checkpoint_timestamps":
            state.all_model_checkpoint_timestamps.append(float(number))
        elif key == "last_preserved_timestamp":
            state.last_preserved_timestamp = float(number)
    return state


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """The CheckpointState in `checkpoint_dir` (relative paths made absolute against it), or None."""
    path = os.path.join(os.fspath(checkpoint_dir), latest_filename or _STATE_FILE)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (FileNotFoundError, NotADirectoryError):
        return None
    state = _parse_state(text, path)
    if not state.model_checkpoint_path:
        raise ValueError(f"Invalid checkpoint state loaded from {checkpoint_dir}")

    def absolute(p):
        return p if os.path.isabs(p) else os.path.join(os.fspath(checkpoint_dir), p)

    state.model_checkpoint_path = absolute(state.model_checkpoint_path)
    state.all_model_checkpoint_paths = [absolute(p) for p in state.all_model_checkpoint_paths]
    return state


def update_checkpoint_state(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None,
                            all_model_checkpoint_timestamps=None, last_preserved_timestamp=None,
                            save_relative_paths=True):
    """Writes the state file of `save_dir` atomically."""
    save_dir = os.fspath(save_dir)

    def relative(p):
        return os.path.relpath(p, save_dir or ".") if save_relative_paths else p

    paths = list(all_model_checkpoint_paths or [])
    if not paths or paths[-1] != model_checkpoint_path:
        paths.append(model_checkpoint_path)
    state = CheckpointState(relative(model_checkpoint_path), [relative(p) for p in paths],
                            all_model_checkpoint_timestamps or (), last_preserved_timestamp or 0.0)
    os.makedirs(save_dir or ".", exist_ok=True)
    path = os.path.join(save_dir, _STATE_FILE)
    tmp = f"{path}.tmp{uuid.uuid4().hex}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(str(state))
    os.replace(tmp, path)


def checkpoint_exists(prefix):
    return os.path.isfile(prefix + ".index")


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The prefix of the newest checkpoint recorded in `checkpoint_dir`, or None when there is none."""
    state = get_checkpoint_state(checkpoint_dir, latest_filename)
    if state and state.model_checkpoint_path and checkpoint_exists(state.model_checkpoint_path):
        return state.model_checkpoint_path
    return None


def _delete_checkpoint(prefix):
    for path in glob.glob(glob.escape(prefix) + ".index") + glob.glob(glob.escape(prefix) + ".data-?????-of-?????"):
        try:
            os.remove(path)
        except FileNotFoundError:
            pass


class CheckpointManager:
    """tf.train.CheckpointManager: numbered saves of one Checkpoint in a directory, keeping the newest
    `max_to_keep` (and one every `keep_checkpoint_every_n_hours`)."""

    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None,
                 checkpoint_name="ckpt", step_counter=None, checkpoint_interval=None, init_fn=None):
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError(f"Expected a positive integer or `None` for `max_to_keep`, got {max_to_keep}.")
        if checkpoint_interval is not None and step_counter is None:
            raise ValueError("`step_counter` should be passed if `checkpoint_interval` is not None.")
        self._checkpoint = checkpoint
        self._directory = os.fspath(directory)
        self._max_to_keep = max_to_keep
        self._keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        self._checkpoint_prefix = os.path.join(self._directory, checkpoint_name)
        self._step_counter = step_counter
        self._checkpoint_interval = checkpoint_interval
        self._init_fn = init_fn
        self._last_checkpoint_step = None
        self._maybe_delete = {}  # prefix -> timestamp, oldest first
        state = get_checkpoint_state(self._directory)
        now = time.time()
        self._last_preserved_timestamp = now
        self._latest_checkpoint = None
        if state is not None:
            paths = state.all_model_checkpoint_paths
            stamps = state.all_model_checkpoint_timestamps
            if len(stamps) != len(paths):
                stamps = [now] * len(paths)
            self._maybe_delete = {p: t for p, t in zip(paths, stamps) if checkpoint_exists(p)}
            self._latest_checkpoint = state.model_checkpoint_path
            if state.last_preserved_timestamp:
                self._last_preserved_timestamp = state.last_preserved_timestamp

    @property
    def directory(self):
        return self._directory

    @property
    def checkpoint(self):
        return self._checkpoint

    @property
    def checkpoint_interval(self):
        return self._checkpoint_interval

    @property
    def latest_checkpoint(self):
        return self._latest_checkpoint

    @property
    def checkpoints(self):
        """The prefixes of the managed checkpoints, oldest first."""
        return list(self._maybe_delete)

    def _record_state(self):
        paths = list(self._maybe_delete)
        update_checkpoint_state(self._directory, self._latest_checkpoint, paths,
                                list(self._maybe_delete.values()), self._last_preserved_timestamp)

    def _sweep(self):
        if self._max_to_keep is None:
            return
        while len(self._maybe_delete) > self._max_to_keep:
            prefix = next(iter(self._maybe_delete))
            timestamp = self._maybe_delete.pop(prefix)
            hours = self._keep_checkpoint_every_n_hours
            if hours and timestamp - hours * 3600 >= self._last_preserved_timestamp:
                self._last_preserved_timestamp = timestamp
                continue
            _delete_checkpoint(prefix)

    def save(self, checkpoint_number=None, check_interval=True, options=None):
        """Saves `<directory>/<checkpoint_name>-<n>` (n: `checkpoint_number` or the save counter) and
        deletes the checkpoints beyond `max_to_keep`; returns the prefix, or None when the interval
        has not passed."""
        if self._checkpoint_interval is not None:
            step = int(_value(self._step_counter))
            if check_interval and self._last_checkpoint_step is not None and \
                    step < self._last_checkpoint_step + self._checkpoint_interval:
                return None
            self._last_checkpoint_step = step
        counter = self._checkpoint.save_counter
        counter.assign_add(1)
        if checkpoint_number is None:
            checkpoint_number = counter
        prefix = f"{self._checkpoint_prefix}-{int(_value(checkpoint_number))}"
        save_path = self._checkpoint.write(prefix, options=options)
        self._maybe_delete.pop(save_path, None)
        self._maybe_delete[save_path] = time.time()
        self._latest_checkpoint = save_path
        self._record_state()  # first with the new checkpoint, so a crash while deleting keeps it
        self._sweep()
        self._record_state()
        return save_path

    def restore_or_initialize(self):
        if self._latest_checkpoint is not None:
            self._checkpoint.restore(self._latest_checkpoint)
            return self._latest_checkpoint
        if self._init_fn is not None:
            self._init_fn()
        return None


def _value(x):
    return x.numpy() if hasattr(x, "numpy") else x
