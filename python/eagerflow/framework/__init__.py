"""Framework pieces: dtypes, shapes, errors, tensor conversion and the Tensor's Python methods."""
