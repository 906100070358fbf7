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


def file_refaults() -> int:
    """Pages of files read back in after the kernel dropped them (`workingset_refault_file`): a machine that
    pages cold memory out (as this VM's DAMON pageout scheme does) makes whole-process rows read from disk."""
    for line in Path("/proc/vmstat").read_text().splitlines():
        name, _, value = line.partition(" ")
        if name == "workingset_refault_file":
            return int(value)
    return 0


def pages_out_cold_memory() -> bool:
    """Whether a DAMON scheme is on that pages out memory it sees as cold."""
    kdamonds = Path("/sys/kernel/mm/damon/admin/kdamonds")
    try:
        return any((k / "state").read_text().strip() == "on" and
                   any(a.read_text().strip() == "pageout" for a in k.glob("contexts/*/schemes/*/action"))
                   for k in kdamonds.iterdir() if k.is_dir())
    except OSError:
        return False
