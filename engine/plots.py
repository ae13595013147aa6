"""Plot twists in play (HC-PLOT-01..14): crypts, the timing windows and every card effect.

A player's crypt (`Player.crypt`) holds card names, hidden from the other players (HC-PLOT-01);
`GameState.cards` gives each name's roster card: kind, windows, effect and parameters, whose meaning
and conventions are engine/registry/plot_effects.py. A card leaves the crypt when it is played. An
ordinary card is removed from the game once resolved (HC-PLOT-02); a subplot is revealed at setup and
scored at the end unless its player was eliminated (HC-SETUP-09, HC-PLOT-04, HC-END-08, HC-END-10); a
ticking clock stays in play until another ticking clock replaces it (HC-PLOT-05).

The windows (HC-PLOT-07), each opened by the rules at one point and closed by one card:

- preview (`preview`, from rules.begin_turn): the active player may play one ticking clock (HC-PLOT-10);
- suspense (`suspense`, from rules._choose_victim): once the chosen victim is face up, the first opponent
  clockwise from the active player who can play a card may play one (HC-VICTIM-03, HC-PLOT-08); a card
  that moves or freezes the victim replaces the active player's move of it;
- slaying / rescue (`before_slay`, from rules.slay, before the victim is taken): the same opponent may
  play one card (HC-PLOT-06, HC-PLOT-13, HC-SLAY-06);
- attack_roll (`after_attack_roll`, a roll responder of the HorrorClix ruleset): cards whose text names that time, right
  after an attack roll, each player in turn order from the active player; one card per roll, so a
  rerolled roll is never rerolled again (HC-PLOT-12);
- hunting (`PlayCard`, a legal action): cards played in their player's own hunting phase, at no action.

Who may respond is judged by whether a player can play a card now: a player none of whose cards fits
the window is passed over like one with an empty crypt, and once an asked player declines no one else
may play (HC-PLOT-08). A card never answers a card (no stacking, HC-PLOT-11): no effect opens a window.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from clix.engine import combat, decisions
from clix.engine.events import EventKind
from clix.engine.geometry import BLOCKING
from clix.engine.movement import MoveContext, VictimContext, destinations
from clix.engine.plot_table import (  # noqa: F401  (re-exported: the cards and the table are read through plots)
    Card,
    Mark,
    PlotTable,
    blocked_ends,
    card,
    end_action,
    expire,
    frozen,
    lasting_until,
    mark_victim,
    protection,
    table,
)
from clix.engine.state import GameState, Lasting, Monster, Phase, Victim, VictimState

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


def _path(state: GameState, spaces: list[int] | tuple[int, ...]) -> Path:
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


def _plays(state: GameState, w: Window, player: int) -> list[PlayCard]:
    """Every way `player` can play a card of their crypt in window `w`."""
    found: list[PlayCard] = []
    for name in state.player(player).crypt:
        c = card(state, name)
        if w.name == "attack_roll" and c.rerolls:
            if _may_reroll(state, w, player, c):
                found.append(PlayCard(name, player))
        elif w.name in c.windows:
            found.extend(_card_plays(state, w, player, c))
    return found


def _may_reroll(state: GameState, w: Window, player: int, c: Card) -> bool:
    whose = c.params.get("whose", "any") if c.effect == "reroll_attack" else "any"
    if whose == "any" or w.attacker is None:
        return True
    friendly = state.player(w.attacker.controller).team == state.player(player).team
    return friendly == (whose == "own")


TARGETED = ("damage_monster", "stat_modifier", "action_tokens", "heal_monster", "free_move")


def _card_plays(state: GameState, w: Window, player: int, c: Card) -> list[PlayCard]:
    e, p = c.effect, c.params
    if e in ("prevent_slaying", "prevent_rescue"):
        return [PlayCard(c.name, player)] if w.actor is not None and _placements(state, w.victim, p) else []
    if e == "spoil_victim":
        return [PlayCard(c.name, player)] if w.actor is not None else []
    if e in ("freeze_victim", "opponent_moves_victim", "protect_victim"):
        return [PlayCard(c.name, player)] if w.victim is not None else []
    if e == "ticking_clock":
        return [PlayCard(c.name, player)] if w.name == "preview" else []
    if e in TARGETED:
        group, single = _targets(state, w, player, p)
        if e == "free_move":
            group = [m for m in group if not m.immovable]
        if single:
            return [PlayCard(c.name, player, m.uid, m.label) for m in group]
        return [PlayCard(c.name, player)] if group else []
    return []


def _targets(state: GameState, w: Window, player: int, p: dict[str, Any]) -> tuple[list[Monster], bool]:
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
            group = [m for m in group if victim is not None and _near(state, victim.pos, m.pos, reach)]
    group = [m for m in group if m.alive]
    if p.get("class"):
        group = [m for m in group if p["class"] in m.stats.classes]
    if p.get("blooded_only"):
        group = [m for m in group if m.blooded]
    return group, not kind.startswith("all_")


def _near(state: GameState, a: int, b: int, reach: int) -> bool:
    """Within `reach` spaces; 1 means adjacent as pieces are (not across a wall or closed doorway)."""
    if reach == 1:
        return combat.adjacent(state, a, b)
    return state.geometry.distance(a, b) <= reach


def _chosen(state: GameState, w: Window, play: PlayCard, p: dict[str, Any]) -> list[Monster]:
    """The monsters a play affects: its target, or the whole group of an all_* target."""
    if play.target is not None:
        return [state.monsters[play.target]]
    return _targets(state, w, play.player, p)[0]


def affected(state: GameState, w: Window, play: PlayCard) -> list[Monster]:
    """The monsters `play` would affect in window `w`, for a player weighing it."""
    return _chosen(state, w, play, card(state, play.card).params)


def _placements(state: GameState, victim: Victim | None, p: dict[str, Any]) -> list[int]:
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


def preview(state: GameState) -> None:
    """Preview phase: the active player may play one ticking clock (HC-PLOT-05, HC-PLOT-07, HC-PLOT-10)."""
    player = state.active
    crypt = state.player(player).crypt
    if not crypt:
        return
    w = Window("preview")
    plays = _plays(state, w, player)
    if plays:
        choice = decisions.ask(state, PLAY, player, [None, *plays], "preview", w)
        if choice is not None:
            _resolve(state, w, choice)


def suspense(state: GameState, victim: Victim) -> bool:
    """The chosen victim is face up: one opponent may play one card affecting it (HC-VICTIM-03, HC-PLOT-07,
    HC-PLOT-08); if the card moved or froze it, the active player does not move it. True if a card was
    played (the caller checks whether the game ended)."""
    w = Window("suspense", victim=victim)
    if not _respond(state, w):
        return False
    if w.outcome == "done":
        state.chosen_victim = None
        state.phase = Phase.HUNTING
    return True


def before_slay(state: GameState, actor: Monster, victim: Victim) -> str:
    """A monster is about to slay or rescue `victim`: one opponent may play one card (HC-PLOT-06, HC-PLOT-13,
    HC-SLAY-01, HC-SLAY-06). Returns '' (it goes ahead), 'no_vp' (it goes ahead, scoring nothing) or
    'stopped' (prevented, the victim removed, or the monster killed)."""
    w = Window("rescue" if actor.rescuer else "slaying", victim=victim, actor=actor)
    _respond(state, w)
    return w.outcome if actor.alive else "stopped"


def after_attack_roll(
    state: GameState, attacker: Monster, targets: list[Monster], dice: tuple[int, int]
) -> tuple[int, int]:
    """Right after an attack roll: each player in turn from the active player may play one card whose text
    names this time; the first card closes the window, so a reroll is used and never rerolled (HC-PLOT-07,
    HC-PLOT-12)."""
    players = state.players
    if not any(p.crypt for p in players):
        return dice
    w = Window("attack_roll", attacker=attacker, targets=tuple(targets), dice=dice)
    count = len(players)
    for k in range(count):
        player = (state.active - 1 + k) % count + 1
        if players[player - 1].eliminated or not players[player - 1].crypt:
            continue
        plays = _plays(state, w, player)
        if plays:
            choice = decisions.ask(state, PLAY, player, [None, *plays], "attack_roll", w)
            if choice is not None:
                _resolve(state, w, choice)
                break
    return w.dice


def hunting_plays(state: GameState) -> list[PlayCard]:
    """The cards the active player may play now in their own hunting phase, before giving an action."""
    player = state.active
    crypt = state.player(player).crypt
    if not crypt or state.actions_left <= 0:
        return []
    w = Window("hunting")
    found: list[PlayCard] = []
    for name in crypt:
        c = card(state, name)
        if "hunting" in c.windows:
            found.extend(_card_plays(state, w, player, c))
    return found


def why_not_play(state: GameState, action: PlayCard) -> str:
    """Why `action` cannot be played now as a hunting-phase action ('' if it can)."""
    if action.card not in state.cards:
        return f"there is no plot twist named '{action.card}'"
    if state.phase != Phase.HUNTING or state.chosen_victim is not None:
        return (
            f"a plot twist is played as an action only in its player's hunting phase (now: {state.phase}) (HC-PLOT-07)"
        )
    if action.player != state.active:
        return f"player {action.player} may play '{action.card}' only in their own hunting phase (HC-PLOT-07)"
    if action.card not in state.player(action.player).crypt:
        return f"'{action.card}' is not in player {action.player}'s crypt (HC-PLOT-01, HC-PLOT-02)"
    c = card(state, action.card)
    if "hunting" not in c.windows:
        return (
            f"'{action.card}' is not played in the hunting phase; it fits: {', '.join(sorted(c.windows))} (HC-PLOT-07)"
        )
    if state.actions_left <= 0:
        return "a hunting-phase plot twist is played before giving an action, and no action is left (HC-PLOT-07)"
    if action not in _card_plays(state, Window("hunting"), action.player, c):
        return f"'{action.card}' has no such target (it needs: {c.params.get('target')})"
    return ""


def play_hunting(state: GameState, action: PlayCard) -> None:
    _resolve(state, Window("hunting"), action)


def _respond(state: GameState, w: Window) -> bool:
    """Ask the one opponent who may respond (HC-PLOT-08, HC-PLOT-13); resolve the card. True if one was played."""
    if not any(p.crypt for p in state.players if p.number != state.active):
        return False
    plays: dict[int, list[PlayCard]] = {}

    def can(player: int) -> bool:
        plays[player] = _plays(state, w, player)
        return bool(plays[player])

    order = decisions.responders(state, can)
    if not order:
        return False
    player = order[0]
    choice = decisions.ask(state, PLAY, player, [None, *plays[player]], w.name, w)
    if choice is None:
        return False
    _resolve(state, w, choice)
    return True


def _resolve(state: GameState, w: Window, play: PlayCard) -> None:
    """Play a card: it leaves the crypt (HC-PLOT-01), its text resolves, and an ordinary card is then out of
    the game (HC-PLOT-02); a ticking clock stays in play (HC-PLOT-05)."""
    c = card(state, play.card)
    state.player(play.player).crypt.remove(play.card)
    state.emit(EventKind.PLOT_TWIST, card=c.name, player=play.player, window=w.name, target=play.label or None)
    if w.name == "attack_roll" and c.rerolls:
        EFFECTS["reroll_attack"](state, w, play, c)  # a card's reroll text (HC-PLOT-07)
    else:
        EFFECTS[c.effect](state, w, play, c)


# --- effects ----------------------------------------------------------------------------------------


def _prevent(state: GameState, w: Window, play: PlayCard, c: Card) -> None:
    """prevent_slaying / prevent_rescue (HC-PLOT-06, HC-SLAY-06)."""
    _stop(state, w, play.player, c)


def _stop(state: GameState, w: Window, player: int, c: Card) -> None:
    """Stop the slaying or rescue: the victim goes to an unoccupied adjacent space chosen by the opponent to
    the active player's left, or cannot be saved if there is none (HC-PLOT-06). The monster stays where its
    move ended, the victim's former space (HC-PLOT-06 OPEN, docs/rulings.md)."""
    victim, actor, p = w.victim, w.actor, c.params
    assert victim is not None and actor is not None
    spaces = _placements(state, victim, p)
    if not spaces:
        state.emit(EventKind.NOT_PREVENTED, victim=victim.label, card=c.name)
        return
    chooser = player if p.get("placement") == "victim_start" else _left_opponent(state, player)
    geo = state.geometry
    place = decisions.ask(state, PLACE, chooser, [Place(s, geo.xy(s)) for s in spaces], c.name, victim)
    victim.pos = place.pos
    w.outcome = "stopped"
    state.emit(EventKind(f"{w.name}_prevented"), monster=actor.label, victim=victim.label, to=geo.xy(victim.pos))
    if p.get("tokens"):
        _give_tokens(state, actor, p["tokens"])
    if p.get("then_move") and not frozen(state, victim.uid):
        _move_victim(state, player, victim, p["then_move"], c.name)


def _left_opponent(state: GameState, default: int) -> int:
    """The opponent to the active player's left (HC-PLOT-06)."""
    order = decisions.responders(state, lambda p: True)
    return order[0] if order else default


def _spoil(state: GameState, w: Window, play: PlayCard, c: Card) -> None:
    victim = w.victim
    assert victim is not None
    if c.params["mode"] == "no_vp":
        w.outcome = "no_vp"
        state.emit(EventKind.VICTIM_SPOILED, victim=victim.label)
    else:
        victim.state = VictimState.REMOVED
        w.outcome = "stopped"
        state.emit(EventKind.VICTIM_REMOVED, victim=victim.label)


def _reroll(state: GameState, w: Window, play: PlayCard, c: Card) -> None:
    """The attack roll is rolled again and the new roll is used (HC-PLOT-12)."""
    old = w.dice
    w.dice = (decisions.d6(state), decisions.d6(state))
    state.emit(EventKind.REROLL, attacker=w.attacker.label if w.attacker else None, dice=old, new=w.dice)


def _freeze(state: GameState, w: Window, play: PlayCard, c: Card) -> None:
    victim = w.victim
    assert victim is not None
    mark_victim(state, victim, "frozen", c.name, play.player, c.params["duration"])
    w.outcome = "done"
    state.emit(EventKind.VICTIM_FROZEN, victim=victim.label, card=c.name)


def _opponent_moves(state: GameState, w: Window, play: PlayCard, c: Card) -> None:
    """The card's player moves the chosen victim instead of the active player (HC-VICTIM-04, HC-PLOT-11)."""
    victim, p = w.victim, c.params
    assert victim is not None
    _move_victim(state, play.player, victim, p.get("distance") or victim.speed + p.get("speed_bonus", 0), c.name)
    w.outcome = "done"


def _move_victim(state: GameState, player: int, victim: Victim, distance: int, subject: str) -> None:
    """`player` moves `victim` up to `distance` spaces by the victim movement rules (HC-VICTIM-04, -08)."""
    ctx = VictimContext(state, victim.uid)
    paths = destinations(ctx, victim.pos, ctx.budget(victim.pos, distance))
    options = [Path(())] + [_path(state, path) for path in paths.values()]
    chosen = decisions.ask(state, PATH, player, options, subject, victim)
    if chosen.spaces:
        victim.pos = chosen.spaces[-1]
    state.emit(EventKind.VICTIM_MOVED, victim=victim.label, to=state.geometry.xy(victim.pos), player=player)


def _protect(state: GameState, w: Window, play: PlayCard, c: Card) -> None:
    victim, p = w.victim, c.params
    assert victim is not None
    against = p["against"]
    for kind, what in (("no_slaying", "slaying"), ("no_rescue", "rescue")):
        if against in (what, "both"):
            mark_victim(state, victim, kind, c.name, play.player, p["duration"])
    if p.get("frozen"):
        w.outcome = "done"
    state.emit(EventKind.VICTIM_PROTECTED, victim=victim.label, against=against)


def _damage(state: GameState, w: Window, play: PlayCard, c: Card) -> None:
    """Plot-twist damage is not an attack, so intangible does not stop it (HC-COMBAT-30); 'deals' passes
    through damage reducers, 'takes' does not (HC-COMBAT-29); a kill scores for the card's player (HC-END-15)."""
    p = c.params
    amount = p["amount"]
    for m in _chosen(state, w, play, p):
        if not m.alive:
            continue
        state.scoring_player = play.player
        try:
            if p.get("unpreventable"):
                combat.take_damage(state, m, amount, None, unpreventable=True)  # HC-COMBAT-09
            elif p["layer"] == "takes":
                combat.take_damage(state, m, amount, None)
            else:
                combat.deal_damage(state, m, amount, None)
        finally:
            state.scoring_player = None
    if p.get("prevents") and w.name in ("slaying", "rescue") and w.actor is not None and w.actor.alive:
        _stop(state, w, play.player, c)


def _modify(state: GameState, w: Window, play: PlayCard, c: Card) -> None:
    """A modifier for a time; the rule of 3 and the floor of 0 apply when the value is read (HC-VALUE-05)."""
    p = c.params
    ends = lasting_until(state, play.player, p["duration"])
    for m in _chosen(state, w, play, p):
        state.lasting.append(Lasting(p["stat"], p["amount"], source=c.name, monster=m.uid, **ends))
        state.emit(EventKind.PLOT_MODIFIER, monster=m.label, stat=p["stat"], amount=p["amount"], card=c.name)


def _give_tokens(state: GameState, m: Monster, count: int) -> None:
    """At most two action tokens in all; with two a monster is vulnerable (HC-TURN-03, HC-TURN-04)."""
    m.tokens = min(2, m.tokens + count)
    state.emit(EventKind.ACTION_TOKENS, monster=m.label, tokens=m.tokens)


def _tokens(state: GameState, w: Window, play: PlayCard, c: Card) -> None:
    for m in _chosen(state, w, play, c.params):
        _give_tokens(state, m, c.params["count"])


def _heal(state: GameState, w: Window, play: PlayCard, c: Card) -> None:
    """Never past the starting line (HC-COMBAT-10)."""
    for m in _chosen(state, w, play, c.params):
        combat.heal(state, m, c.params["amount"])


def _free_move(state: GameState, w: Window, play: PlayCard, c: Card) -> None:
    """A free action: no action token, no action used (HC-TURN-05); break-away rules apply (HC-MOVE-06) and
    the monster may not end in a victim's space."""
    assert play.target is not None
    m = state.monsters[play.target]
    ctx = MoveContext(state, m, broke_away=[o.uid for o in combat.engaged(state, m)])
    distance = c.params["distance"]
    budget = (distance + 1) // 2 if ctx.hindering_like(m.pos) else distance  # HC-TERRAIN-04
    ends = destinations(ctx, m.pos, budget)
    options = [Path(())] + [_path(state, path) for end, path in ends.items() if state.victim_at(end) is None]
    chosen = decisions.ask(state, PATH, play.player, options, c.name, m)
    if not chosen.spaces:
        return
    if combat.must_break_away(state, m) and not combat.auto_breaks_away(m):
        roll = decisions.d6(state)
        state.emit(EventKind.BREAK_AWAY, monster=m.label, roll=roll, success=roll >= combat.BREAK_AWAY)
        if roll < combat.BREAK_AWAY:
            return
    for space in chosen.spaces:
        combat.flip_victims_near(state, space, m)
    m.pos = chosen.spaces[-1]
    state.emit(EventKind.FREE_MOVE, monster=m.label, to=state.geometry.xy(m.pos), steps=len(chosen.spaces), card=c.name)


def _ticking_clock(state: GameState, w: Window, play: PlayCard, c: Card) -> None:
    """A ticking clock stays in play, replacing the one in play, if any (HC-PLOT-05)."""
    plot = table(state)
    if plot.clock is not None:
        old, effect = plot.clock
        state.lasting = [e for e in state.lasting if e is not effect]
        state.emit(EventKind.TICKING_CLOCK_REPLACED, card=old)
    p = c.params
    who = p["who"]
    effect = Lasting(
        p["stat"],
        p["amount"],
        source=c.name,
        classes=frozenset([p["class"]]) if p.get("class") else frozenset(),
        team=None if who == "all" else state.player(play.player).team,
        opposing=who == "opposing",
    )
    state.lasting.append(effect)
    plot.clock = (c.name, effect)
    state.emit(EventKind.TICKING_CLOCK, card=c.name, player=play.player)


def _subplot(state: GameState, w: Window, play: PlayCard, c: Card) -> None:
    raise ValueError(f"the subplot '{c.name}' is revealed at setup and scored at the end, never played (HC-PLOT-04)")


EFFECTS: dict[str, Callable[[GameState, Window, PlayCard, Card], None]] = {
    "prevent_slaying": _prevent,
    "prevent_rescue": _prevent,
    "spoil_victim": _spoil,
    "reroll_attack": _reroll,
    "freeze_victim": _freeze,
    "opponent_moves_victim": _opponent_moves,
    "protect_victim": _protect,
    "damage_monster": _damage,
    "stat_modifier": _modify,
    "action_tokens": _tokens,
    "heal_monster": _heal,
    "free_move": _free_move,
    "ticking_clock": _ticking_clock,
    "subplot_vp": _subplot,  # scored by `score_subplots` through CONDITIONS
}
"""Every plot-twist effect of engine/registry/plot_effects.py, by name (tests check none is missing)."""
