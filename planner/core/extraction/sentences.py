"""Split posting text into sentences, robust to the way postings are pasted from job sites.

Pasted postings lose their layout: sentences are glued with no space after the period
("...and JAX.Neuron Kernel Interface..."), bullet lists run into one line ("responsibilities- Design
and build ... hardware.- Own ..."), ``:-`` introduces a bullet, and headings are glued to the text
on both sides ("...engineering teamPreferred qualification - 5+ years"). Every sentence keeps the
offsets of its text in the original string, so the web page can highlight it in place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from planner.core.extraction.sections import Section, find_headings, heading_label, starts_boilerplate

#: Longest sentence kept whole; longer runs (binary junk, a 1 MB line) are cut at a space.
MAX_SENTENCE_CHARS = 1500

_BULLET_CHARS = "-–—•▪●◦*·>"
_LEADING_JUNK_RE = re.compile(rf"[\s{re.escape(_BULLET_CHARS)}:;,]*(?:\(?\d{{1,2}}[.)]\s+)?")
_LINE_BREAK_RE = re.compile(r"(?<![ \t\r\f\v])[ \t\r\f\v]*+\n\s*+")
_BULLET_RES = (
    re.compile(r"(?<=:)-"),  # "Explore NKI:- Neuron is used..."
    re.compile(r"(?<=\S)-[ \t]+(?=[A-Z0-9(])"),  # "responsibilities- Design", "hardware.- Own"
    re.compile(r"(?<=\s)[-–—*][ \t]+(?=[A-Z0-9(])"),  # "Cupertino - 193,300" / " * Build"
    re.compile(r"[•▪●◦·]"),
)
# Possessive quantifiers and "not after the same character" lookbehinds keep every pattern
# linear on pathological input (a megabyte of dots or spaces).
_SPACED_END_RE = re.compile(r"(?<![.!?])[.!?]++['\")\]’”]*+(?=\s++['\"(\[‘“]?[A-Z0-9])")
_GLUED_END_RE = re.compile(r"(?<=[A-Za-z0-9)\]])[.!?](?=[A-Z][a-z])")
_WORD_BEFORE_RE = re.compile(r"([A-Za-z.]+)$")
_ABBREVIATIONS = frozenset(
    "sr jr mr mrs ms dr prof st no vs e.g i.e eg ie inc ltd co corp approx dept est fig incl "
    "jan feb mar apr jun jul aug sep sept oct nov dec mt ft".split()
)


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence of the posting: its text, where it is, and what kind of section holds it.

    ``heading`` is the heading of that section as the posting words it ("Basic qualifications"),
    empty before the first heading.
    """

    text: str
    start: int
    end: int
    section: Section | None
    bullet: bool
    heading: str = ""


def split_sentences(text: str) -> list[Sentence]:
    """Split posting text into sentences with offsets, skipping headings and punctuation-only runs.

    ``text[s.start:s.end] == s.text`` holds for every sentence returned.
    """
    headings = find_headings(text)
    heading_at = {start: (end, kind) for start, end, kind in headings}
    cuts = {0, len(text)}
    for start, end, _ in headings:
        cuts.update((start, end))
    cuts.update(_line_break_cuts(text))
    for pattern in _BULLET_RES:
        cuts.update(m.start() for m in pattern.finditer(text))
    cuts.update(_sentence_end_cuts(text))

    sentences: list[Sentence] = []
    section: Section | None = None
    heading = ""
    ordered = sorted(cuts)
    for seg_start, seg_end in zip(ordered, ordered[1:], strict=False):
        if seg_start in heading_at and heading_at[seg_start][0] == seg_end:
            section = heading_at[seg_start][1]
            heading = heading_label(text[seg_start:seg_end])
            continue
        for sentence in _trimmed(text, seg_start, seg_end, section, heading):
            if section is not Section.BOILERPLATE and starts_boilerplate(sentence.text):
                # Legal text runs to the end of the posting (or the next heading); mark this
                # sentence and everything after it.
                section = Section.BOILERPLATE
                sentence = replace(sentence, section=section)
            sentences.append(sentence)
    return sentences


def _line_break_cuts(text: str) -> list[int]:
    """Cut at line breaks, except a soft wrap: one break inside a sentence, before a lowercase word."""
    cuts = []
    for match in _LINE_BREAK_RE.finditer(text):
        before = text[match.start() - 1] if match.start() > 0 else ""
        after = text[match.end()] if match.end() < len(text) else ""
        soft_wrap = match.group().count("\n") == 1 and after.islower() and before not in ".!?:;"
        if not soft_wrap:
            cuts.append(match.end())
    return cuts


def _sentence_end_cuts(text: str) -> list[int]:
    """Cut after sentence-final punctuation, spaced or glued, unless it ends an abbreviation."""
    cuts = []
    for pattern in (_SPACED_END_RE, _GLUED_END_RE):
        for match in pattern.finditer(text):
            if not _ends_abbreviation(text, match.start()):
                cuts.append(match.end())
    return cuts


def _ends_abbreviation(text: str, period_at: int) -> bool:
    """Whether the period at ``period_at`` closes "Sr.", "e.g.", "U.S." or an initial like "J."."""
    if text[period_at] != ".":
        return False
    word = _WORD_BEFORE_RE.search(text, max(0, period_at - 12), period_at)
    if word is None:
        return False
    token = word.group(1).lower().lstrip(".")
    return token in _ABBREVIATIONS or len(token.replace(".", "")) == 1


def _trimmed(text: str, start: int, end: int, section: Section | None, heading: str) -> list[Sentence]:
    """Strip bullets and spaces from a segment; cut very long runs; drop runs with no word in them."""
    leading = _LEADING_JUNK_RE.match(text, start, end)
    bullet = False
    if leading is not None:
        bullet = any(ch in _BULLET_CHARS or ch.isdigit() for ch in leading.group())
        start = leading.end()
    while end > start and text[end - 1].isspace():
        end -= 1
    pieces = []
    while end - start > MAX_SENTENCE_CHARS:
        cut = text.rfind(" ", start + 1, start + MAX_SENTENCE_CHARS)
        cut = cut if cut > start else start + MAX_SENTENCE_CHARS
        pieces.append((start, cut))
        start = cut
        while start < end and text[start].isspace():
            start += 1
    pieces.append((start, end))
    return [
        Sentence(text[s:e], s, e, section, bullet, heading)
        for s, e in pieces
        if e > s and any(ch.isalnum() for ch in text[s:e])
    ]


def display_breaks(text: str) -> list[int]:
    """Offsets where a reader would expect a new line that the text itself lacks.

    Postings copied from web pages often lose their line breaks: headings, bullets and paragraphs run
    together ("...engineers.A day in the lifeYou start..."). Each offset returned starts a heading, a
    bullet, or a sentence glued to the previous one, and is not already preceded by a line break.
    """
    starts = {start for start, _end, _kind in find_headings(text)}
    starts.update(end for _start, end, _kind in find_headings(text))
    for sentence in split_sentences(text):
        glued = sentence.start > 0 and not text[sentence.start - 1].isspace()
        if sentence.bullet or glued:
            starts.add(sentence.start)
    kept: list[int] = []
    for offset in sorted(s for s in starts if 0 < s < len(text) and not _starts_a_line(text, s)):
        # A heading's end and the bullet after it ("responsibilities- Design") make one break, not two.
        if not kept or offset - kept[-1] > 3:
            kept.append(offset)
    return kept


def _starts_a_line(text: str, offset: int) -> bool:
    """Whether ``offset`` already begins a line (only bullet marks before it) or sits at a line's end."""
    if text[offset] in "\r\n":
        return True
    line_start = text.rfind("\n", 0, offset) + 1
    return text[line_start:offset].strip(" \t-\u2022*\u2013\u2014:") == ""
