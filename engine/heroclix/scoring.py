"""Damage, knockouts and victory points in a HeroClix game: clicks taken (HX-CHAR-04, HX-DAMAGE-01, -06), who
scores a knockout (HX-END-05, -06, -08), and the end of the game with its winner (HX-END-01, -04, -07, -11)."""

from __future__ import annotations

from clix.engine.core.pieces import Figure
from clix.engine.heroclix import feats
from clix.engine.heroclix.events import EventKind
from clix.engine.heroclix.movement_powers import settle_flight
from clix.engine.heroclix.objects import lay, strong
from clix.engine.heroclix.sides import team
from clix.engine.heroclix.state import KNOCKBACK, PHASES, PUSHING, HeroState

KO_CLICK = "x"
SHOWDOWN = "showdown"
"""The sample scenario of 002, a free-for-all with its own end and victory (HX-SCEN-02, -03)."""
SHOWDOWN_TURNS = 5
"""Showdown's check comes once every player has taken this many turns, and its end after as many more (HX-SCEN-02,
-03)."""
SHOWDOWN_SHARE = 0.5
"""At Showdown's check a player whose VP reach this share of the build total wins (HX-SCEN-02)."""


def bystander_dial(values: str) -> list[str]:
    """A bystander token's dial for play: it has none, only its printed values, and when it is dealt damage it is
    knocked out (HX-CHAR-10), so its values are followed by a KO click. It has no powers, so no damage reducer saves
    it (HX-CHAR-10 OPEN), and pushing damage knocks it out too."""
    return [values, KO_CLICK]


def take_damage(state: HeroState, character: Figure, amount: int, cause: str, source: Figure | None) -> int:
    """Click `character`'s dial `amount` times (HX-CHAR-04, HX-DAMAGE-01, -02), knocking it out at a KO click
    (HX-DAMAGE-06); returns the clicks taken. `source`: the opposing character whose attack dealt it, if any."""
    if amount <= 0 or not character.alive:
        return 0
    if source is not None and team(state, source.controller) != team(state, character.controller):
        state.damaged_by[character.uid] = source.controller  # HX-DAMAGE-10: an opposing player's character
    taken = 0
    last = character.stats.clicks - 1
    while taken < amount and character.click < last:
        character.click += 1
        taken += 1
        if character.stats.killed[character.click]:
            break
    character.damage_taken += taken
    if cause in (PUSHING, KNOCKBACK):
        kinds = state.tallies.setdefault(character.uid, {})
        kinds[cause] = kinds.get(cause, 0) + taken
    state.emit(EventKind.DAMAGE, character=character.label, clicks=taken, cause=cause)
    if character.stats.killed[character.click]:
        knock_out(state, character, source)
        return taken
    if character.uid in state.holding and not strong(character):  # HX-OBJECT-07: Super Strength lost
        lay(state, state.holding.pop(character.uid), character.pos)
        state.emit(EventKind.DROPPED, character=character.label)
    settle_flight(state, character)  # HX-POWER-04: Earthbound/Neutralized may show now
    return taken


def heal(state: HeroState, character: Figure, amount: int) -> int:
    """Turn `character`'s dial `amount` clicks back, never past its starting click (HX-CHAR-04, HX-DAMAGE-05);
    returns the clicks healed."""
    healed = max(0, min(amount, character.click - character.start_line))
    character.click -= healed
    character.damage_taken -= healed
    if healed:
        state.emit(EventKind.HEALED, character=character.label, clicks=healed)
        settle_flight(state, character)  # HX-POWER-04: Earthbound/Neutralized may no longer show
    return healed


def knock_out(state: HeroState, character: Figure, source: Figure | None) -> None:
    """A KO: the character leaves the map and its points are scored at once (HX-END-05) by the player whose
    character defeated it (double for an archenemy, HX-END-06), else by the opponent who damaged it last, else
    split evenly among its opponents (HX-END-08); the feats it held that leave the game with it score alike."""
    character.alive = False
    state.emit(EventKind.KO, character=character.label)
    held = state.holding.pop(character.uid, None)
    if held is not None:  # HX-OBJECT-07: dropped in the square it occupied
        lay(state, held, character.pos)
    worth = float(character.stats.points)
    side = team(state, character.owner)  # its own force's, even while mind-controlled (HX-POWER-06 OPEN b)
    rivals = sorted({p.number for p in state.players if team(state, p.number) != side})
    shares: dict[int, float] = {}
    if source is not None and team(state, source.controller) != team(state, character.controller):
        double = character.uid in state.archenemies.get(source.uid, frozenset())
        shares = {source.controller: worth * (2 if double else 1)}
    elif character.uid in state.damaged_by:
        shares = {state.damaged_by[character.uid]: worth}
    elif rivals:
        shares = dict.fromkeys(rivals, worth / len(rivals))
    _score(state, shares)
    _score(state, feats.defeated(state, character, shares))  # HX-END-09, -10: its feats score like it
    if one_side_left(state):
        finish(state, "a force was eliminated")


def one_side_left(state: HeroState) -> bool:
    """HX-END-01 OPEN: with three or more players the game ends when at most one side (a player, or allies) has
    characters left, not when the first player has none; with two, when either force is gone."""
    left = {p.number for p in state.players if any(c.owner == p.number for c in state.standing())}
    return len({team(state, p) for p in left}) <= 1


def _score(state: HeroState, points: dict[int, float]) -> None:
    for player, amount in points.items():
        state.points[player] = state.points.get(player, 0.0) + amount


def scores_survivors(state: HeroState) -> bool:
    """Whether the characters left at the end, and the feats still in the game, score for their own players
    (HX-END-07, -09): not under Showdown, whose victory rules replace the standard ones (HX-END-03) and count
    defeated opponents only (HX-SCEN-02, -03 OPEN a)."""
    return state.game_scenario != SHOWDOWN


def finish(state: HeroState, reason: str) -> None:
    """The end (HX-END-04, -07, -11): survivors and the feats still in the game (HX-END-09) score for their own
    player (`scores_survivors`); the most VP wins, allies adding theirs together (the winner is then the side's
    team number, HX-END-04); a tie, or no character defeated at all, goes to the force built
    with the fewest points; equal forces draw. A game whose `tie_break` is off (the analyzer's `--ties draw`) draws
    instead of applying HX-END-11."""
    finish_among(state, reason, None)


def finish_among(state: HeroState, reason: str, among: list[int] | None) -> None:
    """`finish`, the winner found among the players `among` when a scenario says so (Showdown's check, HX-SCEN-02);
    None: among every player."""
    state.over = True
    state.phase = PHASES[1]
    state.end_reason = reason
    state.emit(EventKind.GAME_OVER, reason=reason)
    if scores_survivors(state):
        for character in state.standing():
            _score(state, {character.owner: float(character.stats.points)})
        _score(state, feats.still_in_game(state))  # HX-END-09
    totals: dict[int, float] = {}
    built: dict[int, int] = {}  # each side's build total (HX-END-11)
    for p in state.players:
        if among is None or p.number in among:
            side = team(state, p.number)  # allied players add their VP together (HX-END-04)
            totals[side] = totals.get(side, 0.0) + state.points.get(p.number, 0.0)
            built[side] = built.get(side, 0) + p.army_points
    nobody_defeated = among is None and all(c.alive for c in state.monsters)
    best = max(totals.values(), default=0.0)
    leaders = [p for p, v in totals.items() if v == best]
    if (nobody_defeated or len(leaders) > 1) and not state.tie_break:  # ties played as draws (`--ties draw`)
        state.winner = None
    elif nobody_defeated or len(leaders) > 1:
        pool = list(totals) if nobody_defeated else leaders
        fewest = min(built[p] for p in pool)
        cheapest = [p for p in pool if built[p] == fewest]
        state.winner = cheapest[0] if len(cheapest) == 1 else None
    else:
        state.winner = leaders[0]


def showdown(state: HeroState) -> None:
    """Showdown, at the end of each turn (HX-SCEN-02, -03): once every player still in the game has taken 5 turns,
    each player's VP for the opposing characters it defeated are totalled, and those with at least half the build
    total win, the most VP among them (`finish_among`); if nobody has, play goes on, and once every player has taken 5
    more the game ends: the most VP wins, ties to the force of fewest points. Its VP never count survivors
    (HX-SCEN-03 OPEN a). The standard end by elimination (HX-END-01) still ends the game at once, scored as at
    the end (HX-SCEN-03 OPEN b, `knock_out`)."""
    left = {c.controller for c in state.standing()}
    taken = {state.turns_taken.get(p.number, 0) for p in state.players if p.number in left}
    if taken == {SHOWDOWN_TURNS}:
        winners = showdown_winners(state)
        if winners:
            finish_among(state, f"Showdown: {SHOWDOWN_TURNS} turns each, half the build total reached", winners)
    elif taken == {2 * SHOWDOWN_TURNS}:
        finish(state, f"Showdown: {2 * SHOWDOWN_TURNS} turns each")


def showdown_winners(state: HeroState) -> list[int]:
    """The players whose VP reach half the build total at Showdown's check (HX-SCEN-02)."""
    return [p.number for p in state.players if state.points.get(p.number, 0.0) >= SHOWDOWN_SHARE * state.build_total]


def score(state: HeroState) -> dict[int, int]:
    """Each player's victory points as the game stands, rounded down."""
    return {p.number: int(state.points.get(p.number, 0.0)) for p in state.players}
