"""Variables by tape key, so a tape's watched resource handles map back to tf.Variable objects.

Variable.__init__ calls `variable_created`; it also tells the C++ recorder whether reads of the
variable are watched automatically (only trainable variables are)."""
import weakref

from eagerflow import _core

_BY_KEY = weakref.WeakValueDictionary()


def variable_created(variable):
    handle = variable._handle
    _core.set_variable_trainable(handle, bool(variable._trainable))
    _BY_KEY[_core.tensor_key(handle)] = variable


def variable_of(handle):
    """The live tf.Variable owning `handle`, or None."""
    return _BY_KEY.get(_core.tensor_key(handle))
