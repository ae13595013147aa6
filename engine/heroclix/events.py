"""What a HeroClix game logs: the kinds of its events (`state.emit(kind, ...)`), the names a scenario's
`expect.events` lists (contract section 1). Where HorrorClix logs the same thing the name is the same (`attack`,
`critical_hit`, `damage`, `move`, `break_away`, `game_over`); `ko` is HeroClix's word for a character defeated."""

from __future__ import annotations

from enum import StrEnum


class EventKind(StrEnum):
    """The kind of a logged event."""

    ATTACK = "attack"
    BREAK_AWAY = "break_away"
    CARRIED = "carried"
    CONDITION_ROLL = "condition_roll"
    CONDITIONS = "conditions"
    COPIED = "copied"
    CRITICAL_HIT = "critical_hit"
    CRITICAL_MISS = "critical_miss"
    DAMAGE = "damage"
    DROPPED = "dropped"
    EVADE_ROLL = "evade_roll"
    FEAT_PUSHING = "feat_pushing"
    HEALED = "healed"
    FIRST_PLAYER = "first_player"
    IMPERVIOUS_ROLL = "impervious_roll"
    GAME_OVER = "game_over"
    KNOCKED_BACK = "knocked_back"
    KO = "ko"
    MARKERS = "markers"
    MOVE = "move"
    PICKED_UP = "picked_up"
    POWER = "power"
    SETUP_DONE = "setup_done"
    SUPPORT_ROLL = "support_roll"
    TELEKINESIS = "telekinesis"
    TERRAIN_ATTACK = "terrain_attack"
    TOKEN = "token"
    WILLPOWER_ROLL = "willpower_roll"
