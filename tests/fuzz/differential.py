"""Local only (needs TensorFlow): the same generated calls under eagerflow and under TF, and where
the outcome class differs (eagerflow answers where TF raises, raises where TF answers, or raises
another class).

    cd tests && python -m fuzz.differential --seed 1 --calls 3000 [--tf-python /tmp/tf/bin/python]
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SKIP_TF = ("MissingOp", "NameError", "AttributeError")  # calls TF cannot express (API TF lacks) are skipped


def run(python, snippets, lib, out, env):
    cmd = [python, "-m", "fuzz", "--snippets", snippets, "--lib", lib, "--json", out]
    subprocess.run(cmd, cwd=HERE, env=env, stdout=subprocess.DEVNULL)
    with open(out) as f:
        return json.load(f)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m fuzz.differential")
    p.add_argument("--seed", default=1)
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--calls", type=int, default=2000)
    p.add_argument("--tf-python", default=os.environ.get("EAGERFLOW_TF_PYTHON", "/tmp/tf/bin/python"))
    p.add_argument("--show", type=int, default=40, help="groups printed per category")
    args = p.parse_args(argv)
    tmp = tempfile.mkdtemp(prefix="eagerflow-diff-")
    dump = os.path.join(tmp, "calls.jsonl")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([HERE, os.environ.get("PYTHONPATH", "")]), TF_CPP_MIN_LOG_LEVEL="3")
    subprocess.run([sys.executable, "-m", "fuzz", "--seed", str(args.seed), "--start", str(args.start), "--calls",
                    str(args.calls), "--dump", dump], cwd=HERE, env=env, check=True)
    ef = run(sys.executable, dump, "eagerflow", os.path.join(tmp, "ef.json"), env)
    tf = run(args.tf_python, dump, "tensorflow", os.path.join(tmp, "tf.json"), env)
    calls = {}
    with open(dump) as f:
        for line in f:
            c = json.loads(line)
            calls[str(c["i"])] = c
    groups = collections.defaultdict(list)
    for i, c in calls.items():
        a, b = ef["outcomes"].get(i, "?"), tf["outcomes"].get(i, "?")
        if a == b or b in SKIP_TF:
            continue
        kind = ("answers where TF raises" if a == "ok" else "raises where TF answers" if b == "ok"
                else "another class than TF")
        groups[(kind, c["label"], a, b)].append(c)
    counts = collections.Counter(k[0] for k, v in groups.items() for _ in v)
    print(f"differential: seed {args.seed}, {len(calls)} calls; eagerflow {dict(ef['counts'])}; TF {dict(tf['counts'])}")
    print("differences: " + ", ".join(f"{k} {v}" for k, v in counts.most_common()) + f" (snippets in {dump})")
    for kind in ("answers where TF raises", "another class than TF", "raises where TF answers"):
        items = sorted(((k, v) for k, v in groups.items() if k[0] == kind), key=lambda kv: -len(kv[1]))
        print(f"\n### {kind}: {sum(len(v) for _, v in items)} calls in {len(items)} groups")
        for (_, label, a, b), cs in items[:args.show]:
            c = min(cs, key=lambda c: len(c["snippet"]))
            body = c["snippet"].split("from eagerflow import _core\n", 1)[-1].replace("\n", "\n      ").rstrip()
            print(f"  {label}: eagerflow {a}, TF {b} ({len(cs)} calls, e.g. #{c['i']} {c['mode']})\n      {body}")


if __name__ == "__main__":
    sys.exit(main())
