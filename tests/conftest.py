from hypothesis import HealthCheck, settings

# Timing-based health checks and deadlines flake on a loaded 2-core machine; speed is measured by `p2pdurak bench`.
settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
settings.load_profile("default")
