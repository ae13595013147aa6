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
    CONDITIONS = "conditions"
    CONDITION_ROLL = "condition_roll"
    CONTROL_ENDED = "control_ended"
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
    LEADERSHIP_ROLL = "leadership_roll"
    MARKERS = "markers"
    MASTERMIND = "mastermind"
    MIND_CONTROLLED = "mind_controlled"
    MOVE = "move"
    OUTWITTED = "outwitted"
    PERPLEXED = "perplexed"
    PICKED_UP = "picked_up"
    POWER = "power"
    REROLL = "reroll"
    SETUP_DONE = "setup_done"
    SHAPE_CHANGE_ROLL = "shape_change_roll"
    SUPPORT_ROLL = "support_roll"
    TELEKINESIS = "telekinesis"
    TERRAIN_ATTACK = "terrain_attack"
    TOKEN = "token"
    WILLPOWER_ROLL = "willpower_roll"
