"""The Bid Whist tournament of the Detroit Senior Olympics document, as pure functions.

From what was entered (the registered team numbers, the event's draw seed, each match's points
and winner, the director's decisions) this derives: each preliminary round's draw ("team numbers
will be randomly drawn 2 at a time"), with no repeat opponents and a bye against a ghost team
when the count is odd; the tables and who stays or moves ("one team will stay at the table and
the rotating team will move forward"); the standings (rounds won, then total points, then a
one-game playoff at the cut); the playoff size (16; 32 from 64 teams; 64 from 128); the seeded
single-elimination bracket (1-16, 2-15, ...) with a final and a match for third place; the medals.

Decisions where the document is silent (also in docs/formats.md):
- The bye: the team drawn last when the count is odd plays the ghost team (tournament officials,
  whose points count for nothing). Its own round counts for it as any round does. Byes rotate:
  a team that has had a bye is not drawn for one while another team has had none.
- Moves: as many matches as possible stay at a table where one of their teams sat last round;
  that team stays in its seat (N/S or E/W) and its opponent moves there.
- Bracket tables: a match is played at the table of the earlier match that fed it (the winner
  of the lower-numbered one stays); the third-place match at the other semi-final's table.
- Rounds against teams: every round is drawn at the start (`check_rounds`), so a number of
  rounds the teams cannot play without a repeat opponent is refused before anyone sits down.
- Walkover: a no-show with nobody to swap in sends the team present through (`check_walkover`).
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from scorepad.rules.base import RuleError, RuleErrors
from scorepad.rules.errors import M

GHOST = 0


@dataclass(frozen=True)
class Seat:
    """A match at a table: `home` sits N/S, `away` E/W (GHOST for the ghost team)."""

    table: int
    home: int
    away: int


@dataclass(frozen=True)
class Draw:
    """One preliminary round: the numbers in the order drawn, and each match's table and seats."""

    round: int
    order: tuple[int, ...]
    seats: tuple[Seat, ...]

    def words(self) -> str:
        return M("drawn in this order: %(order)s", order=", ".join(str(n) for n in self.order))


@dataclass(frozen=True)
class Result:
    """A final sheet: the two teams, their points and the winner (0 home, 1 away)."""

    home: int
    away: int
    points: tuple[int, int]
    winner: int

    @property
    def winning_team(self) -> int:
        return self.home if self.winner == 0 else self.away

    @property
    def losing_team(self) -> int:
        return self.away if self.winner == 0 else self.home


# --------------------------------------------------------------------------- the draw


def _pairings(order: list[int], earlier: set[frozenset[int]]) -> list[tuple[int, int]] | None:
    """Pair the numbers two at a time in drawing order, skipping repeat opponents (backtracking)."""
    if not order:
        return []
    first, rest = order[0], order[1:]
    for i, other in enumerate(rest):
        if frozenset((first, other)) in earlier:
            continue
        tail = _pairings(rest[:i] + rest[i + 1 :], earlier)
        if tail is not None:
            return [(first, other), *tail]
    return None


def draw_round(teams: Sequence[int], seed: str, number: int, before: Sequence[Draw]) -> Draw:
    """Round `number`'s draw: reproducible from the seed, no repeat opponents, byes rotating."""
    if len(set(teams)) != len(teams) or GHOST in teams:
        raise RuleErrors([RuleError("teams", M("team numbers are distinct and start at 1"))])
    if len(teams) < 2:
        raise RuleErrors([RuleError("teams", M("a tournament needs at least two teams"))])
    met = {frozenset((s.home, s.away)) for d in before for s in d.seats}
    byes = Counter(n for d in before for s in d.seats for n in (s.home, s.away) if GHOST in (s.home, s.away))
    rng = random.Random(f"{seed}:round:{number}")
    for _attempt in range(200):
        order = sorted(teams)
        rng.shuffle(order)
        pool = list(order)
        ghost_for: int | None = None
        if len(pool) % 2:
            fewest = min(byes[n] for n in pool)
            candidates = [n for n in reversed(pool) if byes[n] == fewest and frozenset((n, GHOST)) not in met]
            if not candidates:
                candidates = [n for n in reversed(pool) if byes[n] == fewest]
            ghost_for = candidates[0]
            pool.remove(ghost_for)
        pairs = _pairings(pool, met)
        if pairs is not None:
            if ghost_for is not None:
                pairs.append((ghost_for, GHOST))
            seats = _seat(pairs, before[-1] if before else None)
            drawn = tuple(n for pair in pairs for n in pair if n != GHOST)
            return Draw(number, drawn, seats)
    raise RuleErrors(
        [
            RuleError(
                "draw",
                M(
                    "round %(number)s cannot be drawn without a repeat opponent: every pairing left has already played",
                    number=number,
                ),
            )
        ]
    )


def _seat(pairs: list[tuple[int, int]], last: Draw | None) -> tuple[Seat, ...]:
    """Tables for the pairs: round 1 in drawing order; later, as many matches as possible stay."""
    count = len(pairs)
    if last is None:
        return tuple(Seat(i + 1, a, b) for i, (a, b) in enumerate(pairs))
    where = {n: (s.table, side) for s in last.seats for side, n in enumerate((s.home, s.away)) if n != GHOST}
    options = [[where[n][0] for n in pair if n in where and where[n][0] <= count] for pair in pairs]
    table_of: dict[int, int] = {}  # table -> pair index (Kuhn's augmenting paths: most pairs stay)

    def place(i: int, seen: set[int]) -> bool:
        for t in options[i]:
            if t in seen:
                continue
            seen.add(t)
            if t not in table_of or place(table_of[t], seen):
                table_of[t] = i
                return True
        return False

    for i in range(count):
        place(i, set())
    free = iter(sorted(set(range(1, count + 1)) - set(table_of)))
    placed = {i: t for t, i in table_of.items()}
    seats: list[Seat] = []
    for i, (a, b) in enumerate(pairs):
        table = placed.get(i) or next(free)
        stayer = next((n for n in (a, b) if where.get(n, (0, 0))[0] == table), None)
        if stayer is not None and where[stayer][1] == 1:  # the stayer sat E/W: it keeps that seat
            home, away = (b, a) if stayer == a else (a, b)
        elif stayer is not None:
            home, away = (a, b) if stayer == a else (b, a)
        else:
            home, away = a, b
        seats.append(Seat(table, home, away))
    return tuple(sorted(seats, key=lambda s: s.table))


def draws(teams: Sequence[int], seed: str, rounds: int) -> tuple[Draw, ...]:
    """Rounds 1..`rounds`, each drawn knowing the earlier ones.

    Kept for the last few arguments: every board of the tournament draws them again (a sixth of a
    warm board of 128 teams), and they depend on nothing else (the draws are frozen)."""
    return _draws(tuple(teams), seed, rounds)


@lru_cache(maxsize=64)
def _draws(teams: tuple[int, ...], seed: str, rounds: int) -> tuple[Draw, ...]:
    made: list[Draw] = []
    for number in range(1, rounds + 1):
        made.append(draw_round(teams, seed, number, made))
    return tuple(made)


def check_rounds(teams: Sequence[int], seed: str, rounds: int) -> tuple[Draw, ...]:
    """Every preliminary round drawn at the start: the draws depend only on the teams and the seed,
    so a round that could not be drawn later (too few teams to meet someone new) is refused now."""
    made: list[Draw] = []
    for number in range(1, rounds + 1):
        try:
            made.append(draw_round(teams, seed, number, made))
        except RuleErrors:
            most = len(made)
            words = dict(teams=len(teams), rounds=rounds, most=most)
            raise RuleErrors(
                [
                    RuleError(
                        "rounds",
                        M(
                            "%(teams)s teams cannot play %(rounds)s preliminary rounds "
                            "without meeting an opponent twice: at most 1 round can be "
                            "drawn. Lower the number of rounds, or register more teams",
                            **words,
                        )
                        if most == 1
                        else M(
                            "%(teams)s teams cannot play %(rounds)s preliminary rounds without "
                            "meeting an opponent twice: at most %(most)s rounds can be drawn. Lower "
                            "the number of rounds, or register more teams",
                            **words,
                        ),
                    )
                ]
            ) from None
    return tuple(made)


NORTH_SOUTH, EAST_WEST = M("N/S"), M("E/W")  # the home and visiting teams' seats


def moves(last: Draw, nxt: Draw, names: Mapping[int, str]) -> tuple[str, ...]:
    """Each team's words for the next round: stay at table 3 (N/S), or move from 3 to 5, sit E/W."""
    before = {n: s.table for s in last.seats for n in (s.home, s.away) if n != GHOST}
    lines: list[tuple[int, str]] = []
    for s in nxt.seats:
        for n, seat in ((s.home, NORTH_SOUTH), (s.away, EAST_WEST)):
            if n == GHOST:
                continue
            name = names.get(n, M("Team %(number)s", number=n))
            if before.get(n) == s.table:
                lines.append((n, M("%(team)s: stay at table %(table)s, %(side)s", team=name, table=s.table, side=seat)))
            elif n in before:
                lines.append(
                    (
                        n,
                        M(
                            "%(team)s: move from table %(before)s to table %(table)s, sit %(side)s",
                            team=name,
                            before=before[n],
                            table=s.table,
                            side=seat,
                        ),
                    )
                )
            else:
                lines.append(
                    (n, M("%(team)s: go to table %(table)s, sit %(side)s", team=name, table=s.table, side=seat))
                )
    return tuple(line for _, line in sorted(lines))


# --------------------------------------------------------------------------- standings and the cut


@dataclass(frozen=True)
class Standing:
    """A team's line: rounds won first, then total points; equal on both is a tie (shared rank),
    listed (and so seeded) in the order `tie_break` says: "match", "lot" or "match, lot"."""

    number: int
    rounds_won: int
    points: int
    played: int
    rank: int
    tied: bool
    tie_break: str = ""


def _lot(seed: str, number: int) -> str:
    """A team's place in the draw by lot between tied teams: reproducible from the event's seed."""
    return hashlib.sha256(f"{seed}:tie:{number}".encode()).hexdigest()


def standings(teams: Sequence[int], results: Sequence[Result], seed: str = "") -> tuple[Standing, ...]:
    """Rounds won, then total points (the document's order); the ghost is never ranked.

    The document breaks no tie but the one at the cut (a one-game playoff, `cut`); teams still tied
    are seeded 6 and 7 in some order all the same. Ours, said on screen: the rounds they won against
    each other, then a lot drawn from the event's seed (anyone can draw it again)."""
    won = Counter(r.winning_team for r in results)
    points: Counter[int] = Counter()
    played: Counter[int] = Counter()
    for r in results:
        for side, n in enumerate((r.home, r.away)):
            points[n] += r.points[side]
            played[n] += 1
    keys = {n: (won[n], points[n]) for n in teams}
    groups: dict[tuple[int, int], list[int]] = {}
    for n in teams:
        groups.setdefault(keys[n], []).append(n)
    between: Counter[int] = Counter()
    how: dict[int, str] = {}
    for group in groups.values():
        if len(group) < 2:
            continue
        inside = set(group)
        for r in results:
            if r.home in inside and r.away in inside:
                between[r.winning_team] += 1
        counts = [between[n] for n in group]
        word = "lot" if len(set(counts)) == 1 else "match" if len(set(counts)) == len(counts) else "match, lot"
        how.update(dict.fromkeys(group, word))
    order = sorted(teams, key=lambda n: (-keys[n][0], -keys[n][1], -between[n], _lot(seed, n) if seed else "", n))
    rows: list[Standing] = []
    for i, n in enumerate(order):
        rank = rows[-1].rank if rows and keys[rows[-1].number] == keys[n] else i + 1
        rows.append(Standing(n, won[n], points[n], played[n], rank, n in how, how.get(n, "")))
    return tuple(rows)


def playoff_size(teams: int, choice: str = "auto") -> int:
    """The bracket's size: the document's 16 (32 from 64 teams, 64 from 128), or the director's
    smaller choice; never more than the teams there are (a power of two, at least 2)."""
    cap = 64 if teams >= 128 else 32 if teams >= 64 else 16
    if choice != "auto":
        cap = min(cap, int(choice))
    size = 2
    while size * 2 <= min(cap, teams):
        size *= 2
    return size


@dataclass(frozen=True)
class Cut:
    """Who is in the bracket, in seed order, and the playoff still needed at the last place(s)."""

    size: int
    seeds: tuple[int, ...]  # complete only when `playoff` is None
    playoff: tuple[int, ...]  # teams tied across the cut on rounds won and points
    places: int  # how many of `playoff` go through


def cut(rows: Sequence[Standing], size: int, playoff_winners: Sequence[int] = ()) -> Cut:
    """The top `size` teams; a tie across the cut needs a one-game playoff, whose winners go through."""
    if len(rows) <= size:
        return Cut(size, tuple(r.number for r in rows), (), 0)
    boundary = rows[size - 1]
    key = (boundary.rounds_won, boundary.points)
    tied = [r.number for r in rows if (r.rounds_won, r.points) == key]
    above = [r.number for r in rows[:size] if (r.rounds_won, r.points) != key]
    places = size - len(above)
    if len(tied) <= places:
        return Cut(size, tuple(r.number for r in rows[:size]), (), 0)
    winners = [n for n in playoff_winners if n in tied]
    if len(winners) != places:
        return Cut(size, tuple(above), tuple(sorted(tied)), places)  # by number: the playoff ranks them
    return Cut(size, (*above, *[n for n in tied if n in winners]), (), 0)


def check_playoff(c: Cut, winners: Sequence[int]) -> None:
    """The playoff's winners: exactly `places` of the tied teams."""
    if not c.playoff:
        raise RuleErrors([RuleError("cut", M("no playoff is needed: the cut is clear"))])
    if len(set(winners)) != c.places or any(n not in c.playoff for n in winners):
        tied = ", ".join(str(n) for n in c.playoff)
        raise RuleErrors(
            [
                RuleError(
                    "cut",
                    M(
                        "choose %(count)s of the tied teams (%(teams)s) as the playoff's winners",
                        count=c.places,
                        teams=tied,
                    )
                    if c.places > 1
                    else M("choose 1 of the tied teams (%(teams)s) as the playoff's winner", teams=tied),
                )
            ]
        )


# --------------------------------------------------------------------------- the bracket


def seed_order(size: int) -> tuple[int, ...]:
    """Seeds in bracket order: 1 v size, ...; seeds 1 and 2 can meet only in the final."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for o in order for s in (o, total - o)]
    return tuple(order)


LEVEL_NAMES = {
    64: M("Round of 64"),
    32: M("Round of 32"),
    16: M("Sweet 16"),
    8: M("Elite 8"),
    4: M("Final Four"),
    2: M("Final"),
}  # Messages: their English is what the code compares ("Final", "Third place")
THIRD_PLACE = M("Third place")


@dataclass(frozen=True)
class Match:
    """A bracket match: its teams (None until known), result, table and words."""

    number: int
    level: str
    teams: tuple[int | None, int | None]
    seeds: tuple[int | None, int | None]
    table: int
    winner: int | None  # the winning team's number
    feeds: tuple[int, int] | None  # the matches whose winners (losers for third place) play here

    @property
    def ready(self) -> bool:
        return self.winner is None and None not in self.teams


@dataclass(frozen=True)
class Swap:
    """The director put `into` in `out`'s place in match `match` (a no-show), for `reason`."""

    match: int
    out: int
    into: int
    reason: str


@dataclass(frozen=True)
class Bracket:
    size: int
    matches: tuple[Match, ...]

    def levels(self) -> tuple[tuple[str, tuple[Match, ...]], ...]:
        names: list[str] = []
        for m in self.matches:
            if m.level not in names:
                names.append(m.level)
        return tuple((n, tuple(m for m in self.matches if m.level == n)) for n in names)

    def match(self, number: int) -> Match:
        return self.matches[number - 1]

    def name(self, number: int) -> str:
        """Match `number`'s name on every page (control room, table, projector, print, audit): its
        level, with its place in the level when the level has more than one ("Final Four · match 1"),
        never the bracket's running number (the Final Four's first match is number 13 of 16)."""
        level = self.match(number).level
        same = [m.number for m in self.matches if m.level == level]
        if len(same) == 1:
            return level
        return M("%(level)s · match %(number)s", level=level, number=same.index(number) + 1)

    def dependants(self, number: int) -> tuple[int, ...]:
        """Matches that take a team from match `number`, directly or further on."""
        found: list[int] = []
        for m in self.matches:
            if m.feeds and (number in m.feeds or any(f in found for f in m.feeds)):
                found.append(m.number)
        return tuple(found)

    def medals(self) -> tuple[tuple[str, int], ...]:
        """Gold and silver from the final, bronze from the match for third place, once played."""
        final = next((m for m in self.matches if m.level == "Final"), None)
        third = next((m for m in self.matches if m.level == "Third place"), None)
        if final is None or final.winner is None or (third is not None and third.winner is None):
            return ()
        silver = final.teams[1] if final.teams[0] == final.winner else final.teams[0]
        won = [("Gold", final.winner)]
        if silver is not None:
            won.append(("Silver", silver))
        if third is not None and third.winner is not None:
            won.append(("Bronze", third.winner))
        return tuple(won)


def bracket(seeds: Sequence[int], winners: Mapping[int, int], swaps: Sequence[Swap] = ()) -> Bracket:
    """The whole bracket from the seeded teams, the winners entered so far and the swaps made."""
    size = len(seeds)
    if size < 2 or size & (size - 1):
        raise RuleErrors(
            [RuleError("bracket", M("a bracket holds 2, 4, 8, 16, 32 or 64 teams, not %(count)s", count=size))]
        )
    by_seed = {i + 1: n for i, n in enumerate(seeds)}
    order = seed_order(size)
    made: list[Match] = []
    swapped: dict[int, list[Swap]] = {}
    for s in swaps:
        swapped.setdefault(s.match, []).append(s)

    def add(
        level: str,
        teams: list[int | None],
        seeds_: tuple[int | None, int | None],
        table: int,
        feeds: tuple[int, int] | None,
    ) -> None:
        number = len(made) + 1
        for s in swapped.get(number, []):
            teams = [s.into if t == s.out else t for t in teams]
        win = winners.get(number)
        made.append(Match(number, level, (teams[0], teams[1]), seeds_, table, win if win in teams else None, feeds))

    for i in range(size // 2):
        a, b = order[2 * i], order[2 * i + 1]
        add(LEVEL_NAMES.get(size, M("Round of %(count)s", count=size)), [by_seed[a], by_seed[b]], (a, b), i + 1, None)
    level_start, count = 0, size // 2
    semis: tuple[int, int] | None = None
    while count > 1:
        for i in range(count // 2):
            f1, f2 = made[level_start + 2 * i], made[level_start + 2 * i + 1]
            add(
                LEVEL_NAMES[count],
                [f1.winner, f2.winner],
                (_seed_of(f1), _seed_of(f2)),
                f1.table,
                (f1.number, f2.number),
            )
        if count == 2:
            semis = (made[level_start].number, made[level_start + 1].number)
        level_start += count
        count //= 2
    if semis is not None:
        s1, s2 = made[semis[0] - 1], made[semis[1] - 1]
        add(THIRD_PLACE, [_loser(s1), _loser(s2)], (None, None), s2.table, semis)
    return Bracket(size, tuple(made))


def match_name(size: int, number: int) -> str:
    """`Bracket.name` from the bracket's size alone: its levels do not depend on who plays."""
    return bracket(range(1, size + 1), {}).name(number)


def _seed_of(m: Match) -> int | None:
    if m.winner is None:
        return None
    return m.seeds[m.teams.index(m.winner)]


def _loser(m: Match) -> int | None:
    if m.winner is None:
        return None
    return m.teams[1] if m.teams[0] == m.winner else m.teams[0]


def check_walkover(b: Bracket, match: int, winner: int) -> None:
    """A walkover (the other team did not come): a match whose two teams are known, not yet won,
    and a winner who is one of them."""
    if not 1 <= match <= len(b.matches):
        raise RuleErrors([RuleError("walkover", M("there is no bracket match %(number)s", number=match))])
    m = b.match(match)
    if m.winner is not None:
        raise RuleErrors(
            [RuleError("walkover", M("match %(number)s has been decided: its result cannot change", number=match))]
        )
    if None in m.teams:
        raise RuleErrors([RuleError("walkover", M("match %(number)s's teams are not known yet", number=match))])
    if winner not in m.teams:
        raise RuleErrors(
            [RuleError("walkover", M("team %(team)s is not in match %(number)s", team=winner, number=match))]
        )


def check_swap(b: Bracket, swap: Swap) -> None:
    """A swap before the match is played, of a team in it, by a team not in the bracket."""
    if not 1 <= swap.match <= len(b.matches):
        raise RuleErrors([RuleError("swap", M("there is no bracket match %(number)s", number=swap.match))])
    m = b.match(swap.match)
    if m.winner is not None:
        raise RuleErrors(
            [RuleError("swap", M("match %(number)s has been played: its teams cannot change", number=swap.match))]
        )
    if swap.out not in m.teams:
        raise RuleErrors(
            [RuleError("swap", M("team %(team)s is not in match %(number)s", team=swap.out, number=swap.match))]
        )
    if any(swap.into in x.teams for x in b.matches):
        raise RuleErrors([RuleError("swap", M("team %(team)s is already in the bracket", team=swap.into))])
