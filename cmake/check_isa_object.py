"""Fails when a per-ISA object (kernels/cpu/elementwise_isa_blocks.cc, reduction_isa_leaves.cc) could
leak its ISA's code.

Usage: check_isa_object.py NM ISA OBJECT...

Two objects' inline functions and template instantiations of one name are merged by the linker, so
any external symbol an AVX-512 copy defines might serve the baseline's calls. Every external symbol
defined here must therefore name the variant (its renamed Eigen namespace, its table), and the
object must run no code at load time (a static initializer compiled for the ISA would run before
the CPU is checked).
"""
import subprocess
import sys


def problems(nm, isa, obj):
    out = subprocess.run([nm, "-C", "--defined-only", obj], check=True, capture_output=True, text=True).stdout
    found = []
    for line in out.splitlines():
        parts = line.split(None, 2)
        if len(parts) < 3:
            continue
        kind, name = parts[1], parts[2]
        if "_GLOBAL__sub_I" in name:
            found.append(f"static initializer: {name}")
        elif (kind.isupper() or kind in "uvwi") and kind not in "AN" and isa not in name:
            found.append(f"shared symbol ({kind}): {name}")
    return found


def main(argv):
    nm, isa, objs = argv[1], argv[2], argv[3:]
    bad = [f"{obj}: {p}" for obj in objs for p in problems(nm, isa, obj)]
    for b in bad:
        print(b, file=sys.stderr)
    if bad:
        print(f"check_isa_object: the {isa} copy defines symbols other variants could share", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
