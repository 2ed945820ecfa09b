"""Benchmark competency extraction: precision and recall on labelled postings, and speed by size.

Run with ``.venv/bin/python benchmarks/extraction.py`` (both tables), or ``quality`` / ``speed``
alone::

    .venv/bin/python benchmarks/extraction.py quality --baseline af4a2f8 --markdown

``quality`` scores every posting in ``tests/data/postings/`` (a ``.json`` answer file per posting:
its split, ``dev`` or ``heldout``, and the library slugs it really asks for) and prints per-posting
and overall precision / recall / F1, split by dev and held-out set, with the median time per posting.
``--baseline REV`` adds the same numbers for the extractor as it was at git revision REV (its
``planner`` package is unpacked to a temporary folder and run in a subprocess), for a before/after
comparison. "rescued" counts missed slugs that are the runner-up of a finding (one click away).

``speed``: postings are the worked example repeated up to the target size (real postings are 3-10
KB; 1 MB is the stress case), median time over 5 runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, os.environ.get("EXTRACTION_PLANNER_ROOT", str(ROOT)))

from planner.core.extraction import extract  # noqa: E402
from planner.core.library import default_library  # noqa: E402

POSTINGS = ROOT / "tests" / "data" / "postings"
EXAMPLE = ROOT / "planner" / "data" / "demo" / "posting.txt"
SIZES = (1_000, 10_000, 100_000, 1_048_576)
RUNS = 5


@dataclass(frozen=True)
class Labelled:
    """A posting and the library slugs it really asks for."""

    name: str
    split: str
    style: str
    text: str
    asks_for: frozenset[str]


def labelled_postings() -> list[Labelled]:
    """Every answer file under tests/data/postings with the text it labels, sorted by split and name."""
    found = []
    for answer in sorted(POSTINGS.glob("*.json")):
        data = json.loads(answer.read_text(encoding="utf-8"))
        source = ROOT / data["file"] if "file" in data else answer.with_suffix(".txt")
        found.append(
            Labelled(
                answer.stem,
                data["split"],
                data.get("style", ""),
                source.read_text(encoding="utf-8"),
                frozenset(data["asks_for"]),
            )
        )
    return sorted(found, key=lambda p: (p.split, p.name))


def run_postings(postings: list[Labelled], runs: int = RUNS) -> dict[str, dict]:
    """Extract every posting: found slugs, runner-ups, and the median seconds of ``runs`` runs."""
    library = default_library()
    extract("warm-up", library)
    results = {}
    for posting in postings:
        times = []
        findings = []
        for _ in range(runs):
            started = time.perf_counter()
            findings = extract(posting.text, library)
            times.append(time.perf_counter() - started)
        runner_ups = [getattr(getattr(f, "runner_up", None), "slug", None) for f in findings]
        results[posting.name] = {
            "found": sorted(f.slug for f in findings),
            "runner_ups": sorted(slug for slug in runner_ups if slug),
            "seconds": statistics.median(times),
        }
    return results


def baseline_results(revision: str) -> dict[str, dict]:
    """Run this benchmark's extraction with the ``planner`` package as it was at ``revision``."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", revision, "planner"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    with tempfile.TemporaryDirectory() as folder:
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(folder, filter="data")
        output = subprocess.run(
            [sys.executable, __file__, "found"],
            env={**os.environ, "EXTRACTION_PLANNER_ROOT": folder},
            capture_output=True,
            check=True,
            text=True,
        ).stdout
    return json.loads(output)


def prf(true_positives: int, found: int, wanted: int) -> tuple[float, float, float]:
    """Precision, recall and F1 from counts (1.0 for an empty denominator)."""
    precision = true_positives / found if found else 1.0
    recall = true_positives / wanted if wanted else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def counts(posting: Labelled, result: dict) -> tuple[int, int, int, int]:
    """(true positives, found, wanted, missed slugs that are a runner-up) for one posting."""
    found = set(result["found"])
    missed = posting.asks_for - found
    return (
        len(found & posting.asks_for),
        len(found),
        len(posting.asks_for),
        len(missed & set(result.get("runner_ups", ()))),
    )


def quality_table(postings: list[Labelled], after: dict, before: dict | None, markdown: bool) -> str:
    """Per-posting rows, then one total row per split, as plain or markdown text."""
    header = ["posting", "split", "style", "asks"]
    if before is not None:
        header += ["P before", "R before", "F1 before"]
    header += ["P", "R", "F1", "rescued", "ms"]
    rows = []
    totals: dict[str, list[list[int]]] = {}
    for posting in postings:
        row = [posting.name, posting.split, posting.style, str(len(posting.asks_for))]
        tp, found, wanted, rescued = counts(posting, after[posting.name])
        split_totals = totals.setdefault(posting.split, [[0, 0, 0, 0], [0, 0, 0, 0]])
        if before is not None:
            b_tp, b_found, b_wanted, _ = counts(posting, before[posting.name])
            row += [f"{v:.2f}" for v in prf(b_tp, b_found, b_wanted)]
            split_totals[0] = [a + b for a, b in zip(split_totals[0], (b_tp, b_found, b_wanted, 0), strict=True)]
        row += [f"{v:.2f}" for v in prf(tp, found, wanted)]
        row += [str(rescued), f"{after[posting.name]['seconds'] * 1000:.1f}"]
        split_totals[1] = [a + b for a, b in zip(split_totals[1], (tp, found, wanted, rescued), strict=True)]
        rows.append(row)
    for split, (b, a) in sorted(totals.items()):
        members = [p for p in postings if p.split == split]
        row = [f"**all {split}**" if markdown else f"ALL {split}", split, "", str(a[2])]
        if before is not None:
            row += [f"{v:.3f}" for v in prf(*b[:3])]
        ms = statistics.median(after[p.name]["seconds"] for p in members) * 1000
        row += [f"{v:.3f}" for v in prf(*a[:3])] + [str(a[3]), f"{ms:.1f}"]
        rows.append(row)
    return _render(header, rows, markdown)


def _render(header: list[str], rows: list[list[str]], markdown: bool) -> str:
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        return "\n".join(lines)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)) for r in [header, *rows])


def posting_of_size(base: str, size: int) -> str:
    """The base posting repeated (paragraph-separated) and cut to ``size`` characters."""
    repeated = (base + "\n\n") * (size // (len(base) + 2) + 1)
    return repeated[:size]


def median_seconds(text: str, runs: int = RUNS) -> tuple[float, int]:
    """Median wall time of ``extract`` over ``runs`` runs, and how many competencies it found."""
    library = default_library()
    extract("warm-up", library)  # build the indexes outside the timed runs
    times = []
    found = 0
    for _ in range(runs):
        started = time.perf_counter()
        found = len(extract(text, library))
        times.append(time.perf_counter() - started)
    return statistics.median(times), found


def speed() -> None:
    """Print the size/time table."""
    base = EXAMPLE.read_text(encoding="utf-8")
    print(f"{'size':>10}  {'median s':>9}  {'MB/s':>6}  {'found':>5}   (median of {RUNS} runs)")
    for size in SIZES:
        seconds, found = median_seconds(posting_of_size(base, size))
        rate = size / 1_048_576 / seconds if seconds else float("inf")
        print(f"{size:>10,}  {seconds:>9.3f}  {rate:>6.2f}  {found:>5}")


def main() -> None:
    """Parse the command line and print the tables asked for."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", nargs="?", default="all", choices=["all", "quality", "speed", "found"])
    parser.add_argument("--baseline", metavar="REV", help="also score the extractor at this git revision")
    parser.add_argument("--split", choices=["dev", "heldout"], help="score only this split")
    parser.add_argument("--markdown", action="store_true", help="print the quality table as markdown")
    args = parser.parse_args()
    postings = [p for p in labelled_postings() if args.split in (None, p.split)]
    if args.what == "found":  # used by --baseline, in a subprocess with the old package
        print(json.dumps(run_postings(postings, runs=1)))
        return
    if args.what in ("all", "quality"):
        before = baseline_results(args.baseline) if args.baseline else None
        print(quality_table(postings, run_postings(postings), before, args.markdown))
    if args.what == "all":
        print()
    if args.what in ("all", "speed"):
        speed()


if __name__ == "__main__":
    main()
