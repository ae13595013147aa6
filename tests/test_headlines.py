"""Every analysis leads with its answer in one sentence, with the run's size (issue 37, item 5): the ladder's
strongest style, or that none is shown; the meta's best army against the field, or that none stands out."""

from __future__ import annotations

from clix.analyzer.ladder.command import ladder_headline
from clix.analyzer.meta.report import meta_headline

LADDER_SETTINGS = {"games": 400, "cells": 20}


def _ladder(low: float) -> dict:
    ratings = [
        {"style": "tuned", "rating": 120.0, "score": 0.62, "score_low": 0.58, "score_high": 0.66},
        {"style": "hunter", "rating": 80.0, "score": 0.55, "score_low": 0.51, "score_high": 0.59},
    ]
    return {"ratings": ratings, "matrix": {"tuned": {"hunter": {"score": 0.57, "low": low, "high": 0.61}}}}


def test_the_ladder_names_its_strongest_style_only_when_it_beats_the_next():
    shown = ladder_headline(_ladder(low=0.53), LADDER_SETTINGS)
    assert shown.startswith("tuned is the strongest style: 57% [53-61] against hunter, the next")
    assert shown.endswith("(400 games on 20 cells).")
    unsure = ladder_headline(_ladder(low=0.49), LADDER_SETTINGS)
    assert unsure.startswith("No style is shown the strongest: tuned leads on rating but scores 57% [49-61]")


def _meta(low: float) -> dict:
    field = [
        {"army": "night-shift", "score": 0.61, "low": low, "high": 0.7},
        {"army": "crimson-court", "score": 0.39, "low": 0.3, "high": 0.49},
    ]
    nash = {"support": [{"army": "night-shift", "weight": 0.8}, {"army": "crimson-court", "weight": 0.2}]}
    return {"field": field, "nash": nash, "armies": ["night-shift", "crimson-court"]}


def test_the_meta_names_the_best_army_only_when_its_interval_clears_half():
    settings = {"maps": ["graveyard", "mansion"], "games": 800}
    shown = meta_headline(_meta(low=0.52), settings)
    assert shown == (
        "Best against the field: night-shift, 61% [52–70]; the Nash mixture plays night-shift 0.80, "
        "crimson-court 0.20 (2 armies on 2 maps, 800 games)."
    )
    forces = meta_headline(_meta(low=0.48), settings, kind="force")
    assert forces.startswith("No force stands out against the field: the best, night-shift, 61% [48–70], holds 50%")
