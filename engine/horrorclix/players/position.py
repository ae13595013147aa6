"""How a heuristic player reads a position: hit chances, the threat at a space, distances to pieces, the
value of an attack, kept per decision in a `_Context` (engine.horrorclix.players.heuristic scores options with it)."""

from __future__ import annotations

from typing import Any

import numpy as np
from clix.engine.core.geometry import Geometry
from clix.engine.horrorclix import plots, subplots
from clix.engine.horrorclix.players.weights import (
    Weights,
)
from clix.engine.horrorclix.state import ON_MAP, GameState, Monster


def _count_hits(needed: int) -> float:
    hits = 0
    for a in range(1, 7):
        for b in range(1, 7):
            if (a, b) == (6, 6) or ((a, b) != (1, 1) and a + b >= needed):
                hits += 1
    return hits / 36


_HIT_CHANCES: tuple[float, ...] = tuple(_count_hits(needed) for needed in range(2, 14))
"""hit_chance for 2 to 13 needed: below 2 only double 1 misses, above 13 only double 6 hits, as at the ends."""


def hit_chance(needed: int) -> float:
    """P(2d6 >= needed), with double 6 always hitting and double 1 always missing (HC-COMBAT-12, -13)."""
    # A table, not a loop: the players ask this for every attack they weigh.
    return _HIT_CHANCES[min(max(needed, 2), 13) - 2]


def live_clicks_left(monster: Monster) -> int:
    """Clicks of damage the monster can still take before its dial shows skulls."""
    killed = monster.stats.killed
    for index in range(monster.click + 1, len(killed)):
        if killed[index]:
            return index - monster.click
    return len(killed) - monster.click


def _attack_worth(attack: int, damage: int, target: Monster) -> float:
    """Expected victory points one attack (dial values `attack`, `damage`) takes from `target`: half a
    click's share of its points per click dealt, and all of them if it dies (HC-END-04)."""
    chance = hit_chance(target.defense - attack)
    left = live_clicks_left(target)
    per_click = target.stats.points / max(1, target.stats.clicks - 1)
    return chance * (min(left, damage) * per_click * 0.5 + (target.stats.points if damage >= left else 0.0))


def _adjacent_xy(state: GameState, a: int, b: int) -> bool:
    return state.geometry.distance(a, b) <= 1


def _areas(state: GameState, player: int) -> tuple[_Spots, _Spots]:
    """The starting-area spaces of `player`'s team and of the other teams (every area where not chosen yet);
    a teammate's area is friendly (HC-SPECIAL-11)."""
    geo = state.geometry
    mine: list[int] = []
    theirs: list[int] = []
    chosen = _chosen_areas(state)
    team = state.player(player).team
    for number, label in chosen.items():
        (mine if state.player(number).team == team else theirs).extend(geo.starting_areas[label])
    if not mine or not theirs:
        every = [s for spaces in geo.starting_areas.values() for s in spaces]
        mine, theirs = mine or every, theirs or every
    return _Spots(geo, mine), _Spots(geo, theirs)


def _chosen_areas(state: GameState) -> dict[int, Any]:
    return state.areas


def _subplot_vp_now(state: GameState, number: int) -> float:
    """The victory points `number`'s revealed subplots would score if the game ended now (HC-PLOT-04)."""
    plot = state.plot
    if plot is None or number not in plot.subplots or state.player(number).eliminated:
        return 0.0
    total = 0.0
    for name in plot.subplots[number]:
        params = plots.card(state, name).params
        per_100 = state.build_total // 100 if params.get("per_100_build") else 1
        total += params["vp"] * per_100 * subplots.CONDITIONS[params["condition"]](state, number)
    return total


class _Spots:
    """Where some pieces stand, for the distance from any space to the nearest of them (spaces counted as
    in HC-MOVE-03; 99 if there are none or all are farther)."""

    __slots__ = ("row",)

    def __init__(self, geo: Geometry, positions: list[int]) -> None:
        self.row = nearest_row(geo, positions)

    def nearest(self, pos: int) -> int:
        distance = self.row[pos]  # scoring a decision asks this for every destination: one read
        return distance if distance < 99 else 99


def nearest_row(geo: Geometry, positions: list[int]) -> bytes:
    """For every space of the map, the distance to the nearest of `positions` (HC-MOVE-03; from 255 on, 255;
    99 everywhere when there are none), kept with the map by `positions`: the pieces stand still through most
    of a turn's decisions, the victims through most of a game's."""
    rows: dict[tuple[int, ...], bytes] | None = geo.caches.get(NEAREST_ROWS)  # type: ignore[assignment]
    if rows is None:
        rows = {}
        geo.caches[NEAREST_ROWS] = rows
    key = tuple(positions)
    found = rows.get(key)
    if found is None:
        if len(rows) >= NEAREST_ROWS_KEPT:
            rows.clear()
        found = rows[key] = _nearest_row(geo, positions)
    return found


NEAREST_ROWS = "nearest_rows"
"""The key of the map's nearest-distance rows in `Geometry.caches` (a dict by the positions' tuple)."""
NEAREST_ROWS_KEPT = 2048
"""Rows kept per map before the cache starts again (a row is a byte a space: 2048 rows of a 24 x 24 map fill
about a megabyte)."""


def _nearest_row(geo: Geometry, positions: list[int]) -> bytes:
    if not positions:
        return bytes([99]) * geo.size
    if len(positions) == 1:
        return distance_row(geo, positions[0])
    table = distance_table(geo)
    if table is None:
        rows = np.frombuffer(b"".join([distance_row(geo, pos) for pos in positions]), dtype=np.uint8)
        return np.minimum.reduce(rows.reshape(len(positions), geo.size), axis=0).tobytes()
    return np.minimum.reduce(table[positions], axis=0).tobytes()


def distance_row(geo: Geometry, pos: int) -> bytes:
    """Spaces apart from `pos` to every space of the map (HC-MOVE-03; from 255 on, 255), kept with the map:
    a byte a space, so the rows of a whole map stay small enough for the processor's caches."""
    rows: list[bytes | None] | None = geo.caches.get(DISTANCE_ROWS)  # type: ignore[assignment]
    if rows is None:
        rows = [None] * geo.size
        geo.caches[DISTANCE_ROWS] = rows
    if not 0 <= pos < len(rows):
        return _distance_row(geo, pos)
    row = rows[pos]
    if row is None:  # a list by space, not a dict by key: scoring a decision asks for hundreds of rows
        table = distance_table(geo)
        row = rows[pos] = _distance_row(geo, pos) if table is None else table[pos].tobytes()
    return row


DISTANCE_ROWS = "distance_rows"
"""The key of the map's distance rows in `Geometry.caches`: a list with a row (or None, not yet made) per space."""
DISTANCE_TABLE = "distance_table"
"""The key of the map's distance table in `Geometry.caches` (`distance_table`)."""
DISTANCE_TABLE_MAX = 4096
"""Maps of more spaces than this get no distance table (it takes a byte per pair of spaces: 16 MB at 4096)."""


def distance_table(geo: Geometry) -> Any:
    """Spaces apart (HC-MOVE-03; from 255 on, 255) between every two spaces of the map, a `uint8` array of
    one row per space, computed at once the first time it is asked (it depends on the map alone; a row at a
    time cost the players about 57,000 instructions each, compiled); None for a map of more than
    `DISTANCE_TABLE_MAX` spaces."""
    table = geo.caches.get(DISTANCE_TABLE)
    if table is None and geo.size <= DISTANCE_TABLE_MAX:
        spaces = np.arange(geo.size)
        across, down = spaces % geo.width, spaces // geo.width
        apart = np.maximum(np.abs(across[:, None] - across[None, :]), np.abs(down[:, None] - down[None, :]))
        table = geo.caches[DISTANCE_TABLE] = np.minimum(apart, 255).astype(np.uint8)
    return table


def _distance_row(geo: Geometry, pos: int) -> bytes:
    spaces = np.arange(geo.size)
    across = np.abs(spaces % geo.width - pos % geo.width)
    down = np.abs(spaces // geo.width - pos // geo.width)
    return np.minimum(np.maximum(across, down), 255).astype(np.uint8).tobytes()


class _Danger:
    """An enemy able to act next turn, as one monster's threat reads it: where it stands (x, y), how far it
    reaches, and the expected victory points one of its attacks takes from that monster."""

    __slots__ = ("expected", "reach", "x", "x_high", "x_low", "y", "y_high", "y_low")

    def __init__(self, x: int, y: int, reach: int, expected: float) -> None:
        self.x = x
        self.y = y
        self.reach = reach
        self.expected = expected
        # the box of spaces it reaches, bounds included: the players test every destination against it
        self.x_low = x - reach
        self.x_high = x + reach
        self.y_low = y - reach
        self.y_high = y + reach


class _Context:
    """What one decision's scoring reads repeatedly (the pieces, where they stand, the enemies' threat to
    each monster, the score), gathered once per decision and only on first use, since many decisions need
    one or two."""

    def __init__(self, state: GameState, player: int, weights: Weights | None = None) -> None:
        self.state = state
        self.geo = state.geometry
        self.player = player
        self.team = state.player(player).team
        # the players of other teams, among whom a threat is shared (HC-SPECIAL-11: a teammate never attacks)
        self.opponents = max(1, sum(1 for p in state.players if p.team != self.team))
        self._dangers: dict[int, list[_Danger]] = {}
        self._chances: dict[int, list[_Danger]] = {}
        self._threats: list[tuple[int, int, int, int, int]] | None = None
        self.attack_values: dict[tuple[int, tuple[int, ...], str], float] = {}
        self._mine: list[Monster] | None = None
        self._enemies: list[Monster] | None = None
        self._victim_positions: list[int] | None = None
        self._victim_spots: _Spots | None = None
        self._victim_spaces: frozenset[int] | None = None
        self._enemy_spots: _Spots | None = None
        self._my_spots: _Spots | None = None
        self.threat_scale = 1.0
        self.kill_scale = 1.0
        self.hunt_scale = 1.0
        self._must_attack = False
        self._read_the_score(weights or Weights())

    def _read_the_score(self, weights: Weights) -> None:
        """How the game stands reshapes play (HC-END-01 b, HC-END-03, HC-END-09): once the victims are gone a
        side behind must kill to win, so it hunts and takes risks; a side ahead holds back. The threat of a
        move counts only if an opponent has a turn left to act on it."""
        state = self.state
        players = len(state.players)
        last = state.turn_limit is not None and state.turn >= state.turn_limit * players
        if self.victim_positions and not last:
            return
        urgency = weights.urgency
        if self.margin() < 0:
            self._must_attack = not self.victim_positions
            self.kill_scale = 1.0 + 0.5 * urgency
            self.threat_scale = max(0.25, 1.0 - 0.5 * urgency)
            self.hunt_scale = 1.0 + 2.0 * urgency
        else:
            self.threat_scale = 1.0 + 0.5 * urgency
            self.hunt_scale = max(0.0, 1.0 - urgency)
        if last:
            self.threat_scale = 0.0  # the game's last turn: no one acts after it

    @property
    def must_attack(self) -> bool:
        """Victims gone and behind on the score: only kills can still win (HC-END-03, HC-END-09)."""
        return self._must_attack

    def margin(self) -> float:
        """My team's victory points (subplots counted as they stand) less the best other team's; a tie
        counts ±0.5 for the tie-break, the cheaper army winning (HC-END-09), and -0.25 if still tied (a draw)."""
        state = self.state
        vp: dict[int, float] = {}
        points: dict[int, int] = {}
        for p in state.players:
            vp[p.team] = vp.get(p.team, 0.0) + state.total_vp(p.number) + _subplot_vp_now(state, p.number)
            points[p.team] = points.get(p.team, 0) + p.army_points
        mine = vp.pop(self.team, 0.0)
        if not vp:
            return mine
        best_team = max(vp, key=lambda t: (vp[t], -points[t]))
        margin = mine - vp[best_team]
        if margin == 0:
            if not state.tie_break:
                return -0.25  # a draw
            if points[self.team] < points[best_team]:
                return 0.5
            return -0.5 if points[self.team] > points[best_team] else -0.25
        return margin

    def last_able(self, actor: Monster) -> bool:
        """Whether `actor` is the last of my monsters able to act next turn: each other one has acted this
        turn and carries two tokens (a monster that does not act this turn sheds its tokens, HC-TURN-03)."""
        for m in self.mine:
            if m is not actor and not m.immovable and not m.incapable and not (m.acted and m.tokens >= 2):
                return False
        return True

    def lockout_cost(self, weights: Weights) -> float:
        """What losing every action of my next turn is worth (HC-TURN-02, HC-END-07)."""
        return weights.lockout * self.state.victim_vp * self.state.actions_per_turn

    def is_enemy(self, monster: Monster) -> bool:
        return self.state.player(monster.controller).team != self.team

    def taking_value(self, actor: Monster) -> float:
        """The victory points a slaying (or rescue) by `actor` swings toward its side: the victim's value
        (HC-END-07) and every subplot it moves (HC-PLOT-04), its side's gains less the others'."""
        state = self.state
        swing = float(state.victim_vp)
        plot = state.plot
        if plot is None or not plot.subplots:
            return swing
        side = state.player(actor.controller).team
        per_100 = state.build_total // 100
        for number, names in plot.subplots.items():
            sign = 1.0 if state.player(number).team == side else -1.0
            for name in names:
                params = plots.card(state, name).params
                vp = params["vp"] * (per_100 if params.get("per_100_build") else 1)
                condition = params["condition"]
                if condition == "each_victim_slain" and not actor.rescuer:
                    swing += sign * vp
                elif condition == "each_victim_not_slain" and not actor.rescuer:
                    swing -= sign * vp
                elif condition in ("each_victim_on_master", "each_victim_rescued_by_you"):
                    on_master = condition == "each_victim_on_master" and plot.master.get(number) == actor.uid
                    rescued = actor.rescuer and number == actor.controller and condition != "each_victim_on_master"
                    swing += sign * vp * (on_master or rescued)
        return swing

    def kill_bonus(self, target: Monster) -> float:
        """Subplot victory points a kill of `target` by my monsters adds (my rival, HC-PLOT-04)."""
        plot = self.state.plot
        if plot is None or not plot.subplots:
            return 0.0
        bonus = 0.0
        per_100 = self.state.build_total // 100
        for name in plot.subplots.get(self.player, ()):
            params = plots.card(self.state, name).params
            if params["condition"] == "rival_killed" and plot.rival.get(self.player) == target.uid:
                bonus += params["vp"] * (per_100 if params.get("per_100_build") else 1)
        return bonus

    @property
    def mine(self) -> list[Monster]:
        if self._mine is None:
            self._mine = [m for m in self.state.monsters if m.alive and m.controller == self.player]
        return self._mine

    @property
    def enemies(self) -> list[Monster]:
        if self._enemies is None:
            state = self.state
            team = state.player(self.player).team
            self._enemies = [m for m in state.monsters if m.alive and state.player(m.controller).team != team]
        return self._enemies

    @property
    def victim_positions(self) -> list[int]:
        if self._victim_positions is None:
            self._victim_positions = [v.pos for v in self.state.victims if v.state == ON_MAP]
        return self._victim_positions

    @property
    def victim_spots(self) -> _Spots:
        if self._victim_spots is None:
            self._victim_spots = _Spots(self.geo, self.victim_positions)
        return self._victim_spots

    @property
    def victim_spaces(self) -> frozenset[int]:
        if self._victim_spaces is None:
            self._victim_spaces = frozenset(self.victim_positions)
        return self._victim_spaces

    @property
    def enemy_spots(self) -> _Spots:
        if self._enemy_spots is None:
            self._enemy_spots = _Spots(self.geo, [e.pos for e in self.enemies])
        return self._enemy_spots

    @property
    def my_spots(self) -> _Spots:
        if self._my_spots is None:
            self._my_spots = _Spots(self.geo, [m.pos for m in self.mine])
        return self._my_spots

    def threat(self, monster: Monster, pos: int) -> float:
        """Expected victory points the opponents can take from `monster` standing at `pos` next turn."""
        return self.threat_at(self.dangers(monster), pos)

    def dangers(self, monster: Monster) -> list[_Danger]:
        """The enemies able to act next turn, as `monster`'s threat reads them (once per decision and monster)."""
        found = self._dangers.get(monster.uid)
        if found is None:
            found = self._dangers[monster.uid] = self._dangers_to(monster)
        return found

    def _dangers_to(self, monster: Monster) -> list[_Danger]:
        if self._threats is None:  # the enemies able to act next turn: where each reaches, and its attack
            able = [e for e in self.enemies if e.tokens < 2 and not e.incapable]
            width = self.geo.width
            self._threats = [
                (
                    e.pos % width,
                    e.pos // width,
                    max(e.speed + 1 if not e.immovable else 1, e.stats.range),
                    e.attack,
                    e.damage,
                )
                for e in able
            ]
        return [
            _Danger(x, y, reach, _attack_worth(attack, damage, monster))
            for x, y, reach, attack, damage in self._threats
        ]

    def chances(self, monster: Monster) -> list[_Danger]:
        """The enemies `monster` could attack next turn, each with what one attack of it is expected to take
        (from the dials as they stand; once per decision and monster)."""
        found = self._chances.get(monster.uid)
        if found is None:
            found = self._chances[monster.uid] = self._chances_of(monster)
        return found

    def _chances_of(self, monster: Monster) -> list[_Danger]:
        if monster.incapable or not self.enemies:
            return []
        reach = max(monster.speed + 1 if not monster.immovable else 1, monster.stats.range)
        attack, damage = monster.attack, monster.damage
        width = self.geo.width
        return [
            _Danger(enemy.pos % width, enemy.pos // width, reach, _attack_worth(attack, damage, enemy))
            for enemy in self.enemies
        ]

    def pressure_at(self, chances: list[_Danger], pos: int) -> float:
        """The best attack `chances` offer from `pos` next turn (one attack per monster and turn)."""
        width = self.geo.width
        x, y = pos % width, pos // width
        best = 0.0
        for chance in chances:
            if chance.expected > best and chance.x_low <= x <= chance.x_high and chance.y_low <= y <= chance.y_high:
                best = chance.expected
        return best

    def threat_from(self, enemy: Monster) -> float:
        """Expected victory points `enemy` can take from my monsters next turn (its best attack on one of
        those it reaches), what killing it now saves."""
        if enemy.tokens >= 2 or enemy.incapable:
            return 0.0
        reach = max(enemy.speed + 1 if not enemy.immovable else 1, enemy.stats.range)
        width = self.geo.width
        ex, ey = enemy.pos % width, enemy.pos // width
        best = 0.0
        for mine in self.mine:
            if -reach <= mine.pos % width - ex <= reach and -reach <= mine.pos // width - ey <= reach:
                best = max(best, _attack_worth(enemy.attack, enemy.damage, mine))
        return best / self.opponents

    def threat_at(self, dangers: list[_Danger], pos: int) -> float:
        """`threat` from the monster's `dangers`: the sum over the enemies that reach `pos` (spaces counted as
        in HC-MOVE-03), shared among the opponents."""
        width = self.geo.width
        x, y = pos % width, pos // width
        total = 0.0
        for danger in dangers:
            if danger.x_low <= x <= danger.x_high and danger.y_low <= y <= danger.y_high:
                total += danger.expected
        return total / self.opponents
