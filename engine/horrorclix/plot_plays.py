"""What a player may play in a plot-twist window (HC-PLOT-07, HC-PLOT-08): the decision kinds and their options,
the window record, and which cards of a crypt fit a window with which targets (engine/horrorclix/plots.py opens the windows,
engine/horrorclix/card_effects.py resolves the cards)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from clix.engine.core.geometry import BLOCKING
from clix.engine.horrorclix import combat
from clix.engine.horrorclix.plot_table import PlotCard, card
from clix.engine.horrorclix.state import GameState, Monster, Victim

PLAY = "plot_twist"
"""Decision kind: play one of the listed cards, or pass (option 0, None)."""
PLACE = "plot_twist_place"
"""Decision kind: where a card puts a victim (the `place` key of the scenario's plot_twist step)."""
PATH = "plot_twist_path"
"""Decision kind: the path a card moves a victim or a monster along (`path` or `to` of the step)."""


# --- options ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, init=False)
class PlayCard:
    """Play plot twist `card` from `player`'s crypt, aimed at monster `target` when the card picks one.
    As an action it is played in its player's own hunting phase and costs no action (HC-PLOT-07)."""

    card: str
    player: int
    target: int | None = None
    label: str = field(default="", compare=False)
    """The target's label, for scenario steps (`target: ID`)."""

    def __init__(self, card: str, player: int, target: int | None = None, label: str = "") -> None:
        # written out for mypyc: every plot-twist window lists its plays
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "label", label)

    def __reduce__(self) -> tuple[Any, ...]:
        return (PlayCard, (self.card, self.player, self.target, self.label))

    def matches(self, step: dict[str, Any]) -> bool:
        """Whether scenario step `{plot_twist: CARD, player: N, target: ID}` names this play."""
        return step.get("plot_twist") == self.card and step.get("target", self.label) == self.label


@dataclass(frozen=True, slots=True, init=False)
class Place:
    """Put the victim at space `pos` (`at` its coordinates)."""

    pos: int
    at: tuple[int, int] = field(default=(0, 0), compare=False)

    def __init__(self, pos: int, at: tuple[int, int] = (0, 0)) -> None:  # written out for mypyc
        object.__setattr__(self, "pos", pos)
        object.__setattr__(self, "at", at)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Place, (self.pos, self.at))

    def matches(self, step: dict[str, Any]) -> bool:
        return "place" in step and tuple(step["place"]) == self.at


@dataclass(frozen=True, slots=True)
class Path:
    """Move along `spaces` (the spaces entered; none: stay)."""

    spaces: tuple[int, ...]
    coords: tuple[tuple[int, int], ...] = field(default=(), compare=False)

    def matches(self, step: dict[str, Any]) -> bool:
        """The step's `path` (or `to`) names the destination; the piece goes there by a shortest legal path
        (one option per destination)."""
        if "path" in step:
            path = step["path"] or ()
            return (tuple(path[-1]) if path else None) == (self.coords[-1] if self.coords else None)
        if "to" in step:
            return bool(self.coords) and tuple(step["to"]) == self.coords[-1]
        return False


def path_option(state: GameState, spaces: list[int] | tuple[int, ...]) -> Path:
    return Path(tuple(spaces), tuple(state.geometry.xy(s) for s in spaces))


@dataclass(init=False)
class Window:
    """One timing window: what it is about, and what the card played in it did to the rules' next step."""

    name: str
    victim: Victim | None = None
    actor: Monster | None = None
    """The monster about to slay or rescue."""
    attacker: Monster | None = None
    targets: tuple[Monster, ...] = ()
    dice: tuple[int, int] = (0, 0)
    outcome: str = ""
    """slaying/rescue: '' (it goes ahead), 'no_vp' (it goes ahead, scoring nothing) or 'stopped';
    suspense: 'done' when the card moved or froze the victim."""

    def __init__(
        self,
        name: str,
        victim: Victim | None = None,
        actor: Monster | None = None,
        attacker: Monster | None = None,
        targets: tuple[Monster, ...] = (),
        dice: tuple[int, int] = (0, 0),
        outcome: str = "",
    ) -> None:
        self.name = name
        self.victim = victim
        self.actor = actor
        self.attacker = attacker
        self.targets = targets
        self.dice = dice
        self.outcome = outcome


def window_plays(state: GameState, w: Window, player: int) -> list[PlayCard]:
    """Every way `player` can play a card of their crypt in window `w`."""
    found: list[PlayCard] = []
    for name in state.player(player).hidden_cards:
        c = card(state, name)
        if w.name == "attack_roll" and c.rerolls:
            if may_reroll(state, w, player, c):
                found.append(PlayCard(name, player))
        elif w.name in c.windows:
            found.extend(card_plays(state, w, player, c))
    return found


def may_reroll(state: GameState, w: Window, player: int, c: PlotCard) -> bool:
    whose = c.params.get("whose", "any") if c.effect == "reroll_attack" else "any"
    if whose == "any" or w.attacker is None:
        return True
    friendly = state.player(w.attacker.controller).team == state.player(player).team
    return friendly == (whose == "own")


TARGETED = ("damage_monster", "stat_modifier", "action_tokens", "heal_monster", "free_move")


def card_plays(state: GameState, w: Window, player: int, c: PlotCard) -> list[PlayCard]:
    e, p = c.effect, c.params
    if e in ("prevent_slaying", "prevent_rescue"):
        return [PlayCard(c.name, player)] if w.actor is not None and placements(state, w.victim, p) else []
    if e == "spoil_victim":
        return [PlayCard(c.name, player)] if w.actor is not None else []
    if e in ("freeze_victim", "opponent_moves_victim", "protect_victim"):
        return [PlayCard(c.name, player)] if w.victim is not None else []
    if e == "ticking_clock":
        return [PlayCard(c.name, player)] if w.name == "preview" else []
    if e in TARGETED:
        group, single = targets(state, w, player, p)
        if e == "free_move":
            group = [m for m in group if not m.immovable]
        if single:
            return [PlayCard(c.name, player, m.uid, m.label) for m in group]
        return [PlayCard(c.name, player)] if group else []
    return []


def targets(state: GameState, w: Window, player: int, p: dict[str, Any]) -> tuple[list[Monster], bool]:
    """The monsters a card's `target` may pick, seen from the card's player (HC-SPECIAL-02, -13), and
    whether the player picks one of them (else the card affects them all)."""
    kind = p["target"]
    if kind in ("slayer", "rescuer"):
        group = [w.actor] if w.actor is not None else []
    elif kind == "attacker":
        group = [w.attacker] if w.attacker is not None else []
    elif kind == "attack_target":
        group = list(w.targets)
    else:
        team = state.player(player).team
        opposing = "opposing" in kind
        players = state.players
        group = [m for m in state.monsters if m.alive and (players[m.controller - 1].team != team) == opposing]
        if kind.endswith("near_victim"):
            victim = w.victim
            reach = p.get("reach", 1)
            group = [m for m in group if victim is not None and near(state, victim.pos, m.pos, reach)]
    group = [m for m in group if m.alive]
    if p.get("class"):
        group = [m for m in group if p["class"] in m.stats.classes]
    if p.get("blooded_only"):
        group = [m for m in group if m.blooded]
    return group, not kind.startswith("all_")


def near(state: GameState, a: int, b: int, reach: int) -> bool:
    """Within `reach` spaces; 1 means adjacent as pieces are (not across a wall or closed doorway)."""
    if reach == 1:
        return combat.adjacent(state, a, b)
    return state.geometry.distance(a, b) <= reach


def chosen(state: GameState, w: Window, play: PlayCard, p: dict[str, Any]) -> list[Monster]:
    """The monsters a play affects: its target, or the whole group of an all_* target."""
    if play.target is not None:
        return [state.monsters[play.target]]
    return targets(state, w, play.player, p)[0]


def affected(state: GameState, w: Window, play: PlayCard) -> list[Monster]:
    """The monsters `play` would affect in window `w`, for a player weighing it."""
    return chosen(state, w, play, card(state, play.card).params)


def placements(state: GameState, victim: Victim | None, p: dict[str, Any]) -> list[int]:
    """Where a stopped slaying or rescue may put the victim: an unoccupied space adjacent to it (HC-PLOT-06),
    or any empty victim start space (placement: victim_start)."""
    if victim is None:
        return []
    geo = state.geometry
    occupied = state.occupied()
    blocked = {o.pos for o in state.objects if o.alive and o.kind != "portal"}
    spaces = geo.victim_spaces if p.get("placement") == "victim_start" else combat.neighbours(state, victim.pos)
    return sorted(s for s in spaces if s not in occupied and s not in blocked and geo.terrain[s] != BLOCKING)


# --- the windows ------------------------------------------------------------------------------------
