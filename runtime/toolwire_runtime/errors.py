"""Errors raised for bad input and the warning category for lossy conversions."""

from __future__ import annotations


class ConversionError(ValueError):
    """Base class of every error raised for bad input.

    ``path`` locates the offending field in the input, e.g.
    ``messages[3].tool_calls[0].function.arguments``.
    """

    def __init__(self, path: object, message: str) -> None:
        self.path = format_path(path)
        self.message = message
        super().__init__(f"{self.path or '<root>'}: {message}")

    def add_hint(self, hint: str) -> None:
        """Append advice to the message (e.g. the kind of body the payload looks like)."""
        self.message = f"{self.message} ({hint})"
        self.args = (f"{self.path or '<root>'}: {self.message}",)


def format_path(path: object) -> str:
    """Paths are built cheaply as nested ``(parent, key)`` tuples and formatted only when shown."""
    if type(path) is str:
        return path
    keys: list = []
    while type(path) is tuple:
        path, key = path
        keys.append(key)
    out = path if type(path) is str else ""
    for key in reversed(keys):
        if type(key) is int:
            out += f"[{key}]"
        elif out:
            out += "." + key
        else:
            out = key
    return out


class MissingFieldError(ConversionError):
    """A required field is absent."""


class WrongTypeError(ConversionError):
    """A field has the wrong JSON type."""


class UnknownVariantError(ConversionError):
    """An unknown role, part type, or enum value."""


class InvalidArgumentsError(ConversionError):
    """Tool-call arguments are not a JSON object (raised in strict mode; reported otherwise)."""


class UnknownToolCallError(ConversionError):
    """A tool result whose id matches no earlier tool call."""


class UnansweredToolCallError(ConversionError):
    """The target requires every tool call to be answered and one is not."""


class ResultCountError(ConversionError):
    """A turn has more results than calls (a call answered twice): the target needs one per call."""


class NameCollisionError(ConversionError):
    """Two different ids or tool names of the input map to the same value on the target."""


class LossError(ConversionError):
    """strict=True: the target cannot express something the input holds."""


class UnsupportedError(ConversionError):
    """The target has no way at all to express a required part of the input."""


class StreamFormatError(ConversionError):
    """A stream body that cannot be cut into events: SSE data that is not JSON, a truncated NDJSON
    line, a corrupt or truncated AWS event-stream frame. ``path`` is ``events[i]`` (``i``, also in
    ``index``, is the position in the stream of the event being read); the message says where in
    the body."""

    def __init__(self, path: object, message: str, index: int | None = None) -> None:
        self.index = index
        super().__init__(path, message)


class ProviderStreamError(ConversionError):
    """The provider reported an error inside the stream (an AWS event-stream ``exception`` or
    ``error`` frame). ``error_type`` is the provider's name for it (``throttlingException``),
    ``provider_message`` its own message; ``index`` the position in the stream."""

    def __init__(self, path: object, error_type: str, provider_message: str, index: int | None = None) -> None:
        self.error_type = error_type
        self.provider_message = provider_message
        self.index = index
        super().__init__(path, f"the provider sent {error_type}: {provider_message}")


class ConversionWarning(UserWarning):
    """Something the caller should know about a conversion; the base of the categories below
    (filter them apart with ``warnings.filterwarnings(..., category=...)``)."""

    def __init__(self, path: object, message: str) -> None:
        self.path = format_path(path)
        self.message = message
        super().__init__(f"{self.path or '<root>'}: {message}")


class LossWarning(ConversionWarning):
    """Something the input holds was dropped or changed because the target cannot express it
    (``strict=True`` raises ``LossError`` instead)."""


class AssumptionWarning(ConversionWarning):
    """A value the target requires and the input does not have was filled in with a default
    (Anthropic ``max_tokens`` 4096, a response's ``created`` 0). Nothing of the input is lost."""


class LayoutWarning(ConversionWarning):
    """A translated stream lays the response out otherwise than the response converted whole,
    because the target's stream cannot take back what it sent: text that came after a call, into a
    stream whose text block had ended, is a block of its own after the call. Nothing is lost."""


class OutsideBodyWarning(ConversionWarning):
    """A value the target takes outside the request body (Gemini's and Bedrock's model is in the
    URL): not in the body, to be passed where the target takes it. Nothing of the input is lost."""
