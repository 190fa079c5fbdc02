"""A whist drive (progressive whist), as pure functions: seating, movement, scores, prizes.

The document (/work/shared/rules/whist.txt, tournaments): a fixed number of deals, trumps by the
fixed sequence hearts, diamonds, spades, clubs (RULES-NOTES: no trumps every fifth deal as an
option), and "each player's score is the total number of odd tricks ... that their side has
taken" (option: all the tricks taken). Individuals sit four to a table, N-S against E-W.

Progressive movement (the default), after every change point (every deal by default, or every
2-4 deals as an option): at each table the pair that took more tricks over the set moves up one
table (towards table 1) and the losers stay. At the top table the winners stay and the losers go
to the bottom table (option "wrap": the top table's winners go to the bottom, its losers stay).
At every table the two who stay and the two who arrive split up: each sits with a new partner
(stayers N and E, arrivers S and W, so N-S and E-W are each one stayer and one arriver). A set of
an even number of deals can end level: the pair that won the set's last deal counts as winner.
Fixed movement (an option some clubs prefer): N-S stay; E-W move up one table (table 1's to the
bottom table); partners do not change.

Everything is derived from the set-up and the N-S trick counts entered per deal and table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scorepad.rules.base import RuleError, RuleErrors
from scorepad.rules.cards import Trump
from scorepad.rules.errors import M, Message
from scorepad.rules.whist import SEQUENCE, SEQUENCE_WITH_NT

TRICKS = 13
# The most players: 64 tables, as Military Whist and club nights. A village hall seats a few dozen
# players; a form can carry some 10,000 names, and each table's entry works the whole drive out
# again: about 0.1 s at 64 tables, 0.3 to 0.6 s at 500 (measured on a 2-core machine).
MAX_PLAYERS = 256
SEATS = (M("North"), M("East"), M("South"), M("West"))
_TRUMP_WORDS = {
    Trump.HEARTS: M("hearts"),
    Trump.DIAMONDS: M("diamonds"),
    Trump.SPADES: M("spades"),
    Trump.CLUBS: M("clubs"),
    Trump.NO_TRUMPS: M("no trumps"),
}


@dataclass(frozen=True)
class Drive:
    """The set-up: players (numbered from 1 in this order), deals, and the options."""

    players: tuple[str, ...]
    deals: int = 24
    per_change: int = 1  # deals played before each change of places
    scoring: str = "odd"  # "odd": odd tricks of the side; "all": every trick of the side
    nt_fifth: bool = False
    movement: str = "progressive"  # or "fixed"
    top: str = "stay"  # progressive: the top table's winners "stay" or "wrap" to the bottom

    @property
    def tables(self) -> int:
        return len(self.players) // 4


def check(drive: Drive) -> None:
    """A clear message for every set-up problem."""
    errors: list[RuleError] = []
    count = len(drive.players)
    if count < 8 or count % 4:
        errors.append(
            RuleError(
                "players",
                M(
                    "a whist drive seats four players to a table: give a multiple of four "
                    "players, at least 8 (%(count)s given)",
                    count=count,
                ),
            )
        )
    elif count > MAX_PLAYERS:
        errors.append(
            RuleError(
                "players",
                M(
                    "a whist drive has at most %(most)s players (%(tables)s tables), not %(count)s",
                    most=MAX_PLAYERS,
                    tables=MAX_PLAYERS // 4,
                    count=count,
                ),
            )
        )
    if len({p.casefold() for p in drive.players}) != count:
        errors.append(RuleError("players", M("two players have the same name: give each their own")))
    if not 1 <= drive.deals <= 60:
        errors.append(RuleError("deals", M("play 1 to 60 deals (24 is usual)")))
    if drive.per_change not in (1, 2, 3, 4):
        errors.append(RuleError("per_change", M("places change after every 1, 2, 3 or 4 deals")))
    if drive.scoring not in ("odd", "all"):
        errors.append(RuleError("scoring", M("score odd tricks or all tricks")))
    if drive.movement not in ("progressive", "fixed"):
        errors.append(RuleError("movement", M("the movement is progressive or fixed")))
    if drive.top not in ("stay", "wrap"):
        errors.append(RuleError("top", M("the top table's winners stay or wrap to the bottom")))
    if errors:
        raise RuleErrors(errors)


def trump(drive: Drive, deal: int) -> Trump:
    """Hearts, diamonds, spades, clubs in turn (no trumps every fifth deal when chosen)."""
    cycle = SEQUENCE_WITH_NT if drive.nt_fifth else SEQUENCE
    return cycle[(deal - 1) % len(cycle)]


def trump_words(drive: Drive, deal: int) -> str:
    t = trump(drive, deal)
    return _TRUMP_WORDS.get(t) or t.label.lower()


Seating = tuple[tuple[int, int, int, int], ...]  # per table (from 1): players at N, E, S, W


def first_seating(drive: Drive) -> Seating:
    """Players 1-4 at table 1 (N, E, S, W), 5-8 at table 2, and so on."""
    return tuple((4 * t + 1, 4 * t + 2, 4 * t + 3, 4 * t + 4) for t in range(drive.tables))


def _winners(ns: Sequence[int]) -> int:
    """0 when N-S won the set (more tricks; level: the set's last deal), else 1."""
    total = sum(ns)
    other = TRICKS * len(ns) - total
    if total != other:
        return 0 if total > other else 1
    return 0 if ns[-1] > TRICKS - ns[-1] else 1


def move(drive: Drive, seating: Seating, ns: Sequence[Sequence[int]]) -> Seating:
    """The seating after a change point, from each table's N-S tricks over the set just played."""
    count = len(seating)
    if drive.movement == "fixed":
        return tuple(
            (seating[t][0], seating[(t + 1) % count][1], seating[t][2], seating[(t + 1) % count][3])
            for t in range(count)
        )
    pairs = []
    for t, (n, e, s, w) in enumerate(seating):
        won = _winners(ns[t])
        pairs.append(((n, s), (e, w)) if won == 0 else ((e, w), (n, s)))  # (winners, losers)
    stay: list[tuple[int, int]] = [(0, 0)] * count
    arrive: list[tuple[int, int]] = [(0, 0)] * count
    for t, (winners, losers) in enumerate(pairs):
        if t == 0 and drive.top == "stay":
            stay[0] = winners
            arrive[count - 1] = losers
        elif t == 0:
            stay[0] = losers
            arrive[count - 1] = winners
        else:
            stay[t] = losers
            arrive[t - 1] = winners
    return tuple((stay[t][0], stay[t][1], arrive[t][0], arrive[t][1]) for t in range(count))


@dataclass(frozen=True)
class State:
    """Where the drive stands after the results entered so far."""

    deal: int  # the deal in play (deals + 1 when the drive is over)
    seatings: tuple[Seating, ...]  # the seating of every deal up to the one in play
    playing: tuple[int, ...]  # tables still to enter the deal in play
    scores: tuple[int, ...]  # per player (index = number - 1)
    over: bool

    def seating(self, deal: int) -> Seating:
        return self.seatings[deal - 1]


def check_result(drive: Drive, results: Mapping[tuple[int, int], int], deal: int, table: int, ns: int) -> None:
    """A table's result for a deal: tricks 0-13, a table that exists, the deal in play."""
    if not 1 <= table <= drive.tables:
        raise RuleErrors(
            [
                RuleError(
                    "table",
                    M("there is no table %(table)s: tables are 1 to %(tables)s", table=table, tables=drive.tables),
                )
            ]
        )
    if not 0 <= ns <= TRICKS:
        raise RuleErrors([RuleError("tricks", M("tap the tricks North-South took: 0 to 13"))])
    current = state(drive, results)
    if current.over:
        raise RuleErrors([RuleError("deal", M("the drive is over: every deal is in"))])
    if deal != current.deal:
        raise RuleErrors(
            [RuleError("deal", M("deal %(deal)s is not in play: deal %(current)s is", deal=deal, current=current.deal))]
        )


def state(
    drive: Drive, results: Mapping[tuple[int, int], int], announced: Mapping[int, Seating] | None = None
) -> State:
    """Replay the deals in order: seatings, the deal in play, tables still playing, each player's score.

    `announced` holds the seatings already given to the players (deal -> seating): a correction to
    an earlier deal re-scores it, but it cannot move people who have already moved and played.
    """
    announced = announced or {}
    seating = announced.get(1, first_seating(drive))
    seatings = [seating]
    scores = [0] * len(drive.players)
    deal = 1
    while deal <= drive.deals:
        missing = tuple(t + 1 for t in range(drive.tables) if (deal, t + 1) not in results)
        if missing:
            return State(deal, tuple(seatings), missing, tuple(scores), False)
        for t, (n, e, s, w) in enumerate(seating):
            ns = results[(deal, t + 1)]
            for player, took in ((n, ns), (s, ns), (e, TRICKS - ns), (w, TRICKS - ns)):
                scores[player - 1] += took if drive.scoring == "all" else max(0, took - 6)
        if deal % drive.per_change == 0 and deal < drive.deals:
            first = deal - drive.per_change + 1
            sets = [[results[(d, t + 1)] for d in range(first, deal + 1)] for t in range(drive.tables)]
            seating = announced.get(deal + 1) or move(drive, seating, sets)
        seatings.append(seating)
        deal += 1
    return State(deal, tuple(seatings[: drive.deals]), (), tuple(scores), True)


@dataclass(frozen=True)
class Place:
    rank: int
    tied: bool
    number: int
    name: str
    score: int


def leaderboard(drive: Drive, scores: Sequence[int]) -> tuple[Place, ...]:
    """Individuals, highest score first; equal scores share a rank."""
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    counts = Counter(scores)
    places: list[Place] = []
    for position, i in enumerate(order):
        rank = places[-1].rank if places and places[-1].score == scores[i] else position + 1
        places.append(Place(rank, counts[scores[i]] > 1, i + 1, drive.players[i], scores[i]))
    return tuple(places)


def prizes(board: Sequence[Place]) -> tuple[tuple[Message, tuple[Place, ...]], ...]:
    """Highest score and, by tradition, lowest (the booby prize); a tie shares the prize."""
    if not board:
        return ()
    high = tuple(p for p in board if p.score == board[0].score)
    low = tuple(p for p in board if p.score == board[-1].score)
    return ((M("Highest score"), high), (M("Booby prize (lowest score)"), low))


def where_words(drive: Drive, before: Seating, after: Seating) -> tuple[str, ...]:
    """Each player's words at a change of places: "Ann: move up to table 2, sit East"."""
    was = {p: (t + 1, seat) for t, four in enumerate(before) for seat, p in enumerate(four)}
    lines: list[tuple[int, str]] = []
    for t, four in enumerate(after):
        for seat, p in enumerate(four):
            old = was[p][0]
            name = drive.players[p - 1]
            if old == t + 1:
                words = M("%(name)s: stay at table %(table)s, sit %(seat)s", name=name, table=t + 1, seat=SEATS[seat])
            elif t + 1 == old - 1:
                words = M(
                    "%(name)s: move up to table %(table)s, sit %(seat)s", name=name, table=t + 1, seat=SEATS[seat]
                )
            else:
                words = M("%(name)s: go to table %(table)s, sit %(seat)s", name=name, table=t + 1, seat=SEATS[seat])
            lines.append((p, words))
    return tuple(line for _, line in sorted(lines))


def table_words(drive: Drive, deal: int, four: tuple[int, int, int, int]) -> str:
    """ "Deal 5 · hearts · N Ann, S Bob / E Cat, W Dan"."""
    n, e, s, w = (drive.players[p - 1] for p in four)
    return M(
        "Deal %(deal)s · %(trump)s · N %(n)s, S %(s)s / E %(e)s, W %(w)s",
        deal=deal,
        trump=trump_words(drive, deal),
        n=n,
        s=s,
        e=e,
        w=w,
    )
