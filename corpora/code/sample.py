"""Read a harbour tide table and find when the water crosses a given level.

The table is plain text, one reading per line::

    2024-06-14T05:40  0.62
    2024-06-14T11:55  4.81

Readings are in metres above chart datum. Blank lines and lines starting
with ``#`` are ignored.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum


class Direction(Enum):
    RISING = "rising"
    FALLING = "falling"


@dataclass(frozen=True, slots=True)
class Reading:
    """A single water level measured at a moment in time."""

    at: datetime
    height_m: float


@dataclass(frozen=True, slots=True)
class Crossing:
    """The moment the tide passes a level, found by linear interpolation."""

    at: datetime
    level_m: float
    direction: Direction

    def __str__(self) -> str:
        return f"{self.at:%a %H:%M} {self.direction.value} through {self.level_m:.2f} m"


class TableError(ValueError):
    """Raised when a line of the tide table cannot be understood."""

    def __init__(self, line_number: int, line: str, reason: str) -> None:
        super().__init__(f"line {line_number}: {reason}: {line!r}")
        self.line_number = line_number


def parse_table(lines: Iterable[str]) -> Iterator[Reading]:
    """Yield readings in file order, checking that time only moves forward."""
    previous: datetime | None = None
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            stamp, height = line.split()
            reading = Reading(datetime.fromisoformat(stamp), float(height))
        except ValueError as error:
            raise TableError(number, line, str(error)) from None
        if previous is not None and reading.at <= previous:
            raise TableError(number, line, "time goes backwards")
        previous = reading.at
        yield reading


def crossings(readings: Iterable[Reading], level_m: float) -> Iterator[Crossing]:
    """Yield every crossing of ``level_m`` between consecutive readings.

    Tides follow a smooth curve, so a straight line between two readings
    a few hours apart is accurate to a few minutes, which is enough for
    deciding when a boat can leave the harbour.
    """
    iterator = iter(readings)
    before = next(iterator, None)
    for after in iterator:
        low, high = sorted((before.height_m, after.height_m))
        if low < level_m <= high:
            fraction = (level_m - before.height_m) / (after.height_m - before.height_m)
            moment = before.at + (after.at - before.at) * fraction
            rising = after.height_m > before.height_m
            yield Crossing(
                at=moment.replace(second=0, microsecond=0),
                level_m=level_m,
                direction=Direction.RISING if rising else Direction.FALLING,
            )
        before = after


def windows(found: Iterable[Crossing]) -> Iterator[tuple[datetime, timedelta]]:
    """Pair each rising crossing with the next falling one.

    Each pair is a window during which the water stays above the level.
    """
    opened: datetime | None = None
    for crossing in found:
        if crossing.direction is Direction.RISING:
            opened = crossing.at
        elif opened is not None:
            yield opened, crossing.at - opened
            opened = None


if __name__ == "__main__":
    import sys

    table = parse_table(sys.stdin)
    for start, length in windows(crossings(table, level_m=2.4)):
        hours, minutes = divmod(int(length.total_seconds()) // 60, 60)
        print(f"{start:%Y-%m-%d %H:%M}  open for {hours} h {minutes:02d} min")
