"""The format of a scenario's `setup:` block (an extension of ../shared/scenario-format-heroclix.md, documented in
docs/data-formats.md): forces to build and set up by the rules, the players' choices, and whether the rules must
accept or refuse them. `scenario_setup` plays it."""

from __future__ import annotations

from typing import Any, Literal

from clix.engine.heroclix.maps import Coord
from pydantic import BaseModel, ConfigDict, Field, model_validator


class Refused(BaseModel):
    """A setup the rules must refuse: `{refused: HX-BUILD-03}` or a list of rules, each named by a refusal."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    refused: str | list[str]
    """The rule ID the refusal must name, or a list of them (each must be named)."""
    reason_contains: str | None = None
    """Text a refusal's reason must contain."""

    def rules(self) -> list[str]:
        """The rule IDs the refusal must name."""
        return [self.refused] if isinstance(self.refused, str) else list(self.refused)

    @model_validator(mode="after")
    def _some(self) -> Refused:
        if not self.rules():
            raise ValueError("refused names the rule (or rules) the refusal must name")
        return self


class ScenarioSetup(BaseModel):
    """The `setup:` block: forces built and set up by the rules (module docstring)."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    characters: list[dict[str, Any]] = Field(default_factory=list)
    """Characters the forces may name, in the character file format (`ruleset` and `provenance` implied), besides
    the sample library's (rosters/heroclix)."""
    feats: list[dict[str, Any]] = Field(default_factory=list)
    """Feats the forces may name, as entries of a feats file (`provenance` implied), besides the sample's."""
    conditions: list[dict[str, Any]] = Field(default_factory=list)
    """Battlefield conditions the forces may name, as entries of a conditions file, besides the sample's."""
    forces: list[dict[str, Any]] = Field(min_length=1, max_length=4)
    """One force a player, player 1's first, in the force file format (`ruleset`, `name`, `provenance` implied)."""
    pile: list[int] | None = None
    """The order the mixed object pile is drawn in: indexes into the tokens as the forces list them, player 1's
    first (default: that order)."""
    areas: dict[int, int] = Field(default_factory=dict)
    """The starting area (its digit on the map) each player chooses, by player."""
    objects: list[Coord] = Field(default_factory=list)
    """Where each object token drawn is placed, in the order drawn."""
    place: dict[str, Coord | tuple[Coord, Coord]] = Field(default_factory=dict)
    """Where each character is placed, by its name in the scenario (its id; `id#2` for the second of that id, and
    so on, counted over the forces in player order); a double-base character's two squares, its front first."""
    flight: dict[str, Literal["hovering", "soaring"]] = Field(default_factory=dict)
    """How each flier is set, by its name in the scenario."""
    expect: Literal["legal"] | Refused
    """`legal` (the setup must succeed: then the scenario's `steps` and `expect` go on from the position it made)
    or `{refused: RULE}` (the setup must be refused naming RULE: then there are no steps)."""

    def names(self) -> list[list[str]]:
        """Each force's characters by their names in the scenario (`place`)."""
        seen: dict[str, int] = {}
        named: list[list[str]] = []
        for force in self.forces:
            mine = []
            for one in force.get("characters") or []:
                seen[str(one)] = seen.get(str(one), 0) + 1
                mine.append(str(one) if seen[str(one)] == 1 else f"{one}#{seen[str(one)]}")
            named.append(mine)
        return named


__all__ = ["Refused", "ScenarioSetup"]
