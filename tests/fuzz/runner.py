"""Supervises forked workers: a batch of calls per fork, a fresh fork after a crash or a hang.

This process imports the library and runs no op itself (so the forks start clean: no thread
pool, no state), generates each batch's snippets, and reads the worker's pipe: `S i` before call
i starts, `E {...}` with its outcome. A call announced and never finished crashed (the worker's
exit status and sanitizer report say how) or hung (no line for `timeout` seconds).
"""
import collections
import json
import os
import re
import select
import signal
import sys
import tempfile
import time
import traceback

from fuzz import worker

MARK = "@@fuzz call "
HARNESS_ERROR = 70  # the worker's exit status when the fuzzer itself failed


def sanitized():
    return bool(os.environ.get("EAGERFLOW_SANITIZE")) or "libasan" in os.environ.get("LD_PRELOAD", "")


def _status_text(status):
    if os.WIFSIGNALED(status):
        return "crash " + signal.Signals(os.WTERMSIG(status)).name
    return f"crash exit {os.WEXITSTATUS(status)}"


REPORT_START = re.compile(r"^.*(ERROR: AddressSanitizer|runtime error:|terminate called).*$", re.M)
PROJECT_FRAME = re.compile(r"#\d+ 0x[0-9a-f]+ in (\S+).*?\b(cpp/[\w/.]+:\d+)")


def crash_report(stderr):
    """(site, excerpt): the error and the first frame in the project's C++ sources, and the
    report itself (lines shortened) from its first line on. Without a sanitizer report: ('', the
    Python stack faulthandler printed)."""
    m = REPORT_START.search(stderr)
    if not m:
        return "", "\n".join(line[:220] for line in stderr.strip().splitlines()[1:14])
    report = stderr[m.start():]
    kind = re.search(r"AddressSanitizer: ([\w-]+)|runtime error: ([^\n]{0,90})|(terminate called[^\n]{0,80})", report)
    where = re.search(r"(cpp/[\w/.]+:\d+):\d+: runtime error", report) or PROJECT_FRAME.search(report)
    where = where and (where.group(1) if where.re is not PROJECT_FRAME else f"{where.group(2)} in {where.group(1)[:50]}")
    site = " at ".join(x for x in [kind and next(g for g in kind.groups() if g), where] if x)
    lines = [line[:220] for line in report.splitlines()[:18]]
    return site, "\n".join(lines)


class Runner:
    """Runs calls [(index, label, mode, snippet)] and keeps the outcomes."""

    def __init__(self, lib="eagerflow", batch=250, timeout=30.0):
        self.lib, self.batch, self.timeout = lib, batch, timeout
        self.sanitized = sanitized()
        self.counts = collections.Counter()
        self.outcomes = {}  # index -> outcome name
        self.failures = []  # records of disallowed exceptions, crashes and hangs
        self.seconds = 0.0
        self.confirmed = set()  # crash sites whose first call was run again alone
        self.times = collections.defaultdict(list)  # mode -> call durations
        self.target_seconds = collections.Counter()
        self.slowest = []  # (seconds, index) of the slowest calls

    def run(self, calls):
        """Runs calls [(index, label, mode, snippet)]; returns self."""
        t0 = time.perf_counter()
        fd, self.err_path = tempfile.mkstemp(prefix="eagerflow-fuzz-", suffix=".stderr")  # the workers' stderr
        os.close(fd)
        try:
            self._run(calls)
        finally:
            self.seconds += time.perf_counter() - t0
            os.unlink(self.err_path)
        return self

    def _run(self, calls):
        info = {c[0]: c for c in calls}
        pos = 0
        while pos < len(calls):
            chunk = calls[pos:pos + self.batch]
            done, pending, status, stderr = self._fork([(c[0], c[1], c[3]) for c in chunk],
                                                      lambda rec: self._record(rec, info))
            pos += done
            if status == f"crash exit {HARNESS_ERROR}":
                raise RuntimeError(f"the fuzzer itself failed in call {pending}:\n{stderr[-3000:]}")
            if pending is not None:  # crashed or hung in call `pending`: a fresh worker goes on after it
                site, excerpt = crash_report(stderr)
                rec = {"o": status, "i": pending, "stderr": excerpt, "site": site}
                key = site or info[pending][1]
                if status != "hang" and key not in self.confirmed and len(self.confirmed) < 30:  # alone too?
                    self.confirmed.add(key)
                    _, label, _, snippet = info[pending]
                    rec["alone"] = self._fork([(pending, label, snippet)], lambda rec: None)[2] == status
                self._record(rec, info)
                pos += 1

    def _record(self, rec, info):
        i = rec["i"]
        self.counts[rec["o"]] += 1
        self.outcomes[i] = rec["o"]
        if "t" in rec:  # seconds, for the report's timing lines only
            self.times[info[i][2]].append(rec["t"])
            self.target_seconds[info[i][1]] += rec["t"]
            self.slowest = sorted(self.slowest + [(rec["t"], i)], reverse=True)[:3]
        if not rec.get("allowed", rec["o"] == "ok"):
            rec.update(label=info[i][1], mode=info[i][2], snippet=info[i][3])
            self.failures.append(rec)

    def _fork(self, items, on_outcome):
        """Runs items [(index, label, snippet)] in one worker. Returns (calls finished, the call that never
        finished or None, how the worker ended, its stderr from that call on)."""
        open(self.err_path, "w").close()
        r, w = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            try:
                os.close(r)
                worker.run(w, self.err_path, items, self.lib, self.sanitized)
            except BaseException:  # a defect of the fuzzer itself: the run stops (see _fork's caller)
                traceback.print_exc()
            finally:
                os._exit(HARNESS_ERROR)
        os.close(w)
        done, started, buf, hung = 0, None, b"", False
        while True:
            if not select.select([r], [], [], self.timeout)[0]:
                hung = True
                os.kill(pid, signal.SIGUSR1)  # faulthandler prints the hung call's Python stack
                time.sleep(1.0)
                os.kill(pid, signal.SIGKILL)
                break
            data = os.read(r, 1 << 16)
            if not data:
                break
            *lines, buf = (buf + data).split(b"\n")
            for line in lines:
                if line.startswith(b"S "):
                    started = int(line[2:])
                else:
                    started = None
                    done += 1
                    on_outcome(json.loads(line[2:]))
        os.close(r)
        _, status = os.waitpid(pid, 0)
        if started is None and done == len(items):
            return done, None, "ok", ""
        with open(self.err_path, errors="replace") as f:
            stderr = f.read()
        stderr = stderr[max(0, stderr.rfind(f"{MARK}{started}\n")):] if started is not None else stderr
        return done, started, "hang" if hung else _status_text(status), stderr
