"""Dice: every roll of a game goes through one of these, so a game replays from its seed (or forced dice)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

import numpy as np


class DiceExhausted(Exception):
    """A forced-dice game asked for more dice than were listed."""


class Dice:
    """d6 rolls drawn from one seeded `numpy.random.Generator`, fetched in batches for speed."""

    BATCH = 256

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self._buffer: list[int] = []
        self.rolled = 0

    def d6(self) -> int:
        if not self._buffer:
            self._buffer = self.rng.integers(1, 7, size=self.BATCH).tolist()
            self._buffer.reverse()
        self.rolled += 1
        return self._buffer.pop()

    def copy(self) -> Dice:
        """Dice that roll what these would roll from now on, independently of them."""
        return _restored_dice(copied_generator(self.rng), list(self._buffer), self.rolled)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restored_dice, (self.rng, list(self._buffer), self.rolled))

    def __eq__(self, other: object) -> bool:
        """Dice that have rolled as many and will roll the same future."""
        return (
            type(other) is Dice
            and isinstance(other, Dice)
            and other.rolled == self.rolled
            and other._buffer == self._buffer
            and other.rng.bit_generator.state == self.rng.bit_generator.state
        )


class ForcedDice(Dice):
    """Dice that return a listed sequence (scenario files, tests); asking for one more is an error."""

    def __init__(self, results: Iterable[int]) -> None:
        self.queue = deque(int(r) for r in results)
        self.rolled = 0

    def d6(self) -> int:
        if not self.queue:
            raise DiceExhausted(f"the engine asked for die #{self.rolled + 1} but only {self.rolled} were listed")
        self.rolled += 1
        return self.queue.popleft()

    @property
    def left(self) -> int:
        return len(self.queue)

    def copy(self) -> Dice:
        return _restored_forced(list(self.queue), self.rolled)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restored_forced, (list(self.queue), self.rolled))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ForcedDice) and other.rolled == self.rolled and other.queue == self.queue


def copied_generator(rng: np.random.Generator) -> np.random.Generator:
    """A generator that draws what `rng` would draw from now on, independently of it: a new bit generator of
    the same kind, seeded from a fixed sequence and then given `rng`'s state. `copy.deepcopy` pickled it, about
    95 µs against 18 µs, most of what copying a game state cost (`State.copy`)."""
    bits = type(rng.bit_generator)(_ANY_SEED)
    bits.state = rng.bit_generator.state
    return np.random.Generator(bits)


_ANY_SEED = np.random.SeedSequence(0)
"""Seeds the new bit generator before its state is replaced (a SeedSequence already made: seeding from an int
builds one each time)."""


def _restored_dice(rng: np.random.Generator, buffer: list[int], rolled: int) -> Dice:
    dice = Dice(rng)
    dice._buffer = buffer
    dice.rolled = rolled
    return dice


def _restored_forced(queue: list[int], rolled: int) -> ForcedDice:
    dice = ForcedDice(queue)
    dice.rolled = rolled
    return dice


def child_seeds(seed: int | np.random.SeedSequence, count: int) -> list[np.random.SeedSequence]:
    """The first `count` children of `seed`, derived without mutating it (`SeedSequence.spawn` counts
    its calls, so spawning twice from one object would give different games)."""
    return [child_seed(seed, k) for k in range(count)]


def child_seed(seed: int | np.random.SeedSequence, k: int) -> np.random.SeedSequence:
    """Child `k` of `seed`: the same as `child_seeds(seed, k + 1)[k]`, without making the others."""
    parent = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    return np.random.SeedSequence(parent.entropy, spawn_key=(*parent.spawn_key, k), pool_size=parent.pool_size)
