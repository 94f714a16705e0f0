"""Runtime operators called by converted code: they build graph ops for tensors, run Python otherwise."""
