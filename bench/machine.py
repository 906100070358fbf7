"""The machine's state as the benchmark reports record it: the load average, and a wait for it to settle."""

from __future__ import annotations

import time
from pathlib import Path


def load_average() -> str:
    """The 1, 5 and 15-minute load averages, as /proc/loadavg gives them."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def settle(threshold: float = 0.3, limit: float = 300.0) -> float:
    """Waits until the 1-minute load average is at most `threshold`, or `limit` seconds have passed, and returns
    the seconds waited. The builds bench/run does first leave the load near 1.5: measured at once, it would be
    recorded as "before" and would disturb the first rows."""
    started = time.perf_counter()
    while float(load_average().split()[0]) > threshold and time.perf_counter() - started < limit:
        time.sleep(5)
    return time.perf_counter() - started
