"""Plot-twist cards as the engine reads them, and what played cards leave in play: the marks on victims,
the ticking clock, the revealed subplots (HC-PLOT-01..05), and when they end."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from clix.engine.horrorclix.state import ON_MAP, GameState, Lasting, Monster, Victim

# --- cards ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlotCard:
    """A plot-twist card as the engine reads it (compiled once from the roster's PlotTwist)."""

    name: str
    kind: str
    windows: frozenset[str]
    effect: str
    params: dict[str, Any]

    @property
    def rerolls(self) -> bool:
        """Whether the card can reroll an attack roll (HC-PLOT-07, HC-PLOT-12)."""
        return "attack_roll" in self.windows and (self.effect == "reroll_attack" or bool(self.params.get("or_reroll")))


_CARDS: dict[int, tuple[object, PlotCard]] = {}


def card(state: GameState, name: str) -> PlotCard:
    """The card named `name` (from `state.cards`)."""
    source = state.cards.get(name)
    if source is None:
        raise KeyError(f"no plot twist named '{name}' in the game's cards")
    if isinstance(source, PlotCard):
        return source
    found = _CARDS.get(id(source))
    if found is None or found[0] is not source:
        compiled = PlotCard(
            source.name, source.kind, frozenset(source.windows), source.effect.name, dict(source.effect.params)
        )
        found = _CARDS[id(source)] = (source, compiled)
    return found[1]


# --- what plot twists leave in play -----------------------------------------------------------------


@dataclass
class Mark:
    """A card's hold on a victim: `frozen` (no one may move it, HC-VICTIM-03), `no_slaying` or `no_rescue`."""

    victim: int
    kind: str
    card: str
    until_turn_of: int | None = None
    last_turn: int | None = None


@dataclass
class PlotTable:
    """Plot-twist bookkeeping of one game (`GameState.plot`)."""

    subplots: dict[int, list[str]] = field(default_factory=dict)
    """Revealed subplots by player (HC-PLOT-04)."""
    rival: dict[int, int] = field(default_factory=dict)
    """Per player, the uid of the opposing monster with the most points at setup (rival_killed)."""
    master: dict[int, int] = field(default_factory=dict)
    """Per player, the uid of its own monster with the most points at setup (each_victim_on_master)."""
    marks: list[Mark] = field(default_factory=list)
    slain_before: frozenset[str] = frozenset()
    """Victims already slain when the subplots were revealed (a scenario's victim tokens)."""
    clock: tuple[str, Lasting] | None = None
    """The ticking clock in play and the lasting effect it keeps up (HC-PLOT-05)."""

    def copy(self) -> PlotTable:
        """A copy for `GameState.copy` (marks and lasting effects are replaced, never edited: shared)."""
        return PlotTable(
            {player: list(cards) for player, cards in self.subplots.items()},
            dict(self.rival),
            dict(self.master),
            list(self.marks),
            self.slain_before,
            self.clock,
        )


def table(state: GameState) -> PlotTable:
    if state.plot is None:
        state.plot = PlotTable()
    return state.plot


def frozen(state: GameState, victim: int) -> str:
    """The card holding victim `victim` still (no one may move it), or ''."""
    plot = state.plot
    if plot is None or not plot.marks:
        return ""
    return next((m.card for m in plot.marks if m.victim == victim and m.kind == "frozen"), "")


_NO_SPACES: frozenset[int] = frozenset()


def blocked_ends(state: GameState, actor: Monster) -> frozenset[int] | set[int]:
    """Spaces `actor` may not end a move in: victims a card protects from its slaying or rescue (a move
    ending there would slay or rescue them, HC-SLAY-04, HC-SLAY-06)."""
    plot = state.plot
    if plot is None or not plot.marks:
        return _NO_SPACES
    kind = "no_rescue" if actor.rescuer else "no_slaying"
    victims = state.victims
    return {
        victims[m.victim].pos for m in plot.marks if m.kind == kind and victims[m.victim].state == ON_MAP
    }


def protection(state: GameState, actor: Monster, space: int) -> str:
    """The card protecting the victim at `space` from `actor`'s slaying or rescue, or ''."""
    plot = state.plot
    if plot is None or not plot.marks:
        return ""
    kind = "no_rescue" if actor.rescuer else "no_slaying"
    for m in plot.marks:
        victim = state.victims[m.victim]
        if m.kind == kind and victim.state == ON_MAP and victim.pos == space:
            return m.card
    return ""


def mark_victim(state: GameState, victim: Victim, kind: str, name: str, player: int, duration: str) -> None:
    table(state).marks.append(Mark(victim.uid, kind, name, **lasting_until(state, player, duration, marks=True)))


def lasting_until(state: GameState, player: int, duration: str, marks: bool = False) -> dict[str, Any]:
    """When an effect of `player`'s card played now ends (DURATION_HELP of the registry)."""
    if duration == "until_your_next_turn":
        return {"until_turn_of": player}  # HC-TURN-08 (1)
    if duration == "through_their_next_turn":
        return {"last_turn": state.turn + len(state.players)}  # the active player's next turn, included
    if duration == "this_action" and not marks:
        return {"this_action": True}  # HC-VALUE-03
    return {"last_turn": state.turn}


def expire(state: GameState) -> None:
    """At the beginning of a turn, effects whose time is up end (HC-TURN-08 (1))."""
    if state.lasting:
        state.lasting = [e for e in state.lasting if e.last_turn is None or e.last_turn >= state.turn]
    plot = state.plot
    if plot is not None and plot.marks:
        plot.marks = [
            m
            for m in plot.marks
            if m.until_turn_of != state.active and (m.last_turn is None or m.last_turn >= state.turn)
        ]


def end_action(state: GameState) -> None:
    """Effects lasting one action end with it (HC-VALUE-03)."""
    if state.lasting:
        state.lasting = [e for e in state.lasting if not e.this_action]
