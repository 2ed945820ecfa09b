"""Competency extraction: deterministic, explainable and offline.

``extract(text, library)`` splits a posting into sentences, matches the library's phrases on
normalised words, scores each competency by where its phrases appear, and returns every
competency found with the sentences that justify it.
"""

from planner.core.extraction.extractor import DEFAULT_MIN_SCORE, extract
from planner.core.extraction.findings import Evidence, Finding, PhraseSpan
from planner.core.extraction.posting_file import PostingFileError, read_posting_file

__all__ = [
    "DEFAULT_MIN_SCORE",
    "Evidence",
    "Finding",
    "PhraseSpan",
    "PostingFileError",
    "extract",
    "read_posting_file",
]
