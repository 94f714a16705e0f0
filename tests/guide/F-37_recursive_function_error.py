# F-37  recursive_function_error
# Source: seed 002 - TF guide "Better performance with tf.function" (Korean translation, TF 2.11
#         era, Dec 2022 outputs)
# Section: Limitations > Recursive tf.functions are not supported
# Demonstrates: A recursive Function called with a tensor recurses without bound during tracing and
#   fails with a maximum-recursion error, which TF wraps in StagingError.
# TF API: tf.function recursion, AutoGraph `if` on a tensor, StagingError/RecursionError
import eagerflow as tf

# ---- helper from the guide's setup cell F-02 (prints caught errors) ----
import traceback
import contextlib
# Some helper code to demonstrate the kinds of errors you might encounter.
@contextlib.contextmanager
def assert_raises(error_class):
  try:
    yield
  except error_class as e:
    print('Caught expected exception \n  {}:'.format(error_class))
    traceback.print_exc(limit=2)
  except Exception as e:
    raise e
  else:
    raise Exception('Expected {} to be raised but no error was raised!'.format(
        error_class))

@tf.function
def recursive_fn(n):
  if n > 0:
    return recursive_fn(n - 1)
  else:
    return 1
with assert_raises(Exception):
  recursive_fn(tf.constant(5))  # Bad - maximum recursion error.

# Output notes:
#   - Provenance: verbatim document output, with the marked [...] elision.
#   - stdout: the 2 assert_raises lines. Everything else is the stderr traceback, elided here
#     (machine-specific paths and frames).
#   - Checkable: some Exception is raised (TF: tensorflow.python.autograph.impl.api.StagingError
#     wrapping `RecursionError: maximum recursion depth exceeded ...`). The call must not hang.
# Expected output:
# Caught expected exception 
#   <class 'Exception'>:
# Traceback (most recent call last):
#   File "/tmpfs/tmp/ipykernel_184655/3551158538.py", line 8, in assert_raises
#     yield
#   File "/tmpfs/tmp/ipykernel_184655/2233998312.py", line 9, in <module>
#     recursive_fn(tf.constant(5))  # Bad - maximum recursion error.
# tensorflow.python.autograph.impl.api.StagingError: in user code:
#     File "/tmpfs/tmp/ipykernel_184655/2233998312.py", line 4, in recursive_fn  *
#         return recursive_fn(n - 1)
#     [... the 2 lines above repeat; the document shows 118 such frames in all ...]
#     File "/usr/lib/python3.9/abc.py", line 119, in __instancecheck__
#         return _abc_instancecheck(cls, instance)
#     File "/usr/lib/python3.9/abc.py", line 123, in __subclasscheck__
#         return _abc_subclasscheck(cls, subclass)
#     RecursionError: maximum recursion depth exceeded while calling a Python object
