import os

from hypothesis import HealthCheck, settings

# No mDNS announcement or browsing and no UPnP (SSDP) from any command a test starts: multicast must never leave on
# this machine's real interfaces. Only the discovery tests (tests/lan) lift it, for processes they run inside
# network namespaces they create themselves.
os.environ["P2PDURAK_NO_MULTICAST"] = "1"

# Timing-based health checks and deadlines flake on a loaded 2-core machine; speed is measured by `p2pdurak bench`.
settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
settings.load_profile("default")
