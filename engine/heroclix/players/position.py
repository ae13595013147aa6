"""What the HeroClix heuristic reads off a position, once per decision (`Context`): the exact 2d6 odds of an
attack with the engine's own attack, defense and damage values (HX-COMBAT-02..05, HX-DAMAGE-01), what an attack
is worth in victory points (clicks dealt, the chance of a KO, HX-END-05, -06), the threat the opponents pose to a
square next turn and the pressure a character puts on them from a square. Everything that does not depend on the
option is computed here once, so an option (most are moves) is scored by lookups."""

from __future__ import annotations

import math
from typing import Any, cast

from clix.engine.core.geometry import Geometry
from clix.engine.core.pieces import Figure
from clix.engine.heroclix import cards, combat, movement, sides
from clix.engine.heroclix.damage_powers import PRECISION_STRIKE, exploits, floored, senses_handicap
from clix.engine.heroclix.defenses import IMPERVIOUS, SUPER_SENSES, capped, defense_bonus, defense_value, reducer
from clix.engine.heroclix.markers import smoke_penalty
from clix.engine.heroclix.modifiers import ATTACK, DEFENSE
from clix.engine.heroclix.modifiers import modifier as perplexed
from clix.engine.heroclix.players.weights import Weights
from clix.engine.heroclix.powers import PSYCHIC_BLAST
from clix.engine.heroclix.state import Close, HeroState, Ranged, Telekinesis, Throw

ROLLS = {total: 6 - abs(total - 7) for total in range(2, 13)}
"""How many of the 36 rolls of 2d6 give each total."""
CRITICAL = 1 / 36
"""The chance of double 6 (a critical hit, HX-COMBAT-04), and of double 1 (a critical miss, HX-COMBAT-03)."""
LATE_ROUNDS = 4
"""The last rounds in which the score reshapes play (`Context.hunt`, `Context.caution`)."""

Attack = Close | Ranged | Throw | Telekinesis


def _hit_sum(need: int) -> float:
    return sum(n for total, n in ROLLS.items() if 3 <= total <= 11 and total >= need) / 36


HIT_CHANCES = [_hit_sum(need) for need in range(3, 12)]
"""`hit_chance` of 3 to 11 needed, worked out once (below 3 every plain roll hits, above 11 none does)."""


def hit_chance(need: int) -> float:
    """The chance that 2d6 reach `need` without doubles 1 or 6: a plain hit (HX-COMBAT-02, -03, -04)."""
    if need <= 3:
        return HIT_CHANCES[0]
    if need > 11:
        return 0.0
    return HIT_CHANCES[need - 3]


def clicks_left(figure: Figure) -> int:
    """Clicks of damage that KO `figure` (HX-DAMAGE-06): to its first KO click, or off the end of its dial."""
    killed = figure.stats.killed
    for click in range(figure.click + 1, len(killed)):
        if killed[click]:
            return click - figure.click
    return max(1, len(killed) - 1 - figure.click)


def click_value(figure: Figure) -> float:
    """What one click of damage to `figure` is worth: its points over the clicks it starts with."""
    start = figure.start_line
    killed = figure.stats.killed
    live = next((c for c in range(start + 1, len(killed)) if killed[c]), len(killed)) - start
    return figure.stats.points / max(1, live)


def attack_odds(state: HeroState, attacker: Figure, target: Figure, action: Attack, damage: float) -> tuple[float, ...]:
    """(chance of a plain hit, of a critical hit, damage taken on each, chance of a critical miss) of `attacker`'s
    `action` on `target` dealing `damage` before the target's reducers, with the engine's values: the attack value
    and its modifiers, the defense value (Defend), Combat Reflexes or Energy Shield, Perplex and the cards, under the
    rule of 3 (HX-VALUE-05); Super Senses' evasion and Impervious' roll as chances. A hindered line is left out."""
    close = isinstance(action, Close)
    return odds(attacker, target, attack_value(state, attacker, action), defense_total(state, target, close),
                penetrates(attacker, action), damage)  # fmt: skip


def attack_value(state: HeroState, attacker: Figure, action: Attack) -> int:
    """`attacker`'s attack value for `action` with its modifiers under the rule of 3 (HX-VALUE-05): an expert's +1,
    the cards', Smoke Cloud's and Perplex's; the same for every target of a plain close or ranged attack."""
    close = isinstance(action, Close)
    expert = combat.expert_bonus(attacker, action) + cards.modifier(state, attacker, cards.ATTACK, close)
    bonus = expert - smoke_penalty(state, attacker) + perplexed(state, attacker, ATTACK)
    return max(0, attacker.attack + capped(bonus))


def defense_total(state: HeroState, target: Figure, close: bool) -> int:
    """`target`'s defense value against a close (or ranged) attack: Defend's, with Combat Reflexes or Energy
    Shield, Perplex and the cards under the rule of 3 (HX-VALUE-05); the same for every attacker."""
    return defense_value(state, target) + capped(
        defense_bonus(target, close)
        + perplexed(state, target, DEFENSE)
        + cards.modifier(state, target, cards.DEFENSE, close)
    )


def penetrates(attacker: Figure, action: Attack) -> bool:
    """Whether `attacker`'s damage with `action` ignores reducers other than Invincible (Psychic Blast at range,
    Exploit Weakness in close combat; HX-POWER-19, -40, HX-PAC-06)."""
    close = isinstance(action, Close)
    return (isinstance(action, Ranged | Throw) and PSYCHIC_BLAST in attacker.powers) or exploits(attacker, close)


def odds(
    attacker: Figure, target: Figure, attack: int, defense: int, penetrating: bool, damage: float
) -> tuple[float, ...]:
    """`attack_odds` from the attack and defense values already modified (`attack_value`, `defense_total`)."""
    return cut_odds(attacker, target, attack, defense, penetrating, damage, reducer(target, penetrating))


def cut_odds(
    attacker: Figure, target: Figure, attack: int, defense: int, penetrating: bool, damage: float, cut: int
) -> tuple[float, ...]:
    """`odds` with the target's damage reducer already found (`defenses.reducer`: `Context` finds it once per
    target and decision): `reduced` is the damage less `cut`, never below 0."""
    plain = hit_chance(defense - attack)
    kept = 1.0
    powers = target.powers
    if SUPER_SENSES in powers:  # HX-POWER-25: 5-6 evades
        kept *= 1 - (2 - senses_handicap(attacker)) / 6
    if IMPERVIOUS in powers and not penetrating:  # HX-POWER-34: 5-6 takes none
        kept *= 2 / 3
    whole = int(damage)
    taken = whole - cut if whole > cut else 0  # as `reduced(target, whole, penetrating)`
    taken_critical = whole + 1 - cut if whole + 1 > cut else 0
    if PRECISION_STRIKE in attacker.powers:  # HX-POWER-21: `floored`
        taken = floored(attacker, whole, taken)
        taken_critical = floored(attacker, whole + 1, taken_critical)
    return plain * kept, CRITICAL * kept, float(taken), float(taken_critical), CRITICAL


def clear_lines(geometry: Geometry) -> list[list[int]]:
    """Per square, a row (filled on first use) of whether the line of fire from it to each square is free of walls
    and blocking terrain (1), or not (0), -1 while not yet traced: kept with the map, read by lookup. Maps with the
    same walls and blocking terrain share one table (objects and markers that only hinder change neither)."""
    found: Any = geometry.cached("heroclix clear lines", lambda: _line_table(geometry))
    return cast(list[list[int]], found)


def _line_table(geometry: Geometry) -> list[list[int]]:
    found: Any = geometry.shared("heroclix clear lines", lambda: [[] for _ in range(geometry.size)])
    return cast(list[list[int]], found)


class Attacker:
    """An opponent that may act next turn, as `Context.threat` reads it: its square (and x, y), how far it reaches
    (speed plus range or adjacency), its range, and what its close, ranged and moved attacks are worth."""

    def __init__(
        self, pos: int, x: int, y: int, reach: int, shoots: int, range_: int, close: float, ranged: float, far: float,
        pushed: float, player: int = 0,
    ) -> None:  # fmt: skip
        self.pos = pos
        self.x = x
        self.y = y
        self.reach = reach
        self.shoots = shoots
        """Its range, at least 1 (adjacency)."""
        self.range = range_
        self.close = close
        self.ranged = ranged
        self.far = far
        """What its attack is worth after a move (`Weights.reach`'s share)."""
        self.pushed = pushed
        """0.6 when it already has a token (a push costs it too, HX-TURN-11), else 1."""
        self.player = player
        """The player it acts for: each opposing player takes a turn of its own before ours comes again."""


class Target:
    """An opponent as `Context.pressure` reads it: its square and what a plain close and ranged attack on it are
    worth."""

    def __init__(self, pos: int, close: float, ranged: float) -> None:
        self.pos = pos
        self.close = close
        self.ranged = ranged


class Context:
    """One decision's view of the position for `player` (see the module)."""

    def __init__(self, state: HeroState, player: int, weights: Weights) -> None:
        self.state = state
        self.player = player
        self.w = weights
        self.geo = state.geometry
        self._lines = clear_lines(state.geometry)
        side = sides.team(state, player)
        standing = state.standing()
        self.mine = [c for c in standing if sides.team(state, c.controller) == side]
        self.enemies = [c for c in standing if sides.team(state, c.controller) != side]
        self._mine = {c.uid for c in self.mine}
        """Their uids: `figure in self.mine` compares figures field by field (a dataclass's `__eq__`, run
        interpreted, ~7,500 instructions a pair compiled); a uid is one figure of this state."""
        self._enemies = {c.uid for c in self.enemies}
        self.enemy_actions = max(1, state.build_total // sides.POINTS_PER_ACTION)
        self.rivals = len({c.controller for c in self.enemies})
        """How many opposing players have characters: at a table of three or four each takes its own turn."""
        self._values: dict[tuple[int, int, bool], float] = {}
        self._attack_sides: dict[int, tuple[int, int, bool]] = {}
        self._defense_sides: dict[int, int] = {}
        self._cuts: dict[int, int] = {}
        self._clicks: dict[int, tuple[int, float]] = {}
        self._threat: dict[int, dict[int, float]] = {}
        self._best: dict[int, float] = {}
        self._speed: dict[int, int] = {}
        self._table: dict[int, list[Attacker]] = {}
        self._aims: dict[int, list[Target]] = {}
        self._here: dict[int, tuple[float, float, float, int, float, int]] = {}
        self.hunt, self.caution = self._score_scales()

    def is_mine(self, figure: Figure) -> bool:
        """Whether `figure` (of this state) is on the deciding player's side: `figure in self.mine`, by uid."""
        return figure.uid in self._mine

    def is_enemy(self, figure: Figure) -> bool:
        """Whether `figure` (of this state) is an opponent standing on the map: `figure in self.enemies`."""
        return figure.uid in self._enemies

    # --- the score and the turns left (HX-END-07, -11, -14) --------------------------------------------

    def _score_scales(self) -> tuple[float, float]:
        """(hunt, caution): a side behind or level in the last rounds values attacks more and threat less; one
        ahead the other way round. Victory points as they would stand if the game ended now: KOs scored plus survivors
        (HX-END-05, -07); equal points go to the force built with fewer points (HX-END-11)."""
        state = self.state
        if state.turn_limit is None or not self.enemies:
            return 1.0, 1.0
        players = max(1, len(state.players))
        round_now = (max(1, state.turn) - 1) // players + 1
        left = state.turn_limit - round_now + 1
        late = max(0.0, min(1.0, (LATE_ROUNDS + 1 - left) / LATE_ROUNDS))
        if not late:
            return 1.0, 1.0
        me = {c.owner for c in self.mine} | {self.player}
        mine = sum(state.points.get(p, 0.0) for p in me) + sum(c.stats.points for c in self.mine)
        if len({sides.team(state, p.number) for p in state.players}) > 2:
            return self._scales_among_many(me, mine, late)
        theirs = sum(v for p, v in state.points.items() if p not in me) + sum(c.stats.points for c in self.enemies)
        margin = mine - theirs
        if margin == 0:
            built = {p.number: p.army_points for p in state.players}
            own = sum(built.get(p, 0) for p in me)
            other = sum(v for p, v in built.items() if p not in me)
            margin = other - own  # fewer points wins the tie
        shift = 1.0 + self.w.urgency * late
        if margin > 0:
            return 1.0 / shift, shift
        return shift, 1.0 / shift  # behind, or level: a draw is half a win, so a level side plays for the win

    def _scales_among_many(self, me: set[int], mine: float, late: float) -> tuple[float, float]:
        """`_score_scales` at a table of three or more sides: measured against the best of the other sides (the
        one to beat, HX-END-04), not their sum."""
        state = self.state
        others: dict[int, float] = {}
        for p in state.players:
            if p.number not in me:
                side = sides.team(state, p.number)
                others[side] = others.get(side, 0.0) + state.points.get(p.number, 0.0)
        for c in self.enemies:
            side = sides.team(state, c.owner)
            others[side] = others.get(side, 0.0) + c.stats.points
        margin = mine - max(others.values(), default=0.0)
        shift = 1.0 + self.w.urgency * late
        if margin > 0:
            return 1.0 / shift, shift
        return shift, 1.0 / shift

    # --- attacks -----------------------------------------------------------------------------------------

    def clicks(self, figure: Figure) -> tuple[int, float]:
        """(`clicks_left`, `click_value`) of `figure`, once per decision."""
        found = self._clicks.get(figure.uid)
        if found is None:
            self._clicks[figure.uid] = found = (clicks_left(figure), click_value(figure))
        return found

    def worth(self, attacker: Figure, target: Figure, damage_taken: float) -> float:
        """Victory points of dealing `damage_taken` clicks to `target`: clicks at their share of its points, a
        KO at its points (double for `attacker`'s archenemy, HX-END-06) plus the threat it removes."""
        w = self.w
        left, each = self.clicks(target)
        value = w.damage * min(damage_taken, left) * each
        if damage_taken >= left:
            double = target.uid in self.state.archenemies.get(attacker.uid, frozenset())
            value += w.kills * target.stats.points * (2 if double else 1)
            if target.uid in self._enemies:
                value += w.threat * self.caution * self.best_attack(target) * 0.5
        return value

    def attack_value(self, attacker: Figure, target: Figure, action: Attack, damage: float) -> float:
        """Expected victory points of one attack roll of `attacker` on `target` (HX-COMBAT-02..04), less the
        chance of a critical miss clicking the attacker (HX-COMBAT-03)."""
        return self._valued(attacker, target, attack_odds(self.state, attacker, target, action, damage))

    def _valued(self, attacker: Figure, target: Figure, found: tuple[float, ...]) -> float:
        """`attack_value` from the attack's `attack_odds`."""
        plain, critical, normal, crit, miss = found
        gain = plain * self.worth(attacker, target, normal) + critical * self.worth(attacker, target, crit)
        left, each = self.clicks(attacker)
        cost = miss * (attacker.stats.points if left <= 1 else each)
        return gain - cost

    def plain_value(self, attacker: Figure, target: Figure, close: bool) -> float:
        """`attack_value` of a plain close or ranged attack (cached for the decision). The attacker's attack and
        damage values and the target's defense are the same whoever the other is: each is worked out once per
        decision (`_attacking`, `_defending`)."""
        key = (attacker.uid, target.uid, close)
        found = self._values.get(key)
        if found is None:
            attack, damage, penetrating = self._attacking(attacker, close)
            defense = self._defending(target, close)
            cut = self._reducer(target, penetrating)
            chances = cut_odds(attacker, target, attack, defense, penetrating, damage, cut)
            found = self._valued(attacker, target, chances)
            if close:
                found *= self.w.close if attacker.uid in self._mine else 1.0
            self._values[key] = found = max(0.0, found)
        return found

    def _attacking(self, attacker: Figure, close: bool) -> tuple[int, int, bool]:
        """(attack value, damage value, penetrating) of `attacker`'s plain close or ranged attack, with their
        modifiers (`attack_value`, `combat.damage_modifier`): the same for every target (once per decision)."""
        key = attacker.uid * 2 + (1 if close else 0)
        found = self._attack_sides.get(key)
        if found is None:
            action: Attack = Close(attacker.uid, attacker.uid) if close else Ranged(attacker.uid, ())
            damage = attacker.damage + combat.damage_modifier(self.state, attacker, action)
            found = (attack_value(self.state, attacker, action), damage, penetrates(attacker, action))
            self._attack_sides[key] = found
        return found

    def _defending(self, target: Figure, close: bool) -> int:
        """`target`'s defense against a plain close or ranged attack (`defense_total`, once per decision)."""
        key = target.uid * 2 + (1 if close else 0)
        found = self._defense_sides.get(key)
        if found is None:
            self._defense_sides[key] = found = defense_total(self.state, target, close)
        return found

    def _reducer(self, target: Figure, penetrating: bool) -> int:
        """`defenses.reducer` of `target` against penetrating damage or not, once per decision."""
        key = target.uid * 2 + (1 if penetrating else 0)
        found = self._cuts.get(key)
        if found is None:
            self._cuts[key] = found = reducer(target, penetrating)
        return found

    def best_attack(self, attacker: Figure) -> float:
        """The best plain attack `attacker` could make on any opponent, wherever it stands."""
        found = self._best.get(attacker.uid)
        if found is None:
            targets = self.enemies if attacker.uid in self._mine else self.mine
            close = [self.plain_value(attacker, t, True) for t in targets]
            ranged = [self.plain_value(attacker, t, False) for t in targets] if attacker.stats.range > 0 else []
            self._best[attacker.uid] = found = max([0.0, *close, *ranged])
        return found

    def speed(self, figure: Figure) -> int:
        found = self._speed.get(figure.uid)
        if found is None:
            self._speed[figure.uid] = found = movement.move_speed(self.state, figure)
        return found

    # --- squares -----------------------------------------------------------------------------------------

    def can_hit(self, attacker: Figure, source: int, target: Figure, aim: int) -> int:
        """2 when `attacker` on `source` could attack `target` on `aim` in close combat, 1 at range (within range
        and a line of fire not blocked by walls or terrain; characters in the way are left out), 0 otherwise."""
        return self._how(source, aim, self.geo.distance(source, aim), attacker.stats.range)

    def _how(self, source: int, aim: int, apart: int, reach: int) -> int:
        """`can_hit` from `source` on `aim`, `apart` squares apart, for an attacker of range `reach`."""
        if apart == 1 and aim in self.geo.neighbour_sets[source]:
            return 2
        if 0 < apart <= reach:
            row = self._lines[source]
            if not row:
                row.extend([-1] * self.geo.size)
            clear = row[aim]
            if clear < 0:  # traced once per map, not kept as a `Ray` (`Geometry.line_clear`)
                row[aim] = clear = 1 if self.geo.line_clear(source, aim) else 0
            return clear
        return 0

    def threat(self, figure: Figure, square: int) -> float:
        """What the opponents can deal to `figure` on `square` next turn: each opponent that may act then (fewer
        than two tokens, HX-TURN-06) attacking it from where it stands, and, at `reach`'s share, each that must move
        first (speed plus range); the best as many as they have actions (HX-TURN-02). At a table of three or four,
        every opposing player takes its own turn before ours comes again (HX-TURN-01): the threats of each are
        added (`_threat_of_each`)."""
        known = self._threat.get(figure.uid)
        if known is None:
            known = self._threat[figure.uid] = {}
        found = known.get(square)
        if found is not None:
            return found
        if self.rivals > 1:
            found = known[square] = self._threat_of_each(figure, square)
            return found
        dealt: list[float] = []
        most = -math.inf  # with one action (a 100-point build), the threat is the best attack alone: no list to sort
        single = self.enemy_actions == 1
        width = self.geo.width
        x, y = square % width, square // width
        for foe in self._attackers(figure):
            dx, dy = foe.x - x, foe.y - y
            apart = max(dx if dx >= 0 else -dx, dy if dy >= 0 else -dy)  # as `Geometry.distance`, inlined: hot
            if apart > foe.reach:
                continue
            how = self._how(foe.pos, square, apart, foe.range) if apart <= foe.shoots else 0
            value = (foe.close if how == 2 else foe.ranged) if how else foe.far
            if single:
                most = max(most, value * foe.pushed)  # a push costs them too (HX-TURN-11)
            else:
                dealt.append(value * foe.pushed)
        if single:
            found = 0.0 + most if most > -math.inf else 0.0  # as `sum` of the one best (or of none)
        else:
            dealt.sort(reverse=True)
            found = sum(dealt[: self.enemy_actions])
        known[square] = found
        return found

    def _threat_of_each(self, figure: Figure, square: int) -> float:
        """`threat` with several opposing players: per player, its best attacks, as many as it has actions."""
        dealt: dict[int, list[float]] = {}
        width = self.geo.width
        x, y = square % width, square // width
        for foe in self._attackers(figure):
            apart = max(abs(foe.x - x), abs(foe.y - y))
            if apart > foe.reach:
                continue
            how = self._how(foe.pos, square, apart, foe.range) if apart <= foe.shoots else 0
            value = (foe.close if how == 2 else foe.ranged) if how else foe.far
            dealt.setdefault(foe.player, []).append(value * foe.pushed)
        return sum(sum(sorted(values, reverse=True)[: self.enemy_actions]) for values in dealt.values())

    def _attackers(self, figure: Figure) -> list[Attacker]:
        """Per opponent that may act next turn (HX-TURN-06): its square, its reach (speed plus range or
        adjacency) and what its close, ranged and moved attacks on `figure` are worth (once per decision)."""
        found = self._table.get(figure.uid)
        if found is None:
            found = []
            for enemy in self.enemies:
                if enemy.tokens >= 2:
                    continue
                close, ranged = self.plain_value(enemy, figure, True), self.plain_value(enemy, figure, False)
                ex, ey = self.geo.xy(enemy.pos)
                shoots = max(1, enemy.stats.range)
                found.append(
                    Attacker(
                        enemy.pos, ex, ey, self.speed(enemy) + shoots, shoots, enemy.stats.range, close, ranged,
                        self.w.reach * max(close, ranged), 0.6 if enemy.tokens else 1.0, enemy.controller,
                    )
                )  # fmt: skip
            self._table[figure.uid] = found
        return found

    def here(self, figure: Figure) -> tuple[float, float, float, int, float, int]:
        """What a move of `figure` is measured against (once per decision): its best attack, the cost of pushing
        it, its pressure, gap and threat where it stands, and its speed."""
        found = self._here.get(figure.uid)
        if found is None:
            pos = figure.pos
            found = (
                self.best_attack(figure),
                self.push_cost(figure),
                self.pressure(figure, pos),
                self.gap(figure, pos),
                self.threat(figure, pos),
                self.speed(figure),
            )
            self._here[figure.uid] = found
        return found

    def _targets(self, figure: Figure) -> list[Target]:
        """Each opponent's square and what `figure`'s plain close and ranged attacks on it are worth (once per
        decision; `best_attack` has worked them all out by then)."""
        found = self._aims.get(figure.uid)
        if found is None:
            shoots = figure.stats.range > 0
            found = self._aims[figure.uid] = [
                Target(
                    e.pos,
                    self.plain_value(figure, e, True),
                    self.plain_value(figure, e, False) if shoots else 0.0,
                )
                for e in self.enemies
            ]
        return found

    def pressure(self, figure: Figure, square: int) -> float:
        """The best attack `figure` could make next turn from `square` on an opponent where it stands now: next to
        an opponent it shoots no other (HX-COMBAT-09)."""
        close = ranged = 0.0
        engaged = False
        geo = self.geo
        reach = figure.stats.range
        for aim in self._targets(figure):
            how = self._how(square, aim.pos, geo.distance(square, aim.pos), reach)
            if how == 2:
                engaged = True
                close = max(close, aim.close)
            elif how == 1:
                ranged = max(ranged, aim.ranged)
        return close if engaged else ranged

    def gap(self, figure: Figure, square: int) -> int:
        """Squares between `square` and the nearest square from which `figure` could attack an opponent."""
        reach = max(1, figure.stats.range)
        geo = self.geo
        best = -1
        for e in self.enemies:
            apart = geo.distance(square, e.pos) - reach
            if apart < 0:
                apart = 0
            if best < 0 or apart < best:
                best = apart
        return best if best >= 0 else 0

    def push_cost(self, figure: Figure) -> float:
        """Pushing `figure` (HX-TURN-11, -12, -14): its click of pushing damage, all of it on its last click (the
        opponents score it, HX-END-08), and the action it cannot take next turn (HX-TURN-13)."""
        w = self.w
        left, each = self.clicks(figure)
        lost = figure.stats.points * (1 + w.kills) if left <= 1 else each
        return w.push * (lost + w.tempo * self.best_attack(figure))
