"""One random game checked against a ruleset's invariants after every action (`clix selfcheck`, each ruleset's
`check_game` entry point): the loop every ruleset shares, the setup and the invariants its own."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from clix.engine.core.driver import settle
from clix.engine.core.pending import Decision

MAX_ACTIONS = 50_000
"""Actions after which a checked game is reported as one that does not end."""


@dataclass(frozen=True)
class GameCheck:
    """What one checked game showed (the fields `clix selfcheck` reads)."""

    index: int
    problems: tuple[str, ...]
    turns: int
    end_reason: str
    log_digest: str
    actions: int


def play_checked(
    index: int,
    start: Callable[[], Any],
    agents: Sequence[Any],
    violations: Callable[[Any], list[str]],
    check_setup: bool = False,
) -> GameCheck:
    """Set a game up (`start`), then play it with `agents` by the ruleset's legal actions, checking `violations`
    after every action (and after setup when `check_setup`); a crash is a finding, reported with the index."""
    problems: list[str] = []
    actions = 0
    try:
        state = start()
        settle(state, agents)
        if check_setup:
            problems.extend(f"after setup: {v}" for v in violations(state))
        rules = state.ruleset
        while not state.over and not problems:
            options = rules.legal_actions(state)
            action = options[agents[state.active - 1].choose(state, Decision("action", state.active, options))]
            rules.apply(state, action)
            settle(state, agents)
            actions += 1
            problems.extend(f"after {action}: {v}" for v in violations(state))
            if actions > MAX_ACTIONS:
                problems.append("the game did not end")
    except Exception as exc:  # a crash is a finding, reported with the seed that replays it
        return GameCheck(index, (f"crash: {exc!r}",), 0, "crash", "", actions)
    digest = hashlib.sha1("\n".join(map(str, state.log)).encode()).hexdigest()[:16]
    return GameCheck(index, tuple(problems), state.turn, state.end_reason, digest, actions)
