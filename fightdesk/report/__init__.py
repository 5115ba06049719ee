"""Round and fight summaries as documents (HTML, Markdown); no widgets, no Qt.

``summarize(session, rounds)`` reads the log into a :class:`FightSummary`;
``to_html`` and ``to_markdown`` render that same object. See docs/summaries.md.
"""

from .render import ChartImage, sparkline, to_html, to_markdown
from .summary import (
    FightSummary,
    RoundSummary,
    SummaryProblem,
    available_rounds,
    current_round,
    summarize,
)

__all__ = [
    "ChartImage",
    "FightSummary",
    "RoundSummary",
    "SummaryProblem",
    "available_rounds",
    "current_round",
    "sparkline",
    "summarize",
    "to_html",
    "to_markdown",
]
