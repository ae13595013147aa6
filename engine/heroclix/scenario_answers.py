"""The choices a scenario step answers for the rules in the middle of it (an extension of
../shared/scenario-format-heroclix.md, docs/data-formats.md). The rules put such a choice to a player as a
`Decision` (engine/core/decisions.py); a step names the answers the file wants in keys of its own, each a mapping
from the character the choice is about:

- `shape_change: {B: C}`: when B's Shape Change succeeds against the step's attack, its attacker targets C instead
  (HX-POWER-43; the attacker's player chooses);
- `mastermind: {M: S}`: when M (showing Mastermind) would be hit by the step's attack, S is hit instead
  (HX-POWER-31; M's player chooses);
- `reroll: {P: attack}` or `{P: break_away}`: P's player uses P's Probability Control to reroll the first attack
  roll (or break-away roll) of the step it may reroll (HX-POWER-42);
- `leadership: {L: F}`: on an `end_turn` step, when L's Leadership roll succeeds at the beginning of the next
  turn, F loses the action token (HX-POWER-48).

A choice the step does not answer gets the rules' default: none (no other target, no substitute, no reroll), or
for Leadership the first character in the order the characters were placed. A step whose answer names a choice
the rules do not offer while it is played (a character that may not be chosen, or a choice never put) is an
illegal step: the runner refuses it whole, and it rolls nothing."""

from __future__ import annotations

from typing import Any

from clix.engine.core import decisions
from clix.engine.core.pending import Decision
from clix.engine.heroclix.scenario_steps import ScenarioError
from clix.engine.heroclix.state import HeroState

ANSWER_KEYS = ("shape_change", "mastermind", "reroll", "leadership")
"""The step keys that answer choices, each named as the kind of the `Decision` it answers."""
ROLLS = ("attack", "break_away")
"""What a `reroll` answer may name."""


class Answers:
    """A step's answers (see the module), used up as the rules ask for them."""

    def __init__(self, step: dict[str, Any], ids: dict[str, int]) -> None:
        self.names = {uid: name for name, uid in ids.items()}
        self.given: dict[tuple[str, int], Any] = {}
        for key in ANSWER_KEYS:
            if key not in step:
                continue
            chosen = step[key]
            if not isinstance(chosen, dict) or not chosen:
                raise ScenarioError(f"'{key}' maps the character a choice is about to what is chosen, e.g. {{B: C}}")
            for about, answer in chosen.items():
                if about not in ids:
                    raise ScenarioError(f"{key}: no character has the id {about!r}")
                if key == "reroll" and answer not in ROLLS:
                    raise ScenarioError(f"reroll: {about}: the roll rerolled is one of {', '.join(ROLLS)}")
                if key != "reroll" and answer not in ids:
                    raise ScenarioError(f"{key}: {about}: no character has the id {answer!r}")
                self.given[key, ids[about]] = answer if key == "reroll" else ids[answer]

    def __bool__(self) -> bool:
        return bool(self.given)

    def settle(self, state: HeroState) -> str:
        """Answer every choice the step waits for until it ends; why the step is illegal ("" if it is not)."""
        while isinstance(state.waiting, Decision):
            choice = self._choice(state.waiting)
            if isinstance(choice, str):
                return choice
            decisions.answer(state, choice)
        if self.given:
            (key, about), answer = next(iter(self.given.items()))
            what = answer if key == "reroll" else self.names[answer]
            return f"{key}: {self.names[about]}: {what}: the rules offered no such choice during this step"
        return ""

    def _choice(self, question: Decision) -> int | str:
        """The index of the option the step chose, or why its answer is not an option."""
        if question.kind == "reroll":
            roll = question.context[1]
            for (key, user), answer in list(self.given.items()):
                if key == "reroll" and answer == roll and user in question.options:
                    del self.given[key, user]
                    return question.options.index(user)
            return 0
        answer = self.given.pop((question.kind, question.context), None)
        if answer is None:
            return 0
        if answer not in question.options:
            offered = ", ".join(self.names[o] for o in question.options if o is not None) or "none"
            return (
                f"{question.kind}: {self.names[question.context]}: {self.names[answer]} may not be chosen "
                f"({question.subject}; the choices: {offered})"
            )
        return question.options.index(answer)
