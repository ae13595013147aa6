"""HeroClix's team abilities, feats and battlefield conditions as data (HX-TEAM, HX-FEAT, HX-BFC), and the record of
those in a game. The seeds give no team-ability, feat or condition text (HX-TEAM-10, HX-FEAT-08, HX-BFC-05 OPEN), so
each is built from a hook the engine already has: the effects below are the registry a file chooses from, as
`POWERS` is for powers. A list file says `ruleset: heroclix-2005` and holds `teams:`, `feats:` or `conditions:`;
sample ones (rosters/heroclix/) are clix's own design and say so in their `provenance`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from clix.engine.heroclix.powers import POWERS, STEALTH, WILLPOWER, power_named
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

GRANTABLE = (WILLPOWER, STEALTH, "Regeneration")
"""The powers a team ability may let its members use (HX-TEAM-10 OPEN: "members may use Willpower"): those whose
rule asks the team abilities too (`rules.begin_turn`, `stealth.hidden`, `power_actions`: Regeneration is given as
a power action used for the team ability, HX-TEAM-05)."""
VALUES = ("speed", "attack", "defense", "damage")
"""The combat values a card may modify (HX-VALUE-02), within the rule of 3 (HX-VALUE-05)."""
ACTIONS = ("move", "close", "ranged")
"""The kinds of action a feat may be used by giving (HX-FEAT-05, HX-TURN-08)."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class Modifier(_Strict):
    """A modifier to one combat value (HX-VALUE-02): `{value: defense, amount: 1, attacks: ranged}`. Attack and
    damage modifiers count when the character attacks, defense ones when it is attacked, speed ones whenever its
    speed is read; `attacks` limits one to close or ranged attacks (thrown objects are ranged)."""

    value: Literal["speed", "attack", "defense", "damage"]
    """The combat value it modifies: speed, attack, defense or damage."""
    amount: int = Field(ge=-3, le=3)
    """The change, -3 to 3 (not 0)."""
    attacks: Literal["close", "ranged"] | None = None
    """Only in close or ranged attacks; absent: in every attack (not for speed)."""

    @model_validator(mode="after")
    def _sense(self) -> Modifier:
        if self.amount == 0:
            raise ValueError("a modifier of 0 changes nothing")
        if self.value == "speed" and self.attacks is not None:
            raise ValueError("a speed modifier is not limited to attacks")
        return self


class TeamAbility(_Strict):
    """A team's ability (HX-TEAM-01): members may use a power (`power`), or get a modifier (`modifier`), while at
    least `members` members of their force are on the map (HX-TEAM-02); or the team is a wild card
    (`wild_card: true`, HX-TEAM-06)."""

    team: str = Field(min_length=1)
    """The team symbol a character's `team:` names."""
    text: str = Field(min_length=1)
    """The ability's text as players read it."""
    wild_card: bool = False
    """Whether the team is a wild card, whose members use another team's ability (default false; HX-TEAM-06)."""
    power: str | None = None
    """A power its members may use: Willpower, Stealth or Regeneration."""
    modifier: Modifier | None = None
    """A modifier its members get."""
    members: int = Field(1, ge=1, le=6)
    """How many members of the force must be on the map for it to work (default 1; HX-TEAM-02)."""
    provenance: str = Field(min_length=1)
    """Where the text comes from."""

    @field_validator("power")
    @classmethod
    def _grantable(cls, power: str | None) -> str | None:
        if power is None:
            return None
        name = power_named(power)
        if name not in GRANTABLE:
            raise ValueError(f"a team ability lets its members use one of {', '.join(GRANTABLE)}, not {power!r}")
        return name

    @model_validator(mode="after")
    def _one_effect(self) -> TeamAbility:
        if [self.wild_card, self.power is not None, self.modifier is not None].count(True) != 1:
            raise ValueError("a team ability is exactly one of: wild_card: true, power, modifier")
        return self


class Prerequisites(_Strict):
    """What a character needs to be assigned a feat and to use it (HX-FEAT-03, -05): a team symbol printed on its
    base, powers and at least these unmodified values showing together on one click, a range and speed mode."""

    team: str | None = None
    """A team symbol the character's base must show."""
    powers: list[str] = Field(default_factory=list)
    """Powers the character must have."""
    speed: int | None = Field(None, ge=0, le=30)
    """At least this speed value, shown with the other values asked on one click."""
    attack: int | None = Field(None, ge=0, le=30)
    """At least this attack value, shown with the other values asked on one click."""
    defense: int | None = Field(None, ge=0, le=30)
    """At least this defense value, shown with the other values asked on one click."""
    damage: int | None = Field(None, ge=0, le=30)
    """At least this damage value, shown with the other values asked on one click."""
    range: int | None = Field(None, ge=0, le=20)
    """At least this range value."""
    speed_mode: Literal["boot", "wing", "dolphin"] | None = None
    """This speed symbol: boot, wing or dolphin."""

    @field_validator("powers")
    @classmethod
    def _known(cls, powers: list[str]) -> list[str]:
        unknown = [p for p in powers if power_named(p) not in POWERS]
        if unknown:
            raise ValueError(f"no power clix plays is named {unknown[0]!r}")
        return [power_named(p) for p in powers]

    def values(self) -> dict[str, int]:
        """The dial values required, by slot."""
        wanted = {"speed": self.speed, "attack": self.attack, "defense": self.defense, "damage": self.damage}
        return {slot: value for slot, value in wanted.items() if value is not None}


class Feat(_Strict):
    """A feat card (HX-FEAT-01): its points, how many characters it is assigned to (`characters`; 0: chosen for no
    character, HX-FEAT-02), whether its cost is per character (`per_character`, HX-END-09), its prerequisites, its
    modifier, the kind of action that uses it (`action`; none: in effect during every action, HX-FEAT-06) and the
    pushing damage using it costs (HX-FEAT-08)."""

    name: str = Field(min_length=1)
    """The feat's name; forces and scenarios name it."""
    points: int = Field(ge=0, le=500)
    """Its point cost, 0-500 (for each character assigned when per_character)."""
    text: str = Field(min_length=1)
    """The feat's text as players read it."""
    characters: int = Field(1, ge=0, le=20)
    """How many characters it may be assigned to (default 1; 0: chosen for no character, HX-FEAT-02)."""
    per_character: bool = False
    """Whether it costs its points for each character assigned (default false; HX-END-09)."""
    requires: Prerequisites = Field(default_factory=Prerequisites)
    """What a character needs to be assigned it and use it (default: nothing)."""
    modifier: Modifier | None = None
    """The modifier it gives."""
    action: Literal["move", "close", "ranged"] | None = None
    """The kind of action that uses it: move, close or ranged; absent: in effect during every action."""
    pushing: int = Field(0, ge=0, le=2)
    """Pushing damage using it costs, 0-2 (default 0; needs `action`)."""
    provenance: str = Field(min_length=1)
    """Where the text comes from."""

    @model_validator(mode="after")
    def _sense(self) -> Feat:
        if self.modifier is None and not self.pushing:
            raise ValueError("a feat has a modifier, or pushing damage, or both")
        if self.characters == 0 and (self.per_character or self.action or self.pushing):
            raise ValueError("a feat chosen for no character (characters: 0) has no per-character cost, action or "
                             "pushing damage")  # fmt: skip
        if self.pushing and self.action is None:
            raise ValueError("a feat that costs pushing damage is used by giving an action: name its 'action'")
        return self

    def cost(self, assigned: int) -> int:
        """Its points in a force where it is assigned to `assigned` characters (HX-FEAT-01, HX-END-09)."""
        return self.points * assigned if self.per_character else self.points


class TurnRoll(_Strict):
    """At the beginning of each player's turn, a d6 for each copy in play: on `roll` or more each of that player's
    characters heals `heal` clicks (HX-BFC-03)."""

    roll: int = Field(ge=2, le=6)
    """The d6 result needed, 2-6."""
    heal: int = Field(ge=1, le=3)
    """Clicks each of the player's characters heals on a success, 1-3."""


class TerrainRule(_Strict):
    """What a type of terrain counts as: `{hindering: clear}`."""

    hindering: Literal["clear"]
    """What the map's printed hindering terrain counts as: clear."""


class Condition(_Strict):
    """A battlefield condition (HX-BFC-01): one global rule: a terrain rule, a modifier for every character on the
    battlefield, or a roll at the beginning of each turn."""

    name: str = Field(min_length=1)
    """The condition's name; forces and scenarios name it."""
    text: str = Field(min_length=1)
    """The condition's text as players read it."""
    terrain: TerrainRule | None = None
    """A terrain rule: {hindering: clear}."""
    modifier: Modifier | None = None
    """A modifier for every character on the battlefield."""
    each_turn: TurnRoll | None = None
    """A roll at the beginning of each player's turn: {roll: N, heal: M}."""
    provenance: str = Field(min_length=1)
    """Where the text comes from."""

    @model_validator(mode="after")
    def _one_rule(self) -> Condition:
        if [self.terrain, self.modifier, self.each_turn].count(None) != 2:
            raise ValueError("a battlefield condition is exactly one of: terrain, modifier, each_turn")
        return self


class TeamFile(_Strict):
    ruleset: Literal["heroclix-2005"]
    """The game this file is for: heroclix-2005."""
    teams: list[TeamAbility] = Field(min_length=1)
    """The team abilities, one per team symbol."""


class FeatFile(_Strict):
    ruleset: Literal["heroclix-2005"]
    """The game this file is for: heroclix-2005."""
    feats: list[Feat] = Field(min_length=1)
    """The feats, one per name."""


class ConditionFile(_Strict):
    ruleset: Literal["heroclix-2005"]
    """The game this file is for: heroclix-2005."""
    conditions: list[Condition] = Field(min_length=1)
    """The battlefield conditions, one per name."""


CARD_KINDS: tuple[tuple[str, type[BaseModel], str], ...] = (
    ("teams", TeamFile, "team"),
    ("feats", FeatFile, "name"),
    ("conditions", ConditionFile, "name"),
)
"""A list file's key, its model and the field naming each entry."""
CARD_ENTRIES: dict[str, type[BaseModel]] = {"teams": TeamAbility, "feats": Feat, "conditions": Condition}
"""Each list file's entries, validated one by one."""


@dataclass(frozen=True)
class FeatCard:
    """A feat in a game: its owner, the characters it is assigned to (for a feat chosen for no character, every
    character of its force) and the victory points it is worth (HX-END-09, -10)."""

    feat: Feat
    owner: int
    holders: tuple[int, ...]


@dataclass
class Cards:
    """The team abilities, feats and battlefield conditions of a game (`HeroState.cards`; None: none at all)."""

    teams: dict[str, TeamAbility] = field(default_factory=dict)
    """The team abilities known, by team symbol."""
    symbols: dict[int, str] = field(default_factory=dict)
    """Per character uid: the team symbol printed on its base."""
    feats: tuple[FeatCard, ...] = ()
    conditions: tuple[tuple[int, Condition], ...] = ()
    """The battlefield conditions in play, with the player who brought each, in the order revealed."""
    copying: dict[int, str] = field(default_factory=dict)
    """Per wild card uid: the team whose ability it uses (HX-TEAM-07: kept until it uses another)."""
    canceled: set[tuple[int, str]] = field(default_factory=set)
    """(uid, team) of team abilities canceled until the end of the turn (HX-TEAM-04)."""
    unused: set[tuple[int, str]] = field(default_factory=set)
    """(uid, feat) of feats not used during the action being resolved (HX-FEAT-06)."""
    using: dict[int, str] = field(default_factory=dict)
    """Per uid: the feat the action being resolved was given to use (HX-FEAT-05)."""
    removed: set[tuple[int, int]] = field(default_factory=set)
    """(feat card index, holder uid or -1) of feats, or per-character parts of one, removed and scored (HX-END-09)."""
    modified: frozenset[str] | None = None
    """The values (speed, attack, defense, damage) some card of the game may modify (`cards.modified_values`),
    set once the cards are dealt; None: not known yet (`cards.modifier` then works the sum out every time)."""

    def copy(self) -> Cards:
        return Cards(
            self.teams, self.symbols, self.feats, self.conditions, dict(self.copying), set(self.canceled),
            set(self.unused), dict(self.using), set(self.removed), self.modified,
        )  # fmt: skip


class FeatChoice(_Strict):
    """A feat in a force (HX-FEAT-02): `{feat: NAME, character: ID}`, `{feat: NAME, characters: [ID, ...]}`, or
    `{feat: NAME}` for a feat chosen for no character. `ID#2` names the second copy of a character in the force."""

    feat: str = Field(min_length=1)
    """The feat's name."""
    character: str | None = None
    """The id of the character it is assigned to (ID#2: the second copy of that id)."""
    characters: list[str] = Field(default_factory=list)
    """The ids of the characters it is assigned to (ID#2: the second copy of that id)."""

    @model_validator(mode="after")
    def _one_way(self) -> FeatChoice:
        if self.character is not None and self.characters:
            raise ValueError("a feat names 'character' or 'characters', not both")
        return self

    def named(self) -> list[str]:
        """The characters it is assigned to, as written."""
        return [self.character] if self.character is not None else list(self.characters)


def copy_of(name: str, roster: list[str]) -> tuple[str, int] | None:
    """The character `name` (`ID` or `ID#N`) names among `roster` (ids, copies repeated): its id and which copy,
    1 for the first; None when the force has no such character."""
    base, _, number = name.partition("#")
    copy = int(number) if number.isdigit() else 0 if number else 1
    return (base, copy) if 1 <= copy <= roster.count(base) else None
