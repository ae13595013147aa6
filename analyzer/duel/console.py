"""The duel's summary on the console: the score, outcome, victory points, victim rush (HorrorClix) or knockouts
(HeroClix), first player, figures and play, as `clix duel` prints it after a run and `clix results show` prints a
stored one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from clix.analyzer.common.text import counted, print_lines
from clix.analyzer.play.runner import engine_name
from clix.engine import compiled
from rich.console import Console


def precision_lines(summary: dict[str, Any], names: dict[str, str]) -> list[str]:
    """The --target-ci and --margin lines of the text summary."""
    lines = []
    found = summary.get("precision")
    if found is not None:
        looks = len(found["planned"])
        outcome = "reached" if found["reached"] else "not reached within --games"
        lines.append(
            f"  precision: target ±{100 * found['target']:.1f} points {outcome} after {found['games']} games "
            f"({found['games'] // 2} pairs, look {found['look']} of {looks}): {names['a']} scores "
            f"{100 * found['score']:.1f}% [{100 * found['low']:.1f}–{100 * found['high']:.1f}], half-width "
            f"{100 * found['half_width']:.1f} points (each look at {100 * found['confidence']:.1f}%, so the "
            "interval stays 95% under optional stopping)"
        )
    tost = summary.get("equivalence")
    if tost is not None and tost.get("low") is None:  # one pair: no interval to test
        lines.append(
            f"  equivalence: not tested within ±{100 * tost['margin']:.1f} points (the two one-sided tests need 2 "
            "seat-swapped pairs or more: --games 4 or more)"
        )
    elif tost is not None:
        low, high = tost["band"]
        verdict = "balanced" if tost["equivalent"] else "not shown to be balanced"
        lines.append(
            f"  equivalence: {verdict} within ±{100 * tost['margin']:.1f} points ({names['a']}'s score "
            f"{100 * low:.1f}–{100 * high:.1f}%): {100 * tost['confidence']:.0f}% interval "
            f"[{100 * tost['low']:.1f}–{100 * tost['high']:.1f}], two one-sided tests p = {tost['p_value']:.3g}"
        )
    return lines


def _pct(p: dict[str, Any]) -> str:
    return f"{100 * p['rate']:.1f}% [{100 * p['low']:.1f}–{100 * p['high']:.1f}]"


def _score(p: dict[str, Any], digits: int = 0) -> str:
    """A score with its interval, "62% [58–66]"."""
    if p.get("score") is None:
        return "–"
    f = f"{{:.{digits}f}}"
    return f"{f.format(100 * p['score'])}% [{f.format(100 * p['low'])}–{f.format(100 * p['high'])}]"


def _effect(d: dict[str, Any]) -> str:
    """A difference of scores in percentage points, "+8 [+2, +14] points"."""
    if d.get("difference") is None:
        return "– points"
    return f"{100 * d['difference']:+.0f} [{100 * d['low']:+.0f}, {100 * d['high']:+.0f}] points"


def print_summary(
    console: Console,
    summary: dict[str, Any],
    settings: dict[str, Any],
    names: dict[str, str],
    provenance: str,
    report: Path,
) -> None:
    o = summary["outcome"]
    sc = summary["score"]
    vp = summary["victory_points"]
    rush = summary.get("victim_rush")
    hero = "knockouts" in summary  # a HeroClix duel: knockouts, pushing, knockback (no victims, no plot twists)
    fp = summary["first_player"]
    tb = summary["tie_break"]
    # a mirror duel names one army twice: tell the sides apart
    label = {side: names[side] + (f" ({side.upper()})" if names["a"] == names["b"] else "") for side in ("a", "b")}
    if not sc["excludes_half"]:
        verdict = f"neither {'force' if hero else 'army'} is shown to be favoured"
    else:
        favoured = label["a"] if sc["score"] > 0.5 else label["b"]
        verdict = f"{favoured} is favoured"
    if tb["ties"] == "draw":
        level = f"{100 * tb['equal_vp'] / max(1, tb['games']):.1f}% of games ({tb['equal_vp']} of {tb['games']})"
        ties = f"ties played as draws: {level} ended level on VP"
    elif hero:
        ties = (
            f"decided by the tie-break (equal VP or no KO at all, the force built with fewer points wins, HX-END-11): "
            f"{100 * tb['share']:.1f}% of games ({tb['count']} of {tb['games']})"
        )
    else:
        ties = (
            f"decided by the tie-break (equal VP, cheaper army wins): {100 * tb['share']:.1f}% of games "
            f"({tb['count']} of {tb['games']})"
        )
    seat = fp["seat"]
    speed = (
        f"{settings['games_per_second']} games/s on {counted(settings['jobs'], 'job')}"
        if settings.get("games_per_second") is not None
        else "no game played"
    )
    lines = [
        f"{names['a']} vs {names['b']} on {settings['map']}: {o['games']} games, players {settings['players']}, "
        f"seed {settings['seed']} ({speed}, engine {settings['engine']})",
        f"  {label['a']} scores {_score(sc, 1)} (wins + ½ draws, 95% interval over {sc['pairs']} seat-swapped pairs)",
        f"    wins {_pct(o['win'])}, draws {_pct(o['draw'])}, loses {_pct(o['loss'])} (95% Wilson)",
        f"  the score's interval {'excludes' if sc['excludes_half'] else 'includes'} 50%: {verdict} "
        f"(if games were independent: [{100 * sc['naive_low']:.1f}–{100 * sc['naive_high']:.1f}])",
        f"  {ties}",
    ]
    if hero:
        lines += heroclix_lines(summary, names)
    else:
        lines += [
            f"  victory points: {names['a']} {vp['a']['total']['mean']:.1f} (kills {vp['a']['kills']:.1f}, victims "
            f"{vp['a']['victims']:.1f}, subplots {vp['a']['subplots']:.1f}), {names['b']} "
            f"{vp['b']['total']['mean']:.1f} (kills {vp['b']['kills']:.1f}, victims {vp['b']['victims']:.1f}, "
            f"subplots {vp['b']['subplots']:.1f})",
            f"  VP per army point: {names['a']} {vp['a']['per_army_point']:.3f}, {names['b']} "
            f"{vp['b']['per_army_point']:.3f}",
        ]
    if rush is not None:
        lines.append(
            f"  victim rush: first slay round {rush['a']['first_slay']['mean']:.2f} vs "
            f"{rush['b']['first_slay']['mean']:.2f}; share of victims {100 * rush['a']['share_of_victims']:.0f}% vs "
            f"{100 * rush['b']['share_of_victims']:.0f}%"
        )
    lines += [
        f"  game length: mean {summary['game_length']['rounds']['mean']:.1f} rounds, "
        f"{100 * summary['game_length']['timeouts']:.0f}% of games reach the turn limit",
        f"  going first ({'HX-SETUP-01' if hero else 'HC-SETUP-03'}): the first player scores {_score(fp)} (either "
        f"{'force' if hero else 'army'}, pairs as the unit)",
    ]
    for side in ("a", "b"):
        army = fp["by_army"][side]
        lines.append(
            f"    {label[side]}: {_score(army['first'])} first vs {_score(army['second'])} second "
            f"(effect {_effect(army['effect'])})"
        )
    lines.append(
        f"    seats: {label['a']} {_score(seat['seat_1'])} in seat 1 vs {_score(seat['seat_2'])} in seat 2 "
        f"(effect {_effect(seat['effect'])})"
    )
    play = summary.get("play")
    if play and hero:
        lines += heroclix_play_lines(play, names)
    elif play:
        # idle = a turn with no monster action, split (issue 32) into passed (a monster could act: the AI's choice,
        # goal under 15%) and no legal action (action tokens); a duel won by passive play shows here
        def share(p: dict[str, Any]) -> str:
            return "–" if p["rate"] is None else f"{100 * p['rate']:.0f}%"

        split = all("passed_share" in play[side] for side in ("a", "b"))  # summaries from before the split: idle
        lines.append(
            f"  how the AI played ({'passed: a monster could act, none did, goal under 15%; ' if split else ''}"
            f"games with no attack at all: {100 * play['no_attack_games_share']:.0f}%):"
        )
        for side in ("a", "b"):
            s = play[side]
            idle = (
                f"passed {share(s['passed_share'])} ({share(s['passed_share_with_victims'])} with victims), "
                f"no legal action {share(s['no_action_share'])}"
                if split
                else f"idle {share(s['idle_share'])} of turns ({share(s['idle_share_with_victims'])} while victims remain)"
            )
            lines.append(
                f"    {names[side]}: {idle}, {s['attacks_per_game']['total']:.1f} attacks/game "
                f"({s['attacks_after_victims_per_game']:.1f} after the last victim)"
            )
    lines += [f"  {provenance}"]
    if settings.get("store"):
        taken = "--fresh: no games read" if settings.get("fresh") else f"{settings['from_store']} games"
        lines.append(
            f"  store: run {settings['run']} in {settings['store']}; {taken} from the store, "
            f"{settings['played']} played"
        )
    lines.append(f"report: {report}")
    note = engine_note(settings.get("game_engines") or {}, engine_name())
    if note is not None:
        lines.append(note)
    if settings["engine"] != compiled.COMPILED:
        lines.append(f"  (the compiled engine plays the same games about 3x faster: {compiled.compile_hint()})")
    print_lines(console, lines)


def _mean(value: float | None, digits: int = 1) -> str:
    """A mean, or a dash when there is none (no game had one: a first KO)."""
    return "–" if value is None or value != value else f"{value:.{digits}f}"


def heroclix_lines(summary: dict[str, Any], names: dict[str, str]) -> list[str]:
    """A HeroClix duel's victory points (from knockouts and from its own survivors, HX-END-04, -05) and knockouts:
    KOs per game, the round of the first, games without one, forces wiped out."""
    vp, ko = summary["victory_points"], summary["knockouts"]

    def points(side: str) -> str:
        v = vp[side]
        return f"{names[side]} {v['total']['mean']:.1f} (KOs {v.get('kos', 0.0):.1f}, survivors {v.get('survivors', 0.0):.1f})"

    def kos(side: str) -> str:
        k = ko[side]
        return (
            f"{names[side]} {_mean(k['kos_per_game'], 2)}/game (first in round {_mean(k['first_ko']['mean'])}, none in "
            f"{100 * (k['never_kos'] or 0):.0f}% of games; wiped out in {100 * (k['eliminated_share'] or 0):.0f}%)"
        )

    return [
        f"  victory points: {points('a')}, {points('b')}",
        f"  VP per force point: {names['a']} {vp['a']['per_army_point']:.3f}, {names['b']} "
        f"{vp['b']['per_army_point']:.3f}",
        f"  knockouts scored: {kos('a')}; {kos('b')}",
    ]


def heroclix_play_lines(play: dict[str, Any], names: dict[str, str]) -> list[str]:
    """How the AI played a HeroClix duel: idle turns, attacks (with an object), pushes, knockback, healing."""

    def share(p: dict[str, Any]) -> str:
        return "–" if p["rate"] is None else f"{100 * p['rate']:.0f}%"

    lines = [
        f"  how the AI played (idle: a turn without an action; games with no attack at all: "
        f"{100 * (play['no_attack_games_share'] or 0):.0f}%):"
    ]
    for side in ("a", "b"):
        s = play[side]
        lines.append(
            f"    {names[side]}: idle {share(s['idle_share'])} of turns, {s['attacks_per_game']:.1f} attacks/game "
            f"({s['object_attacks_per_game']:.1f} with an object), damage dealt {s['damage_dealt_per_game']:.1f} and "
            f"taken {s['damage_taken_per_game']:.1f} clicks/game, {s['pushes_per_game']:.1f} pushes/game "
            f"({s['pushing_damage_per_game']:.1f} clicks), knocked back {s['knockbacks_per_game']:.2f}/game "
            f"({s['knockback_damage_per_game']:.1f} clicks), healed {s['healed_per_game']:.1f} clicks/game"
        )
    return lines


def engine_note(engines: dict[str, int], current: str) -> str | None:
    """A line when games were played on another engine than this process's (a worker that found no usable
    build, or games from the store): how many on each."""
    if not set(engines) - {current}:
        return None
    played = ", ".join(f"{count} {name}" for name, count in sorted(engines.items()))
    return f"  note: the games were played on the engines {played}; this process runs {current}"
