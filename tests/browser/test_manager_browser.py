"""The manager's coverage dashboard in a real browser."""

from __future__ import annotations

from pathlib import Path

from browserutil import screenshot, sign_in


def test_manager_sees_demo_posting_covered_and_its_heat_map(page):
    """The list shows the demo posting with 4/4 must-haves; its page draws the heat map, bars and risks."""
    sign_in(page, "manager@demo.test")
    assert page.get_by_role("heading", level=1).inner_text().strip() == "Coverage"
    row = page.locator("table.postings-coverage tbody tr", has_text="Senior ML Compiler Engineer")
    assert "4/4" in row.inner_text()
    screenshot(page, "manager-home")

    row.get_by_role("link").click()
    page.wait_for_load_state("networkidle")
    heatmap = page.locator("table.heatmap")
    compiler = heatmap.locator("tbody tr", has_text="Compiler design").first
    assert compiler.locator("td.hm-primary").count() == 2
    assert "Covered" in compiler.inner_text()
    for name in ("Compiler design", "Customer ownership", "Pre-silicon feedback", "Mentoring"):
        assert "Covered" in heatmap.locator("tr.hm-must", has_text=name).inner_text()
    assert page.locator(".bars-table .bench").count() >= 4
    assert page.get_by_role("heading", name="Gaps and risks").is_visible()
    assert page.locator("#version-1").is_visible()
    screenshot(page, "manager-posting")

    with page.expect_download() as download_info:
        page.get_by_role("link", name="Download matrix (CSV)").click()
    text = Path(download_info.value.path()).read_text(encoding="utf-8")
    assert text.startswith("Competency,Slug,Priority,Required,Rounds,Status")
    assert "compiler-design" in text
