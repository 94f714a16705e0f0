"""pytest setup: hypothesis profile sized for a 2-core CI machine."""
try:
    from hypothesis import HealthCheck, settings

    settings.register_profile("ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    settings.load_profile("ci")
except ImportError:  # hypothesis is a test extra
    pass
