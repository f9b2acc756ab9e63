"""Per-conversion state: where we are, what was lost, and the tool calls seen so far."""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: `import toolwire` does not import typing (docs/performance.md)
    from typing import Any

from .errors import AssumptionWarning, LossError, LossWarning, OutsideBodyWarning, format_path


class Context:
    """State shared by the generated functions of one conversion.

    ``origins`` collects IR tool calls and results with the input path they came from, so checks
    made later (linking, answered calls) can point at the offending field; ``synthetic_ids`` are ids
    made up for calls (not sent back); ``answers`` the calls that parsed results repeat (Cohere v1's
``tool_results[].call``), which pair them with their calls; ``tool_names`` are the caller's original tool names, to map
    names fitted to a provider's rule back (names.py).
    """

    __slots__ = ("provider", "strict", "reports", "origins", "synthetic_ids", "fitted", "tool_names", "names_back", "request", "data", "answers", "calls", "numbers", "model", "native", "model_rules", "signed")

    def __init__(self, provider: str, strict: bool = False, tool_names: Any = None) -> None:
        self.provider = provider
        self.strict = strict
        self.reports: list[tuple[object, str, type]] = []  # (path, message, warning category), in order
        self.origins: list[tuple[Any, object]] = []
        self.synthetic_ids: set[str] = set()
        self.fitted: dict[tuple[str, str], str] = {}  # (kind, value sent) → original, for collisions
        self.tool_names: list[str] | None = list(tool_names) if tool_names is not None else None
        self.names_back: dict[str, str] | None = None  # fitted tool name → caller's original
        self.request: Any = None  # the IR Request being rendered (a transform's `{request}`)
        self.data: str = provider  # whose provider_data the running module reads and writes (its PROVIDER)
        self.answers: dict[int, Any] = {}  # id(ToolResult) → the call it repeats (`computed: answered_call`), on parse
        self.calls: dict[str, Any] | None = None  # the rendered request's calls by id (answered_call), built once
        self.numbers: dict[str, int] | None = None  # objects of a codec rendered so far (a fill_format's {$n})
        self.model: Any = None  # the target model of the request being rendered (rules `for_models`)
        self.native = False  # a conversion from the target's own provider data group: no model rules (its input's own spelling)
        self.model_rules: dict[tuple, bool] | None = None  # for_model answers by pattern tuple, for this conversion
        self.signed: set | None = None  # the messages (their parts' paths) whose calls so far carried a signature

    def number(self, codec: str) -> int:
        """The number of this object among the codec's objects rendered in the conversion (0, 1, ...)."""
        if self.numbers is None:
            self.numbers = {}
        n = self.numbers.get(codec, 0)
        self.numbers[codec] = n + 1
        return n

    def lose(self, path: object, message: str) -> None:
        """Report that the target cannot express something (raise in strict mode)."""
        if self.strict:
            raise LossError(path, f"{self.provider} cannot express this: {message}")
        self.reports.append((path, message, LossWarning))

    def assume(self, path: object, message: str) -> None:
        """Report a value the target requires that the input lacks, filled in with a default: an
        assumption, not a loss (``strict=True`` does not raise for it)."""
        self.reports.append((path, message, AssumptionWarning))

    def outside_body(self, path: object, message: str) -> None:
        """Report a value the target takes outside the body (the model in Gemini's URL)."""
        self.reports.append((path, message, OutsideBodyWarning))

    @property
    def losses(self) -> list[tuple[object, str]]:
        """The losses reported so far (path, message), without assumptions and outside-body notes."""
        return [(p, m) for p, m, category in self.reports if category is LossWarning]

    def flush(self) -> None:
        """Emit the collected reports as warnings of their category, one per distinct message.

        The same loss at many places (say, every call id of a conversation) is one warning at the
        first place, with the count of the others.
        """
        if not self.reports:
            return
        import warnings  # (not imported with toolwire: only conversions that report pay for it)

        if len(self.reports) == 1:  # the common case (Anthropic's max_tokens): no grouping to do
            path, message, category = self.reports.pop()
            warnings.warn(category(path, message), stacklevel=_caller_level())
            return
        first: dict[str, list] = {}
        for path, message, category in self.reports:
            entry = first.get(message)
            if entry is None:
                first[message] = [path, 0, category]
            else:
                entry[1] += 1
        level = _caller_level()
        for message, (path, more, category) in first.items():
            if more:
                message += f" (and at {more} more place{'s' if more > 1 else ''})"
            warnings.warn(category(path, message), stacklevel=level)
        self.reports.clear()

    def loss_report(self) -> list[tuple[str, str]]:
        """The reports so far as (path, message) pairs with formatted paths."""
        return [(format_path(p), m) for p, m, _ in self.reports]


def _caller_level() -> int:
    """The ``stacklevel`` of the first frame outside toolwire, so that a warning points at the
    caller's line (whichever public function, CLI or wrapper it came through)."""
    level, frame = 2, sys._getframe(2)  # 1 is flush, 2 its caller
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if not (name == "toolwire" or name.startswith(("toolwire.", "toolwire_runtime"))):
            return level
        frame = frame.f_back
        level += 1
    return level
