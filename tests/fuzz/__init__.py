"""A grammar fuzzer over the op registry and the public API (run by tests/test_fuzz.py).

Each call is a small Python snippet (imports, argument values, the call eagerly or inside a
tf.function, then the result's repr), generated from a seed and its index alone, and run in a
forked worker that announces it first: a crash or hang is reported with the snippet, and a fresh
worker goes on. Every call must return or raise one of TF's classes (worker.allowed).

Long runs and reproduction (from tests/, with eagerflow importable):
    EAGERFLOW_FUZZ_CALLS=100000 EAGERFLOW_FUZZ_SEED=7 python -m pytest test_fuzz.py
    python -m fuzz --seed 7 --calls 100000            # the report alone (--seed random: a new one)
    python -m fuzz --seed 7 --start 4242 --calls 1    # call 4242 again (its snippet is printed too)
    python -m fuzz.differential --calls 3000          # local: outcome classes against real TF

Modules: grammar (values as source text), targets (what is called, the snippet), worker (runs
and classifies), runner (forks and supervises), __main__ (command line and report).
"""
