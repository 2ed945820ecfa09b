"""Line breaks restored for display where a posting lost them."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from planner.core.extraction.sentences import display_breaks


def test_glued_sentences_and_bullets_get_breaks():
    """A sentence glued to the previous one and a ':-' bullet each start a new line."""
    text = "We build compilers.Neuron is used at scale.Explore NKI:- Neuron runs on Trainium."
    breaks = display_breaks(text)
    starts = [text[b:b + 6] for b in breaks]
    assert "Neuron" in starts
    assert text.index("Neuron is") in breaks


def test_text_with_line_breaks_gets_no_extra_breaks():
    """Text that already has its line breaks is left as it is."""
    text = "About us\nWe build compilers.\n- Design passes.\n- Mentor engineers.\n"
    assert display_breaks(text) == []


def test_heading_and_bullet_make_one_break():
    """A glued heading followed by a bullet gives breaks that are never within three characters."""
    text = "Relocation is required.Key job responsibilities- Design and build compiler features.- Own features."
    breaks = display_breaks(text)
    assert all(b - a > 3 for a, b in zip(breaks, breaks[1:], strict=False))
    assert any(text[b:].startswith("Key job") for b in breaks)


@given(st.text(max_size=400))
def test_any_text_gives_sorted_offsets_inside_it(text):
    """Whatever the text, offsets are sorted, unique and strictly inside it."""
    breaks = display_breaks(text)
    assert breaks == sorted(set(breaks))
    assert all(0 < b < len(text) for b in breaks)
