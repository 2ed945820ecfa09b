"""Accessibility checks in the browser tests: axe-core (npm, installed by `make test`) injected into the page.

A page passes when axe finds no violation of the WCAG 2.0/2.1 A and AA rules. Each violation is
reported with the rule, its help text and the first offending elements, so a failure says what to fix.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

AXE_JS = Path(__file__).resolve().parents[1] / "node_modules" / "axe-core" / "axe.min.js"
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def _axe_source() -> str:
    if not AXE_JS.exists():
        message = f"axe-core is not installed at {AXE_JS} (run `make test`, which runs `npm ci`)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return AXE_JS.read_text(encoding="utf-8")


def axe_violations(page, tags: list[str] | None = None) -> list[dict]:
    """Run axe-core on the page as it is now; return its violations (an empty list when clean)."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # Evaluated through the DevTools protocol, not as an inline <script>: the pages' content security
        # policy refuses inline scripts, and the check must run on the page as users get it.
        page.evaluate(_axe_source() + "\n;undefined")
    result = page.evaluate(
        "async (tags) => await axe.run(document, {runOnly: {type: 'tag', values: tags}})", tags or WCAG_AA)
    return result["violations"]


def describe(violations: list[dict]) -> str:
    """One line per violation: rule id, impact, help, and up to three offending elements."""
    lines = []
    for violation in violations:
        targets = ", ".join(" ".join(node["target"]) for node in violation["nodes"][:3])
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']} -> {targets}")
    return "\n".join(lines)


def assert_accessible(page, tags: list[str] | None = None) -> None:
    """Fail with a readable list when axe finds WCAG 2.1 AA violations on the page."""
    violations = axe_violations(page, tags)
    assert not violations, f"axe-core found WCAG 2.1 AA violations on {page.url}:\n{describe(violations)}"
