"""What holds for the whole suite."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

# Hypothesis times each example on the clock (a 200 ms deadline, and a health check on slow data):
# on a shared machine, or beside another xdist worker, an example that waits for a core would fail
# as too slow. Speed is measured by benchmarks/, never by a test, so no example has a deadline.
settings.register_profile("ginref", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ginref")
