"""Command line: run (or dump) fuzz calls and print the report; exit status 1 on any failure.

    cd tests && python -m fuzz --seed 7 --calls 100000
    python -m fuzz --seed 7 --start 4242 --calls 1            # one call again
    python -m fuzz --dump calls.jsonl --calls 5000            # the snippets, not run
    python -m fuzz --snippets calls.jsonl --lib tensorflow    # run dumped snippets (under TF)
"""
import argparse
import collections
import json
import os
import re
import sys

from fuzz.runner import Runner, sanitized

DEFAULT_SEED = 1


def default_calls():
    return 3000 if sanitized() else 10000


def parse(argv):
    p = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seed", default=os.environ.get("EAGERFLOW_FUZZ_SEED", DEFAULT_SEED))
    p.add_argument("--calls", type=int, default=int(os.environ.get("EAGERFLOW_FUZZ_CALLS", 0)) or default_calls())
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--batch", type=int, default=250, help="calls per forked worker")
    p.add_argument("--timeout", type=float, default=float(os.environ.get("EAGERFLOW_FUZZ_TIMEOUT", 60)))
    p.add_argument("--lib", default="eagerflow", choices=["eagerflow", "tensorflow"])
    p.add_argument("--snippets", help="run the calls of a --dump file instead of generating them")
    p.add_argument("--dump", help="write the generated calls (JSON lines) and exit")
    p.add_argument("--json", help="write every outcome and failure here")
    p.add_argument("--show", type=int, default=1, help="snippets printed per failure group")
    return p.parse_args(argv)


def generate(seed, start, count):
    import eagerflow as tf
    from eagerflow import _core
    from fuzz.targets import CallBuilder
    builder = CallBuilder(tf, _core)
    return [(i, *builder.build(seed, i)) for i in range(start, start + count)]


def load(path, lib):
    calls = []
    with open(path) as f:
        for line in f:
            c = json.loads(line)
            snippet = c["snippet"]
            if lib == "tensorflow":
                snippet = snippet.replace("import eagerflow as tf\nfrom eagerflow import _core\n", "import tensorflow as tf\nfrom fuzz import tf_core as _core\n")
            calls.append((c["i"], c["label"], c["mode"], snippet))
    return calls


def group_key(f):
    """One group per likely root cause: the sanitizer's site or the target for crashes; the class,
    the raising library line and the message's words for exceptions."""
    # What the snippet called directly: registry ops all go through _core.execute.
    entry = "_core.execute" if re.fullmatch(r"[A-Z_]\w*", f["label"]) else f["label"]
    if f["o"].startswith(("crash", "hang")):
        site = re.sub(r"(?<![:<\w])-?[0-9]+", "N", f["site"])  # the values in a report vary, its site does not
        return f"{f['o']} at {site or entry}"
    words = re.sub(r"<[^>]*>|'[^']*'|\"[^\"]*\"|\d+", "_", f["msg"].strip().split("\n")[0])[:70]
    where = entry if f["root_where"] == "<call>" else f["root_where"]
    return f"{f['o']} (from {f['root']} at {where}): {words}"


def report(runner, seed, calls, show=1):
    n = len(calls)
    lines = [f"eagerflow fuzz: seed {seed}, calls {calls[0][0] if calls else 0}..{calls[-1][0] if calls else 0} ({n}), "
             f"{runner.lib}{' sanitized' if runner.sanitized else ''}, {runner.seconds:.1f} s "
             f"({1000 * runner.seconds / max(n, 1):.2f} ms/call)",
             "outcomes: " + ", ".join(f"{k} {v}" for k, v in runner.counts.most_common()),
             "time per call: " + ", ".join(f"{m} {1000 * sum(t) / len(t):.2f} ms" for m, t in sorted(runner.times.items()))
             + "; most time: " + ", ".join(f"{k} {v:.1f} s" for k, v in runner.target_seconds.most_common(4))
             + "; slowest: " + ", ".join(f"#{i} {t:.2f} s" for t, i in runner.slowest)]
    groups = collections.defaultdict(list)
    for f in runner.failures:
        groups[group_key(f)].append(f)
    lines.append(f"failures: {len(runner.failures)} calls in {len(groups)} groups (crashes, hangs, non-TF exception classes)")
    for key, fs in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        labels = collections.Counter(f["label"] for f in fs)
        lines += ["", f"== {key}: {len(fs)} calls, e.g. " + ", ".join(f"#{f['i']}" for f in fs[:6]),
                  "   targets: " + ", ".join(f"{k} ({v})" for k, v in labels.most_common(8))]
        for f in sorted(fs, key=lambda f: len(f["snippet"]))[:show]:
            lines.append(f"   call #{f['i']} ({f['mode']}); again: cd tests && EAGERFLOW_FUZZ_SEED={seed} "
                         f"python -m fuzz --start {f['i']} --calls 1")
            if "msg" in f:
                lines.append(f"   {f['o']}: {f['msg'][:300]}  [raised at {f['where']}]")
            else:
                alone = {True: "reproduces alone", False: "only after earlier calls of its batch"}.get(f.get("alone"), "")
                lines.append(f"   {f['site'] or f['o']}{'; ' + alone if alone else ''}; stderr:\n      "
                             + "\n      ".join(f["stderr"].strip().splitlines()[:25]))
            lines.append("      " + f["snippet"].replace("\n", "\n      ").rstrip())
    return "\n".join(lines)


def main(argv=None):
    args = parse(argv)
    seed = args.seed
    if seed == "random":
        seed = int.from_bytes(os.urandom(4), "little")
    calls = load(args.snippets, args.lib) if args.snippets else generate(seed, args.start, args.calls)
    if args.dump:
        with open(args.dump, "w") as f:
            for i, label, mode, snippet in calls:
                f.write(json.dumps({"i": i, "label": label, "mode": mode, "snippet": snippet}) + "\n")
        return 0
    __import__(args.lib)  # imported before the forks, which then start warm
    runner = Runner(args.lib, args.batch, args.timeout).run(calls)
    print(report(runner, seed, calls, args.show), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"seed": seed, "seconds": runner.seconds, "counts": runner.counts, "outcomes": runner.outcomes,
                       "failures": runner.failures}, f)
    return 1 if runner.failures else 0


if __name__ == "__main__":
    sys.exit(main())
