"""Benchmark competency extraction: posting size against median time over 5 runs.

Run with ``.venv/bin/python benchmarks/extraction.py``. Postings are the worked example repeated
up to the target size (real postings are 3-10 KB; 1 MB is the stress case).
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from planner.core.extraction import extract
from planner.core.library import default_library

EXAMPLE = Path(__file__).resolve().parents[2] / "shared/data/postings/senior-ml-compiler-engineer-neuron.txt"
SIZES = (1_000, 10_000, 100_000, 1_048_576)
RUNS = 5


def posting_of_size(base: str, size: int) -> str:
    """The base posting repeated (paragraph-separated) and cut to ``size`` characters."""
    repeated = (base + "\n\n") * (size // (len(base) + 2) + 1)
    return repeated[:size]


def median_seconds(text: str, runs: int = RUNS) -> tuple[float, int]:
    """Median wall time of ``extract`` over ``runs`` runs, and how many competencies it found."""
    library = default_library()
    extract("warm-up", library)  # build the phrase index outside the timed runs
    times = []
    found = 0
    for _ in range(runs):
        started = time.perf_counter()
        found = len(extract(text, library))
        times.append(time.perf_counter() - started)
    return statistics.median(times), found


def main() -> None:
    """Print the size/time table."""
    base = EXAMPLE.read_text(encoding="utf-8") if EXAMPLE.exists() else "Design and build compilers. " * 200
    print(f"{'size':>10}  {'median s':>9}  {'MB/s':>6}  {'found':>5}   (median of {RUNS} runs)")
    for size in SIZES:
        seconds, found = median_seconds(posting_of_size(base, size))
        rate = size / 1_048_576 / seconds if seconds else float("inf")
        print(f"{size:>10,}  {seconds:>9.3f}  {rate:>6.2f}  {found:>5}")


if __name__ == "__main__":
    main()
