"""Worker processes for A/B benchmarks: one per checkout (its own python/ on the path), running the
calling script with --worker, asked one line at a time in alternating rounds so every checkout sees
the same machine load."""
import os
import subprocess
import sys


def start(script, checkouts):
    return [subprocess.Popen([sys.executable, os.path.abspath(script), "--worker"], cwd=c, text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             env=dict(os.environ, PYTHONPATH=os.path.join(os.path.abspath(c), "python")))
            for c in checkouts]


def ask(proc, line):
    """Sends one request line; returns the worker's answer line split into floats."""
    proc.stdin.write(line + "\n")
    proc.stdin.flush()
    return [float(v) for v in proc.stdout.readline().split()]


def stop(procs):
    for p in procs:
        p.stdin.close()
        p.wait()
