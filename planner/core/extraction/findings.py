"""The values extraction returns: a competency found in a posting and the sentences behind it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PhraseSpan:
    """A library phrase matched inside an evidence sentence; offsets are relative to the sentence.

    ``strong`` is False for a supporting phrase, which the page may highlight more faintly.
    """

    phrase: str
    start: int
    end: int
    strong: bool


@dataclass(frozen=True, slots=True)
class Evidence:
    """A sentence of the posting that justifies a competency.

    ``start``/``end`` locate the sentence in the original posting text
    (``posting[start:end] == text``); each span locates a matched phrase inside ``text``.
    """

    text: str
    start: int
    end: int
    spans: tuple[PhraseSpan, ...]


@dataclass(frozen=True, slots=True)
class RunnerUp:
    """The competency closest to a finding's evidence that is not reported itself.

    ``reason`` says in a few words why it is close ("gave way to it in 1 sentence", "shares
    'architect, processor' with its description"), so the coordinator can judge a switch.
    """

    slug: str
    name: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        """A JSON-ready dict."""
        return {"slug": self.slug, "name": self.name, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Finding:
    """A competency the posting asks for, its score (higher is stronger) and its evidence.

    ``runner_up`` is the nearest competency not reported itself, for a one-click switch.

    ``priority`` is the suggested priority ("must-have" or "nice-to-have") and ``priority_reason``
    says why in a few words ("listed under Basic qualifications", "says 'must'"); see ``priority``.
    """

    slug: str
    name: str
    category: str
    score: float
    evidence: tuple[Evidence, ...]
    priority: str = "nice-to-have"
    priority_reason: str = ""
    #: How the evidence found it: "phrases", "description" (the posting's own words, close to the
    #: library's description) or "phrases and description".
    matched_by: str = "phrases"
    runner_up: RunnerUp | None = None

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dict: evidence sentences as strings, spans under ``evidence_detail``."""
        return {
            "slug": self.slug,
            "name": self.name,
            "category": self.category,
            "score": self.score,
            "priority": self.priority,
            "priority_reason": self.priority_reason,
            "matched_by": self.matched_by,
            "runner_up": self.runner_up.to_dict() if self.runner_up else None,
            "evidence": [item.text for item in self.evidence],
            "evidence_detail": [
                {
                    "text": item.text,
                    "start": item.start,
                    "end": item.end,
                    "spans": [
                        {"phrase": s.phrase, "start": s.start, "end": s.end, "strong": s.strong}
                        for s in item.spans
                    ],
                }
                for item in self.evidence
            ],
        }
