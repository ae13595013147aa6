"""A search player any ruleset can field: playouts of a prior player's best options, spent by successive halving.

At an action decision it ranks the options by the prior's scores, keeps the best few, and plays each out in
sampled worlds (what the player cannot see drawn from what it could be, `sampled_world`), every later choice
made by playout players, for a number of turns; each playout ends in a static evaluation of the position. The
candidates share their worlds and dice (common random numbers); successive halving spends the budget (`budget`
playouts a decision) on the better ones; and the prior's own choice stands unless another beats it by
`confidence` standard errors of the paired differences. Any other decision is the prior's.

A ruleset's search player subclasses `PlayoutSearch` and gives it the game: the prior (`prior_choice`,
`prior_scores`), the worlds (`sampled_world`), the playout players (`playout_agent`) and the evaluation
(`evaluate`), and may search decisions of its own (`choose_other`). HorrorClix's is
`engine.horrorclix.players.search`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from clix.engine.core import driver
from clix.engine.core.dice import Dice
from clix.engine.core.pending import Decision
from clix.engine.core.state import State
from mypy_extensions import mypyc_attr

DEFAULT_BUDGET = 96
"""Playouts per decision when none is named (`search` = `search:96`): on fresh seeds 951-952 it scored 63.7%
[59.8-67.5] against tuned over the 18 HorrorClix sample mirrors, where 48 playouts scored 58-63% by seed set
(docs/tuning.md, "The search player's strength"); a decision costs twice as much."""
SEARCH = "search"
"""The style name of a search player; `search:N` searches N playouts a decision."""
MAX_BUDGET = 100_000


def is_search(style: str) -> bool:
    """Whether `style` names a search player (`search` or `search:N`)."""
    return style == SEARCH or style.startswith(SEARCH + ":")


def search_budget(style: str) -> int:
    """The playouts a decision of a `search` or `search:N` style (the default budget for `search`); ValueError
    for a budget that is not a number from 1 to 100000."""
    if style == SEARCH:
        return DEFAULT_BUDGET
    text = style[len(SEARCH) + 1 :]
    if not text.isdigit() or not 1 <= int(text) <= MAX_BUDGET:
        raise ValueError(f"'{style}': a search budget is a number of playouts from 1 to {MAX_BUDGET}, as search:200")
    return int(text)


CANDIDATES = 6
"""How many of the prior's best options are searched."""
CONFIDENCE = 1.0
"""How many standard errors the playouts must put an option above the prior's choice to take it instead.
Against tuned over the 18 HorrorClix sample mirrors (seeds 23, 29, 31; 2,160 games each) 2 scored as 1 did
(+0.6 points [-2.0, +3.1], paired), 3 worse (57% on seed 23), 0 (the playouts' best taken outright) about 50%.
(Measured before the prior's choice was kept in every round of the halving.)"""
TURN = "turn"
ROUND = "round"
HORIZONS = (TURN, ROUND)
"""How far a playout looks: to the end of the current turn, or of the next player's turn too."""
HORIZON_TURNS = {TURN: 1, ROUND: 2}
"""How many more turns begin before a playout stops, by horizon."""


@mypyc_attr(allow_interpreted_subclasses=True)  # Horrified's and HeroClix's search players, and tests' probes
class PlayoutSearch:
    """Chooses an action by playing out the prior's best options in sampled worlds (see the module)."""

    def __init__(
        self,
        rng: np.random.Generator,
        budget: int = DEFAULT_BUDGET,
        horizon: str = ROUND,
        candidates: int = CANDIDATES,
        name: str = "",
        confidence: float = CONFIDENCE,
    ) -> None:
        if budget < 1:
            raise ValueError(f"a search budget is at least 1 playout, not {budget}")
        if horizon not in HORIZONS:
            raise ValueError(f"horizon: {horizon!r} is not one of {', '.join(HORIZONS)}")
        self.rng = rng
        self.budget = budget
        self.horizon = horizon
        self.candidates = candidates
        self.name = name or f"search:{budget}"
        self.confidence = confidence
        self.last: dict[int, float] = {}
        """The mean value of each option searched at the last decision (by option index), for tests and traces."""
        self._streams: dict[int, Any] = {}
        """The playouts' generators' starting states by sample seed, for the decision being searched."""
        self._rewound = np.random.Generator(np.random.PCG64(0))
        """The generator every playout uses, rewound to its sample's state (`playout_rng`)."""

    # What a ruleset's search player supplies.

    def prior_choice(self, state: Any, decision: Decision) -> int:
        """The prior player's answer to `decision`."""
        raise NotImplementedError

    def prior_scores(self, state: Any, decision: Decision) -> Sequence[float]:
        """The prior's score of each option of an action decision (higher is better)."""
        raise NotImplementedError

    def sampled_world(self, root: Any, player: int, rng: np.random.Generator) -> Any:
        """A copy of `root` without dice in which what `player` cannot see is drawn from what it could be."""
        raise NotImplementedError

    def playout_agent(self, rng: np.random.Generator) -> Any:
        """A player for every seat of a playout."""
        raise NotImplementedError

    def evaluate(self, state: Any, player: int) -> float:
        """The value of the position a playout stopped at, for `player`."""
        raise NotImplementedError

    def choose_other(self, state: Any, decision: Decision) -> int | None:
        """A decision of the ruleset's own it searches (None: not one)."""
        return None

    # The search.

    def choose(self, state: Any, decision: Decision) -> int:
        """The searched best action; any other decision as `choose_other` or the prior answers it."""
        self.last = {}
        self._streams.clear()
        if len(decision.options) < 2:
            return self.prior_choice(state, decision)
        other = self.choose_other(state, decision)
        if other is not None:
            return other
        if decision.kind != "action" or state.waiting is not None:
            return self.prior_choice(state, decision)
        scores = self.prior_scores(state, decision)
        chosen = self.shortlist(decision, scores, max(1, min(self.candidates, self.budget, len(scores))))
        if len(chosen) == 1:
            return chosen[0]
        return self.search(state, decision, chosen)

    def shortlist(self, decision: Decision, scores: Sequence[float], count: int) -> list[int]:
        """The options searched, the prior's best first: its `count` best by score (ties to the earlier)."""
        ranked = sorted(range(len(scores)), key=lambda k: (-scores[k], k))
        return ranked[:count]

    def search(self, view: State, decision: Decision, chosen: list[int]) -> int:
        """Successive halving over `chosen` (best prior first), the playouts sharing worlds and dice by sample."""
        player = decision.player
        actions = [decision.options[k] for k in chosen]
        root = view.copy_without_dice()  # the driver reuses its view: never change it
        seeds: list[int] = []
        worlds: list[Any] = []
        values: list[list[float]] = [[] for _ in chosen]
        totals = [0.0] * len(chosen)
        counts = [0] * len(chosen)
        alive = list(range(len(chosen)))
        rounds = max(1, math.ceil(math.log2(len(chosen))))
        spent = 0
        for done in range(rounds):
            per = max(1, (self.budget - spent) // (len(alive) * (rounds - done)))
            for k in alive:
                for j in range(counts[k], counts[k] + per):
                    while len(seeds) <= j:
                        seed = int(self.rng.integers(2**63))
                        seeds.append(seed)
                        worlds.append(self.sampled_world(root, player, np.random.default_rng([seed, 0])))
                    value = self.playout(worlds[j], actions[k], player, seeds[j])
                    values[k].append(value)
                    totals[k] += value
                counts[k] += per
            spent += per * len(alive)
            if len(alive) > 1:
                alive.sort(key=lambda k: (-totals[k] / counts[k], k))
                alive = alive[: math.ceil(len(alive) / 2)]
                if 0 not in alive:  # the prior's choice stays in to the end: the gate compares on every sample
                    alive.append(0)
        self.last = {chosen[k]: totals[k] / counts[k] for k in range(len(chosen))}
        best = min(alive, key=lambda k: (-totals[k] / counts[k], k))
        if best != 0 and not self.surely_better(values[best], values[0]):
            return chosen[0]
        return chosen[best]

    def playout_rng(self, seed: int) -> np.random.Generator:
        """The generator of a playout of sample `seed`: `default_rng([seed, 1])`, every candidate's playout of the
        sample starting from the same state (common random numbers). Seeding costs about 17 µs (the seed
        sequence's hashing), restoring a kept state about 2: each sample is seeded once, and one generator
        is rewound for each playout (nothing keeps a playout's generator after it)."""
        start = self._streams.get(seed)
        if start is None:
            start = self._streams[seed] = np.random.default_rng([seed, 1]).bit_generator.state
        self._rewound.bit_generator.state = start
        return self._rewound

    def surely_better(self, found: list[float], prior: list[float]) -> bool:
        """Whether `found` beats the prior's choice by more than `confidence` standard errors of their paired
        differences (the samples both were played out in share worlds and dice)."""
        if self.confidence <= 0:
            return True
        n = min(len(found), len(prior))
        if n < 2:
            return False
        diffs = [found[j] - prior[j] for j in range(n)]
        mean = sum(diffs) / n
        spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
        return mean > self.confidence * spread

    def playout(self, world: Any, action: Any, player: int, seed: int, turns: int | None = None) -> float:
        """`action` (if any) in a copy of `world`, then the playout players' play until `turns` more turns have
        begun (the horizon's by default); the position's value for `player`."""
        rng = self.playout_rng(seed)
        state = world.copy_without_dice()
        dice = Dice(rng)
        state.dice = dice
        agents = [self.playout_agent(rng) for _ in state.players]
        stop = state.turn + (turns if turns is not None else HORIZON_TURNS[self.horizon])
        if action is not None:
            state.ruleset.apply(state, action, listed=True)
        driver.play(state, agents, dice, until_turn=stop)
        return self.evaluate(state, player)


@mypyc_attr(allow_interpreted_subclasses=True)
class HeuristicSearch(PlayoutSearch):
    """The playout search with a ruleset's weighted heuristic (at the given weights) as both its prior and its
    playout players, and a static evaluation with settings of its own: what HorrorClix's and HeroClix's search
    players share. A subclass names its heuristic's class (`heuristic`, called as `heuristic(rng, weights, name)`),
    its tuned weights (`tuned`) and its evaluation settings' class (`settings`), and gives `prior_scores`,
    `sampled_world` and `evaluate`."""

    heuristic: ClassVar[type]
    tuned: ClassVar[Any]
    settings: ClassVar[type]

    def __init__(
        self,
        rng: np.random.Generator,
        budget: int = DEFAULT_BUDGET,
        weights: Any = None,
        horizon: str = ROUND,
        candidates: int = CANDIDATES,
        evaluation: Any = None,
        name: str = "",
        confidence: float = CONFIDENCE,
    ) -> None:
        super().__init__(rng, budget, horizon, candidates, name, confidence)
        self.weights = self.tuned if weights is None else weights
        self.evaluation = evaluation or self.settings()
        self.prior = self.heuristic(rng, self.weights, "tuned")

    def __reduce__(self) -> tuple[Any, ...]:
        """Copied and pickled as its generator and settings (all it holds)."""
        settings = (self.weights, self.horizon, self.candidates, self.evaluation, self.name, self.confidence)
        return (type(self), (self.rng, self.budget, *settings))

    def prior_choice(self, state: Any, decision: Decision) -> int:
        return int(self.prior.choose(state, decision))

    def playout_agent(self, rng: np.random.Generator) -> Any:
        return self.heuristic(rng, self.weights, "tuned")


def search_factory(agent: type[PlayoutSearch], budget: int = DEFAULT_BUDGET, name: str = "", **options: Any):  # type: ignore[no-untyped-def]
    """A factory `rng -> agent` searching `budget` playouts a decision."""

    def make(rng: np.random.Generator) -> PlayoutSearch:
        return agent(rng, budget, name=name, **options)  # type: ignore[call-arg]

    return make
