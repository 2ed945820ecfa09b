"""Solver work on threads for the large-neighbourhood search.

Independent parts of a problem are improved at once; a part solves its next step ahead when a core is
idle, and hands an improved step's idle-time pass to a thread while the next step is solved. Each of these
is used only where the answer is the same as without the thread, so plans never depend on thread timing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from planner.core.scheduling.ledger import ledger_without
from planner.core.scheduling.lns_steps import STEP_BUDGET, solve_step, wall_left

Outcome = TypeVar("Outcome")


def run_parts(
    improve_part: Callable[[list[int], float], Outcome], parts: list[list[int]], shares: Sequence[float], workers: int
) -> list[Outcome]:
    """``improve_part(part, share)`` for every part on ``workers`` threads; the answers in part order."""
    with ThreadPoolExecutor(max_workers=workers) as pool:
        # Biggest parts first, so the longest chain starts at once.
        order = sorted(range(len(parts)), key=lambda k: (-len(parts[k]), k))
        futures = {k: pool.submit(improve_part, parts[k], shares[k]) for k in order}
        return [futures[k].result() for k in range(len(parts))]


def serialised(progress: Callable[[str], None]) -> Callable[[str], None]:
    """``progress`` behind a lock, so lines from parts on several threads never interleave."""
    lock = threading.Lock()

    def locked(line: str) -> None:
        with lock:
            progress(line)

    return locked


class Cores:
    """How many solver threads run now, so a part only solves ahead when a core is idle."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.busy = 0
        self.lock = threading.Lock()

    def take(self) -> None:
        with self.lock:
            self.busy += 1

    def try_take(self) -> bool:
        with self.lock:
            if self.busy >= self.total:
                return False
            self.busy += 1
            return True

    def release(self) -> None:
        with self.lock:
            self.busy -= 1


class Background:
    """``work()`` run on its own thread; ``result()`` waits for it and re-raises what it raised."""

    def __init__(self, work, done=None) -> None:
        self.answer = None
        self.error: BaseException | None = None

        def run() -> None:
            try:
                self.answer = work()
            except BaseException as error:  # pragma: no cover - re-raised in result()
                self.error = error
            finally:
                if done is not None:
                    done()

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    def result(self):
        self.thread.join()
        if self.error is not None:  # pragma: no cover
            raise self.error
        return self.answer


class StepAhead(Background):
    """The next step solved on its own thread with a full step budget, on a copy of the current plan."""

    def __init__(self, problem, calendars, current, group, pools, seed, deadline, cores) -> None:
        ledger = ledger_without(calendars, current, group)
        snapshot = list(current)
        super().__init__(
            lambda: solve_step(problem, calendars, ledger, snapshot, group, pools, seed, STEP_BUDGET, deadline),
            cores.release,
        )


class Retiming(Background):
    """A step's idle-time pass (``SubResult.retime``) running on its own thread."""

    def __init__(self, group: tuple[int, ...], job, deadline: float | None) -> None:
        self.group = group
        super().__init__(lambda: job(wall_left(deadline)))
