"""The components a game reads, built once from the library: the board, item tokens, the monster deck (generated from
the deck file's numbers where no card is known), perks, heroes, villagers, monsters, dice and terror track."""

from __future__ import annotations

from dataclasses import dataclass

from clix.engine.horrified.board import Board, build_board
from clix.engine.horrified.library import KNOBS, Library, Monster, MonsterDeck, Perk

SIGN = "sign"
"""A card's event kind when it reads the Soul sign / Hunted emblem (`MonsterDeck.sign_events`, R-HF-22)."""


@dataclass(frozen=True)
class ItemToken:
    uid: int
    colour: str
    strength: int
    location: int
    """Where it is placed when drawn (HF-ITEM-01)."""


@dataclass(frozen=True)
class Card:
    """One monster card as numbers (HF-MON-01): items drawn, its event, and its strike."""

    index: int
    items: int
    event: str
    """'villager' or the monster the event is about (HF-MON-01)."""
    event_kind: str
    """'villager' (place one), 'move' (the event monster moves `event_amount` toward the closest person), 'frenzy'."""
    event_amount: int
    villager: int
    villager_at: int
    symbols: tuple[str, ...]
    """Monster symbols left to right; 'frenzy' for the Frenzy symbol (HF-MON-02)."""
    moves: int
    dice: int


@dataclass(frozen=True)
class HeroSpec:
    id: str
    actions: int
    start: int
    special: str
    amount: int
    solo: bool


@dataclass(frozen=True)
class Components:
    board: Board
    items: tuple[ItemToken, ...]
    initial_draw: int
    cards: tuple[Card, ...]
    perks: tuple[Perk, ...]
    """One entry per perk card (a perk with count 3 is three cards)."""
    heroes: dict[str, HeroSpec]
    villagers: tuple[tuple[str, int], ...]
    """(id, safe location) of each villager."""
    monsters: dict[str, Monster]
    faces: tuple[str, ...]
    dice: int
    skull: int
    solo_start: int


def build_components(library: Library) -> Components:
    """The game's components from a library whose tables all loaded (`library.cross_problems` found nothing)."""
    t = library.tables
    board = build_board(t["board"])
    named = board.named()
    items: list[ItemToken] = []
    for colour in t["items"].colours:
        for k in range(colour.count):
            where = named[(colour.offset + k) % len(named)]
            items.append(ItemToken(len(items), colour.colour, colour.strengths[k % len(colour.strengths)], where))
    villagers = tuple((v.id, board.index(v.safe)) for v in t["villagers"])
    heroes = {h.id: HeroSpec(h.id, h.actions, board.index(h.start), h.special, h.amount, h.solo) for h in t["heroes"]}
    perks = tuple(p for p in t["perks"] for _ in range(p.count))
    return Components(
        board=board,
        items=tuple(items),
        initial_draw=t["items"].initial_draw,
        cards=generate_deck(t["monster_deck"], board, villagers, frozenset(m.id for m in t["monsters"] if m.lure)),
        perks=perks,
        heroes=heroes,
        villagers=villagers,
        monsters={m.id: m for m in t["monsters"]},
        faces=tuple(t["dice"].faces),
        dice=t["dice"].count,
        skull=t["terror"].skull,
        solo_start=t["terror"].solo_start,
    )


def generate_deck(
    deck: MonsterDeck, board: Board, villagers: tuple[tuple[str, int], ...], luring: frozenset[str] = frozenset()
) -> tuple[Card, ...]:
    """The monster deck from the deck file's numbers (no card text is known, checklist section 2 row 2): deterministic,
    so a data file always means one deck; the game shuffles it with its own generator (HF-SETUP-01). The first
    `sign_events` event cards of each `luring` monster read the Soul sign / Hunted emblem (kind `sign`)."""
    n = deck.cards
    owners = [owner for owner, count in deck.events.items() for _ in range(count)]
    owners = _spread(owners, n)
    named = board.named()
    symbols: list[list[str]] = [[] for _ in range(n)]
    for offset, (monster, count) in enumerate([*deck.strikes.items(), ("frenzy", deck.frenzy)]):
        for j in range(count):  # evenly spread, each symbol from its own offset (its place in the file)
            symbols[((j * n) // count + offset) % n].append(monster)
    cards = []
    villager_cards = 0
    monster_cards: dict[str, int] = {}
    for k in range(n):
        owner = owners[k]
        villager, villager_at, kind, amount = 0, 0, "villager", 1
        if owner == "villager":
            villager = villager_cards % len(villagers)
            safe = villagers[villager][1]
            choices = [at for at in named if at != safe]
            villager_at = choices[(villager_cards * 7 + villager) % len(choices)]
            villager_cards += 1
        else:
            seen = monster_cards.get(owner, 0)
            event = deck.monster_events[seen % len(deck.monster_events)]
            kind, amount = event.kind, event.amount
            if owner in luring and seen < deck.sign_events:
                kind, amount = SIGN, 1
            monster_cards[owner] = seen + 1
        strike = tuple(sorted(s for s in symbols[k] if s != "frenzy")) + (("frenzy",) if "frenzy" in symbols[k] else ())
        cards.append(
            Card(
                k,
                deck.items[k % len(deck.items)],
                owner,
                kind,
                amount,
                villager,
                villager_at,
                strike,
                deck.moves[k % len(deck.moves)],
                deck.dice[k % len(deck.dice)],
            )
        )
    return tuple(cards)


def _spread(owners: list[str], n: int) -> list[str]:
    """The owners interleaved (every kind spread through the deck rather than in a block)."""
    by_kind: dict[str, int] = {}
    for owner in owners:
        by_kind[owner] = by_kind.get(owner, 0) + 1
    keyed = sorted(((j + 0.5) / count, owner) for owner, count in by_kind.items() for j in range(count))
    return [owner for _, owner in keyed][:n]


def vary(library: Library, knob: str, value: int) -> Components:
    """The components with one assumed number changed (`library.KNOBS`), the rest as loaded: the skull's place on the
    terror track (HF-GOAL-02), the Hit faces of each die (the rest blank but one Power, HF-MON-05), the item tokens
    of each colour (HF-ITEM-01), the Frenzy symbols in the monster deck (HF-MON-02), the Mummy's and the Wolf Man's
    event cards that read the Soul sign / Hunted emblem (R-HF-22). A ValueError names the knobs."""
    t = dict(library.tables)
    if knob == "terror-skull":
        t["terror"] = t["terror"].model_copy(update={"skull": value})
    elif knob == "hit-faces":
        if not 0 <= value <= 5:
            raise ValueError(f"hit-faces takes 0 to 5 Hit faces (a die has 6 faces, one Power), not {value}")
        faces = ["power", *["hit"] * value, *["blank"] * (5 - value)]
        t["dice"] = t["dice"].model_copy(update={"faces": faces})
    elif knob == "items-per-colour":
        colours = [c.model_copy(update={"count": value}) for c in t["items"].colours]
        t["items"] = t["items"].model_copy(update={"colours": colours})
    elif knob == "frenzy-symbols":
        t["monster_deck"] = t["monster_deck"].model_copy(update={"frenzy": value})
    elif knob == "sign-events":
        t["monster_deck"] = t["monster_deck"].model_copy(update={"sign_events": value})
    else:
        raise ValueError(f"no assumed number is called {knob!r}; vary one of {', '.join(KNOBS)}")
    return build_components(Library(tables=t, where=library.where, files=library.files))
