"""Writes <script>.expected from TensorFlow: run with a TensorFlow 2.21 interpreter (tensorflow + tf_keras),
e.g. `TF_USE_LEGACY_KERAS=1 /path/to/tf/python tests/notebooks_tf_docs/_regenerate.py [script ...]`.
The scripts import eagerflow; a stand-in module makes that import return tensorflow."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
names = sys.argv[1:] or sorted(f[:-3] for f in os.listdir(HERE) if f.endswith(".py") and not f.startswith("_"))
with tempfile.TemporaryDirectory() as shim:
    with open(os.path.join(shim, "eagerflow.py"), "w") as f:
        f.write("import sys\nimport tensorflow\nsys.modules[__name__] = tensorflow\n")
    env = dict(os.environ, PYTHONPATH=shim, TF_USE_LEGACY_KERAS="1", TF_CPP_MIN_LOG_LEVEL="3", PYTHONHASHSEED="0")
    for name in names:
        name = name[:-3] if name.endswith(".py") else name
        p = subprocess.run([sys.executable, name + ".py"], cwd=HERE, env=env, text=True, capture_output=True)
        if p.returncode:
            sys.exit(f"{name}: {p.stderr[-2000:]}")
        with open(os.path.join(HERE, name + ".expected"), "w", encoding="utf-8") as f:
            f.write(p.stdout)
        print("wrote", name + ".expected")
