"""Every public namespace reachable from `tf` exposes its API (`__all__`, TF's names) and nothing else:
no imports of the implementation, no submodules Python set on a package, no third-party modules."""
import importlib
import pkgutil
import types

import pytest

import eagerflow as tf

# Names eagerflow keeps beside TF's, on purpose: namespace -> {name: why}. They stay out of `__all__`.
EXTRAS = {
    "tf": {"get_default_graph": "TF1 code (the guide's graph examples) calls it; it is tf.compat.v1's"},
    "tf.autograph": {"StagingError": "what a failing conversion raises (TF's is "
                                     "tensorflow.python.autograph.impl.api.StagingError); tests catch it by this name"},
    "tf.keras.losses": {"mean_squared_error": "the function that MSE and mse name, under its Keras 2 name"},
    "tf.types.experimental": {
        "TracingContext": "what __tf_tracing_type__(context) receives (TF's is tensorflow.python.types.trace's); "
                          "tests check the argument's type by this name",
        "PlaceholderContext": "what TraceType.placeholder_value(context) receives (idem)"},
}


def _import_everything():
    # Submodules imported later (lazily, inside functions) set attributes on their packages too.
    for info in pkgutil.walk_packages(tf.__path__, "eagerflow."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)


def _is_ours(module):
    return module.__name__ == "eagerflow" or module.__name__.startswith("eagerflow.")


def _public(module):
    return sorted({n for n in set(dir(module)) | set(vars(module)) if not n.startswith("_")})


def _namespaces():
    """path -> module for every module reachable from tf through public attributes of eagerflow's (each
    under its shortest path)."""
    found, todo = {}, [("tf", tf)]
    while todo:
        path, module = todo.pop(0)
        if any(m is module for m in found.values()):
            continue
        found[path] = module
        for name in _public(module):
            value = getattr(module, name)
            if isinstance(value, types.ModuleType) and _is_ours(value):
                todo.append((f"{path}.{name}", value))
    return found


_import_everything()
NAMESPACES = _namespaces()


def test_the_walk_reaches_the_namespaces():
    assert {"tf.math", "tf.compat.v1.errors", "tf.keras.optimizers.schedules", "tf.types.experimental",
            "tf.config.optimizer", "tf.autograph.experimental"} <= NAMESPACES.keys()


@pytest.mark.parametrize("path", sorted(NAMESPACES))
def test_only_its_api_is_public(path):
    module = NAMESPACES[path]
    assert hasattr(module, "__all__"), f"{path} ({module.__name__}) has no __all__"
    extra = sorted(set(_public(module)) - set(module.__all__) - set(EXTRAS.get(path, {})))
    assert not extra, f"{path} ({module.__name__}) exposes names beyond its __all__: {extra}"


@pytest.mark.parametrize("path", sorted(NAMESPACES))
def test_no_foreign_module_is_exposed(path):
    module = NAMESPACES[path]
    foreign = [f"{n} ({getattr(module, n).__name__})" for n in _public(module)
               if isinstance(getattr(module, n), types.ModuleType) and not _is_ours(getattr(module, n))]
    assert not foreign, f"{path} exposes third-party modules: {foreign}"


@pytest.mark.parametrize("path", sorted(NAMESPACES))
def test_every_name_in_all_exists(path):
    module = NAMESPACES[path]
    names = list(getattr(module, "__all__", []))
    assert len(names) == len(set(names)), f"{path}: __all__ repeats names"
    assert not [n for n in names if n.startswith("_")], f"{path}: __all__ has private names"
    missing = [n for n in names if not hasattr(module, n)]
    assert not missing, f"{path}: __all__ names what is not there: {missing}"


@pytest.mark.parametrize("path", sorted(EXTRAS))
def test_the_extras_are_there_and_not_in_all(path):
    module = NAMESPACES[path]
    for name in EXTRAS[path]:
        assert hasattr(module, name) and name not in module.__all__, f"{path}.{name}"
