"""A provider-neutral agent loop: ``toolwire.Conversation`` (design seed 004).

The conversation is kept as IR messages. Each turn it renders the request body for whichever
provider is asked (``toolwire.from_ir``), takes the provider's response body back
(``toolwire.to_ir(..., kind="response")``), hands out the calls to run and appends their results.
Two guards stop a runaway loop with an exception that says which limit was hit: ``max_turns``
(model calls) and a budget on the tokens the responses report (``token_budget``; or a cost in
money with ``max_cost`` and ``prices``).

Stdlib only; imported on first use (``import toolwire`` stays fast).
"""

from __future__ import annotations

import warnings
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from toolwire import ir

from .layout import synth_id
from .tool_runner import arun_tool_calls, run_tool_calls, tool_name, tool_table


class AgentLimitError(RuntimeError):
    """The agent loop hit one of its guards (``TurnLimitError``, ``TokenBudgetError``)."""


class TurnLimitError(AgentLimitError):
    """The model was called ``max_turns`` times and still asks for tools."""


class TokenBudgetError(AgentLimitError):
    """The tokens (or the cost) the responses reported reached the budget before the task ended."""


def _definition(tool: Any) -> ir.ToolDefinition | ir.ProviderTool:
    """The ``ir.ToolDefinition`` of a tool entry: a definition itself, an object carrying one in
    ``.definition`` (``@toolwire.tool``), or a plain function (through ``toolwire.tool_from_function``
    when that exists)."""
    if isinstance(tool, (ir.ToolDefinition, ir.ProviderTool)):
        return tool
    definition = getattr(tool, "definition", None)
    if isinstance(definition, ir.ToolDefinition):
        return definition
    if callable(tool):
        import toolwire

        try:
            from_function = toolwire.tool_from_function
        except AttributeError:
            from_function = None
        if from_function is not None:
            return from_function(tool)
    raise TypeError(
        f"tool {tool!r} has no definition: pass toolwire.ir.ToolDefinition objects "
        "(and the functions to run as a mapping to run() / run_tool_calls())"
    )


def _tool_choice(choice: Any) -> ir.ToolChoice | None:
    if choice is None or isinstance(choice, ir.ToolChoice):
        return choice
    if choice in ("auto", "none", "required"):
        return ir.ToolChoice(mode=choice)
    if isinstance(choice, str):  # a tool's name
        return ir.ToolChoice(mode="tool", name=choice)
    raise TypeError(
        f"tool_choice must be 'auto', 'none', 'required', a tool name or an ir.ToolChoice, got {choice!r}"
    )


def _user_message(content: Any) -> ir.Message:
    if isinstance(content, ir.Message):
        return content
    if isinstance(content, str):
        return ir.Message(role="user", parts=[ir.TextPart(text=content)])
    return ir.Message(role="user", parts=list(content))


class Conversation:
    """An agent conversation in the IR, rendered for any provider at each turn.

        >>> convo = toolwire.Conversation(system="Be brief.", tools=[weather_definition], max_turns=5)
        >>> convo.user("Weather in Tokyo and Paris?")
        >>> body = convo.request("anthropic", model="claude-sonnet-4-5")      # POST it
        >>> calls = convo.add_response(response_body, "anthropic")            # [] at the end
        >>> convo.add_results(toolwire.run_tool_calls(calls, {"get_weather": get_weather}))

    ``tools``: ``ir.ToolDefinition``s, ``@toolwire.tool`` functions (their ``.definition``) or
    ``ir.ProviderTool``s. ``tool_choice``: ``"auto"``, ``"none"``, ``"required"``, a tool name or an
    ``ir.ToolChoice`` (sent on every turn). ``options``: further ``ir.Request`` fields
    (``max_tokens``, ``temperature``, ``parallel_tool_calls``, ...).

    Guards, checked before each request is rendered: ``max_turns`` model calls (``TurnLimitError``;
    seed 004 recommends 10), ``token_budget`` tokens reported by the responses' usage, input plus
    output, summed over the turns (``TokenBudgetError``), and ``max_cost`` in the currency of
    ``prices`` = (price per million input tokens, per million output tokens).
    """

    def __init__(
        self,
        *,
        system: str | None = None,
        tools: Iterable[Any] = (),
        tool_choice: Any = None,
        model: str | None = None,
        messages: Iterable[ir.Message] = (),
        max_turns: int | None = 10,
        token_budget: int | None = None,
        max_cost: float | None = None,
        prices: tuple[float, float] | None = None,
        **options: Any,
    ) -> None:
        if max_cost is not None and prices is None:
            raise ValueError(
                "max_cost needs prices=(per million input tokens, per million output tokens)"
            )
        self.tools = list(tools)
        self.definitions = [_definition(tool) for tool in self.tools]
        self.tool_choice = _tool_choice(tool_choice)
        self.model = model
        self.messages: list[ir.Message] = []
        if system is not None:
            self.messages.append(ir.Message(role="system", parts=[ir.TextPart(text=system)]))
        self.messages.extend(messages)
        self.options = options
        self.max_turns = max_turns
        self.token_budget = token_budget
        self.max_cost = max_cost
        self.prices = prices
        self.turns = 0
        self.input_tokens = 0
        self.output_tokens = 0
        self.responses: list[ir.Response] = []

    # -- the history ---------------------------------------------------------------------------

    def user(self, content: Any) -> None:
        """Append a user turn: a string, a list of IR parts or an ``ir.Message``."""
        self.messages.append(_user_message(content))

    def ir_request(self, model: str | None = None) -> ir.Request:
        """The conversation so far as an ``ir.Request``."""
        return ir.Request(
            messages=list(self.messages),
            model=model if model is not None else self.model,
            tools=list(self.definitions) or None,
            tool_choice=self.tool_choice,
            **self.options,
        )

    def request(self, provider: str, *, model: str | None = None, strict: bool = False) -> dict:
        """The body of the next request to ``provider`` (``toolwire.from_ir``), after the guards."""
        import toolwire

        self.check_limits()
        return toolwire.from_ir(self.ir_request(model), provider=provider, strict=strict)

    def add_response(
        self, response: Any, provider: str | None = None, *, strict: bool = False
    ) -> list[ir.ToolCall]:
        """Append the model's answer and return the tool calls it asks for (``[]`` when done).

        ``response``: the provider's response body (a dict; parsed with
        ``toolwire.to_ir(..., kind="response")``, tool names fitted to the provider mapped back)
        or an ``ir.Response``. Its usage counts toward the token budget.
        """
        if not isinstance(response, ir.Response):
            if provider is None:
                raise TypeError("add_response needs the provider of a response body")
            import toolwire

            names = [d.name for d in self.definitions if isinstance(d, ir.ToolDefinition)]
            response = toolwire.to_ir(
                response,
                provider=provider,
                kind="response",
                strict=strict,
                tool_names=names or None,
            )
        self.turns += 1
        self.responses.append(response)
        self._count(response.usage)
        calls = [part for part in response.message.parts if isinstance(part, ir.ToolCall)]
        self._unique_synthetic_ids(calls)
        self.messages.append(response.message)
        return calls

    def _unique_synthetic_ids(self, calls: list[ir.ToolCall]) -> None:
        """Ids toolwire made up for a provider that sends none (Gemini, Vertex AI) start again at
        each response (``call_r0``, ...): renamed so that they stay unique in the conversation."""
        if not any(call.synthetic_id for call in calls):
            return
        taken = {p.id: p for m in self.messages for p in m.parts if isinstance(p, ir.ToolCall)}
        for call in calls:
            if call.synthetic_id and call.id in taken:
                call.id = synth_id(call.id, taken)
            taken[call.id] = call

    def add_results(self, message: ir.Message) -> None:
        """Append the ``tool`` message answering the last turn's calls (``run_tool_calls``)."""
        if not isinstance(message, ir.Message) or message.role != "tool":
            raise TypeError(
                f"add_results takes the ir.Message(role='tool') run_tool_calls returns, got {message!r}"
            )
        self.messages.append(message)

    @property
    def last_response(self) -> ir.Response | None:
        return self.responses[-1] if self.responses else None

    @property
    def text(self) -> str:
        """The text of the model's last answer."""
        last = self.last_response
        if last is None:
            return ""
        return "".join(p.text for p in last.message.parts if isinstance(p, ir.TextPart))

    # -- the guards ----------------------------------------------------------------------------

    def _count(self, usage: ir.Usage | None) -> None:
        if usage is None or (
            usage.input_tokens is None
            and usage.output_tokens is None
            and usage.total_tokens is None
        ):
            if self.token_budget is not None or self.max_cost is not None:
                warnings.warn(
                    "a response reported no token usage: the token budget does not count it",
                    RuntimeWarning,
                    stacklevel=3,
                )
            return
        if usage.input_tokens is None and usage.output_tokens is None:
            self.input_tokens += usage.total_tokens or 0  # only a total: counted as input
            return
        self.input_tokens += usage.input_tokens or 0
        self.output_tokens += usage.output_tokens or 0

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    @property
    def cost(self) -> float | None:
        """The responses' cost so far at ``prices`` (None without prices)."""
        if self.prices is None:
            return None
        per_input, per_output = self.prices
        return (self.input_tokens * per_input + self.output_tokens * per_output) / 1_000_000

    def check_limits(self) -> None:
        """Raise ``TurnLimitError`` / ``TokenBudgetError`` when another model call would exceed a guard."""
        if self.max_turns is not None and self.turns >= self.max_turns:
            raise TurnLimitError(
                f"the model was called {self.turns} times (max_turns={self.max_turns}) and the task is not done"
            )
        if self.token_budget is not None and self.total_tokens >= self.token_budget:
            raise TokenBudgetError(
                f"the responses used {self.total_tokens} tokens ({self.input_tokens} in, {self.output_tokens} out), "
                f"token_budget={self.token_budget}, and the task is not done"
            )
        if self.max_cost is not None and self.cost >= self.max_cost:
            raise TokenBudgetError(
                f"the responses cost {self.cost:.6g} ({self.input_tokens} tokens in, {self.output_tokens} out), "
                f"max_cost={self.max_cost:g}, and the task is not done"
            )

    # -- the loop ------------------------------------------------------------------------------

    def _runners(self, tools: Any) -> dict[str, Callable]:
        if tools is not None:
            return tool_table(tools)
        runnable = [
            t for t in self.tools if not isinstance(t, (ir.ToolDefinition, ir.ProviderTool))
        ]
        return tool_table(runnable)

    def run(
        self,
        call_model: Callable[[dict], Any],
        tools: Mapping[str, Callable] | Iterable[Callable] | None = None,
        *,
        provider: str,
        model: str | None = None,
        timeout: float | None = None,
        max_workers: int | None = None,
    ) -> ir.Response:
        """Loop until the model answers without calls: render the request for ``provider``, call
        ``call_model(body)`` (which returns the provider's response body), run the calls with
        ``run_tool_calls`` and append their results. Returns the final ``ir.Response`` (its text is
        ``conversation.text``). ``tools``: the functions to run (default: the callable tools the
        conversation was made with). The guards raise ``AgentLimitError``s."""
        runners = self._runners(tools)
        while True:
            calls = self.add_response(call_model(self.request(provider, model=model)), provider)
            if not calls:
                return self.responses[-1]
            self.add_results(
                run_tool_calls(calls, runners, timeout=timeout, max_workers=max_workers)
            )

    async def arun(
        self,
        call_model: Callable[[dict], Awaitable[Any]],
        tools: Mapping[str, Callable] | Iterable[Callable] | None = None,
        *,
        provider: str,
        model: str | None = None,
        timeout: float | None = None,
        max_workers: int | None = None,
    ) -> ir.Response:
        """``run`` with an async ``call_model`` and ``arun_tool_calls``."""
        runners = self._runners(tools)
        while True:
            calls = self.add_response(
                await call_model(self.request(provider, model=model)), provider
            )
            if not calls:
                return self.responses[-1]
            self.add_results(
                await arun_tool_calls(calls, runners, timeout=timeout, max_workers=max_workers)
            )


__all__ = [
    "AgentLimitError",
    "Conversation",
    "TokenBudgetError",
    "TurnLimitError",
    "arun_tool_calls",
    "run_tool_calls",
    "tool_name",
]
