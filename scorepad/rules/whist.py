"""Classic Whist: two fixed partnerships, no bidding, one point per odd trick.

Two ways to play are scored here. *Game play*: points count towards a game target (5 British,
7 American, 9 Long Whist), optionally with honours and as a rubber of best of three games; a
won game resets both sides to 0. *Whist drive*: a fixed number of deals with no target, each
side adding up its odd tricks (or, as many drives do, all its tricks).

A hand is entered as {"tricks": [us, them], "trump": "H", "honours": [us, them]}; see
docs/game-record.md (Whist). Everything else (points, games, the rubber) is derived.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from scorepad.rules.base import (
    Cell,
    Choice,
    ErrorCollector,
    FactSpec,
    GameState,
    Line,
    Options,
    OptionSpec,
    RawHand,
    RoundKind,
    RoundSpec,
    RuleError,
    RuleErrors,
    Scoreboard,
    ScoreSheet,
    Setup,
    StatsFacts,
    derived_once,
    foot_of_sheet,
    key_field,
    leaders,
    quoted,
    rank,
)
from scorepad.rules.cards import SUITS, Trump, parse_trump
from scorepad.rules.errors import M, Message, joined

TRICKS = 13
BOOK = 6  # tricks above the book are "odd tricks"
HONOURS = 4  # A K Q J of trumps
SEQUENCE = (Trump.HEARTS, Trump.DIAMONDS, Trump.SPADES, Trump.CLUBS)
SEQUENCE_WITH_NT = SEQUENCE + (Trump.NO_TRUMPS,)
HAND_KEYS = ("tricks", "trump", "honours")


def _drive(options: Options) -> bool:
    """A fixed number of deals (a whist drive): no game, no rubber, no honours."""
    return options.get_int("deals") > 0


OPTION_SPECS = (
    OptionSpec(
        "target",
        M("Points for game"),
        5,
        minimum=1,
        maximum=99,
        matters=lambda o: not _drive(o),
        help=M(
            "A side wins a game when it reaches this many points: 5 is the British game, 7 the American, 9 Long Whist."
        ),
    ),
    OptionSpec(
        "honours",
        M("Score honours"),
        False,
        matters=lambda o: not _drive(o),
        help=M(
            "The side that held all four of A K Q J of trumps scores 4, three of them 2; a side "
            "one point short of game cannot score honours, and tricks are scored first."
        ),
    ),
    OptionSpec(
        "rubber",
        M("Play a rubber"),
        True,
        matters=lambda o: not _drive(o),
        help=M("Best of three games: the first side to win two games wins the rubber. Off: a single game decides."),
    ),
    OptionSpec(
        "trumps",
        M("Trumps"),
        "turned",
        choices=(
            Choice("turned", M("Turned up: the dealer's last card, entered each deal")),
            Choice("sequence", M("Fixed sequence: hearts, diamonds, spades, clubs")),
        ),
        help=M("How each deal's trump suit is chosen; the fixed sequence is the whist-drive way."),
    ),
    OptionSpec(
        "no_trump_fifth",
        M("No trumps every fifth deal"),
        False,
        matters=lambda o: o.get_str("trumps") == "sequence",
        help=M(
            "With the fixed sequence, every fifth deal (5, 10, 15, ...) is played without trumps, so without honours."
        ),
    ),
    OptionSpec(
        "deals",
        M("Fixed number of deals (whist drive)"),
        0,
        minimum=0,
        maximum=200,
        matters=lambda o: _drive(o),
        help=M(
            "0 plays to game (or rubber). A number plays exactly that many deals, as at a whist "
            "drive: no game target, each side adds up its score over the deals."
        ),
    ),
    OptionSpec(
        "drive_scoring",
        M("Whist drive scoring"),
        "odd",
        matters=lambda o: _drive(o),
        choices=(
            Choice("odd", M("Odd tricks (tricks above six)")),
            Choice("all", M("All tricks taken (13 a deal, shared)")),
        ),
        help=M(
            "What a side scores each deal of a whist drive: its odd tricks (the rule of the "
            "document) or every trick it took."
        ),
    ),
)


@dataclass(frozen=True)
class Rules:
    """The options of one game, read once into plain fields."""

    target: int
    honours: bool
    rubber: bool
    sequence: bool
    nt_fifth: bool
    deals: int
    drive_all: bool

    @property
    def drive(self) -> bool:
        return self.deals > 0

    @classmethod
    def of(cls, setup: Setup) -> Rules:
        o = setup.options
        return cls(
            o.get_int("target"),
            o.get_bool("honours"),
            o.get_bool("rubber"),
            o.get_str("trumps") == "sequence",
            o.get_bool("no_trump_fifth"),
            o.get_int("deals"),
            o.get_str("drive_scoring") == "all",
        )


@dataclass(frozen=True)
class WhistHand:
    """One deal as entered and checked: tricks per side, the trump, honours held per side."""

    tricks: tuple[int, int]
    trump: Trump
    honours: tuple[int, int] | None = None

    @property
    def trick_side(self) -> int:
        """The side that took more tricks (13 is odd, so there always is one)."""
        return 0 if self.tricks[0] > BOOK else 1

    @property
    def odd_tricks(self) -> int:
        return self.tricks[self.trick_side] - BOOK


@dataclass(frozen=True)
class PendingHand:
    """A partly entered hand: what is known so far (None = not entered yet)."""

    tricks: tuple[int | None, int | None]
    trump: Trump | None
    honours: tuple[int | None, int | None] | None


# --------------------------------------------------------------------------- set-up


def seat_names(setup: Setup) -> tuple[str, str, str, str]:
    """Players round the table: team 0's first, team 1's first, team 0's second, team 1's second."""
    pairs = [t.players if t.players else (f"{t.name} 1", f"{t.name} 2") for t in setup.teams]
    return pairs[0][0], pairs[1][0], pairs[0][1], pairs[1][1]


def _check_teams(setup: Setup, errors: ErrorCollector) -> None:
    if setup.players:
        errors.add(RuleError("players", M("Whist is played by two partnerships: give two teams, not players")))
    if len(setup.teams) != 2:
        errors.add(
            RuleError("teams", M("Whist needs exactly two teams (partnerships), not %(count)s", count=len(setup.teams)))
        )
        return
    for i, team in enumerate(setup.teams):
        if len(team.players) not in (0, 2):
            errors.add(
                RuleError(
                    f"teams.{i}.players",
                    M(
                        "%(team)s needs two player names (or none), not %(count)s",
                        team=team.name,
                        count=len(team.players),
                    ),
                )
            )
    if errors.errors:
        return
    if setup.teams[0].name.casefold() == setup.teams[1].name.casefold():
        errors.add(RuleError("teams", M("both teams have the same name; give each its own")))
    elif len({n.casefold() for n in seat_names(setup)}) < 4:
        errors.add(RuleError("teams", M("two players have the same name; give each their own")))


def _check_options(rules: Rules, errors: ErrorCollector) -> None:
    """Refuse option combinations that cannot mean anything, rather than silently ignoring them."""
    if rules.drive_all and not rules.drive:
        errors.add(
            RuleError(
                "options.drive_scoring", M("scoring all tricks is for a whist drive: set a fixed number of deals")
            )
        )
    if rules.nt_fifth and not rules.sequence:
        errors.add(
            RuleError(
                "options.no_trump_fifth",
                M(
                    "no trumps every fifth deal needs the fixed trump sequence; "
                    "a turned-up card always makes a trump suit"
                ),
            )
        )
    if rules.honours and rules.drive:
        errors.add(
            RuleError(
                "options.honours",
                M(
                    "honours are not scored at a whist drive (a fixed number of deals): "
                    "turn honours off or play to game"
                ),
            )
        )


# --------------------------------------------------------------------------- the schedule


def scheduled_trump(rules: Rules, number: int) -> Trump | None:
    """The fixed sequence H, D, S, C (then NT every fifth when opted); None when turned up."""
    if not rules.sequence:
        return None
    cycle = SEQUENCE_WITH_NT if rules.nt_fifth else SEQUENCE
    return cycle[(number - 1) % len(cycle)]


def _spec(setup: Setup, rules: Rules, number: int) -> RoundSpec:
    if number < 1:
        raise RuleError("hand", M("deals are numbered from 1"))
    if rules.drive and number > rules.deals:
        raise RuleError(
            "hand",
            M(
                "this whist drive has %(deals)s deals; deal %(number)s is one too many",
                deals=rules.deals,
                number=number,
            ),
        )
    seats = seat_names(setup)
    dealer = (setup.first_dealer + number - 1) % 4
    trump = scheduled_trump(rules, number)
    who = dict(dealer=seats[dealer], leader=seats[(dealer + 1) % 4])
    if trump is None:
        note = M("%(dealer)s deals, %(leader)s leads; the dealer's last card is turned up for trumps", **who)
    elif trump is Trump.NO_TRUMPS:
        note = M("%(dealer)s deals, %(leader)s leads; no trumps (every fifth deal)", **who)
    else:
        note = M("%(dealer)s deals, %(leader)s leads; %(trumps)s", trumps=_ARE_TRUMPS[trump], **who)
    kind = RoundKind.NO_TRUMPS if trump is Trump.NO_TRUMPS else RoundKind.NORMAL
    return RoundSpec(number, TRICKS, trump, dealer, None, kind, note)


# --------------------------------------------------------------------------- reading a hand


# Each suit's words in a sentence, whole (a language may say "hearts" another way there than in a title).
_ARE_TRUMPS = {
    Trump.HEARTS: M("hearts are trumps"),
    Trump.DIAMONDS: M("diamonds are trumps"),
    Trump.CLUBS: M("clubs are trumps"),
    Trump.SPADES: M("spades are trumps"),
}
_AS_TRUMPS = {
    Trump.HEARTS: M("hearts as trumps"),
    Trump.DIAMONDS: M("diamonds as trumps"),
    Trump.CLUBS: M("clubs as trumps"),
    Trump.SPADES: M("spades as trumps"),
    Trump.NO_TRUMPS: M("no trumps"),
}


def _trump_words(trump: Trump) -> Message:
    return _AS_TRUMPS[trump]


def _read_pair(
    raw: object, key: str, names: Sequence[str], maximum: int, each: str, partial: bool
) -> tuple[int | None, int | None]:
    """Two whole numbers 0..maximum, team 0's first; `each` ("tricks" or "honours") says what they count."""
    if not isinstance(raw, list):
        sides = dict(first=names[0], second=names[1])
        raise RuleError(
            key,
            M("give the tricks as a list of two numbers: %(first)s first, then %(second)s", **sides)
            if key == "tricks"
            else M("give the honours as a list of two numbers: %(first)s first, then %(second)s", **sides),
        )
    if len(raw) > 2 or (len(raw) < 2 and not partial):
        both: dict[str, object] = dict(first=names[0], second=names[1], count=len(raw))
        raise RuleError(
            key,
            (
                M("give the tricks of both sides (%(first)s and %(second)s), not 1 number", **both)
                if len(raw) == 1
                else M("give the tricks of both sides (%(first)s and %(second)s), not %(count)s numbers", **both)
            )
            if key == "tricks"
            else (
                M("give the honours of both sides (%(first)s and %(second)s), not 1 number", **both)
                if len(raw) == 1
                else M("give the honours of both sides (%(first)s and %(second)s), not %(count)s numbers", **both)
            ),
        )
    errors = ErrorCollector()
    values: list[int | None] = []
    for i, name in enumerate(names):
        item = raw[i] if i < len(raw) else None
        tricks = each == "tricks"
        if item is None and partial:
            values.append(None)
        elif isinstance(item, bool) or not isinstance(item, int):
            errors.add(
                RuleError(
                    f"{key}.{i}",
                    M("tricks taken by %(name)s must be a whole number", name=name)
                    if tricks
                    else M("honours held by %(name)s must be a whole number", name=name),
                )
            )
        elif not 0 <= item <= maximum:
            errors.add(
                RuleError(
                    f"{key}.{i}",
                    M("tricks taken by %(name)s must be between 0 and %(maximum)s", name=name, maximum=maximum)
                    if tricks
                    else M("honours held by %(name)s must be between 0 and %(maximum)s", name=name, maximum=maximum),
                )
            )
        else:
            values.append(item)
    errors.raise_if_any()
    return values[0], values[1]


def _read_tricks(raw: object, names: Sequence[str], partial: bool) -> tuple[int | None, int | None]:
    tricks = _read_pair(raw, "tricks", names, TRICKS, "tricks", partial)
    t0, t1 = tricks
    if t0 is not None and t1 is not None and t0 + t1 != TRICKS:
        raise RuleError(
            "tricks",
            M("the tricks add up to %(total)s but every deal has %(tricks)s tricks", total=t0 + t1, tricks=TRICKS),
        )
    return tricks


def _read_trump(raw: object, spec: RoundSpec, dealer: str, partial: bool) -> Trump | None:
    """Turned trumps must be entered; with the fixed sequence an entered trump must match it."""
    if spec.trump is not None:
        if raw is None:
            return spec.trump
        trump = parse_trump(raw, "trump", SEQUENCE_WITH_NT)
        if trump is not spec.trump:
            raise RuleError(
                "trump",
                M(
                    "deal %(number)s has %(scheduled)s by the fixed sequence, not %(given)s",
                    number=spec.number,
                    scheduled=_trump_words(spec.trump),
                    given=_trump_words(trump),
                ),
            )
        return trump
    if raw is None:
        if partial:
            return None
        raise RuleError(
            "trump", M("enter the trump suit turned up by %(dealer)s, the dealer: one of H, D, C, S", dealer=dealer)
        )
    return parse_trump(raw, "trump", SUITS)


def _read_honours(
    raw: object, rules: Rules, spec: RoundSpec, names: Sequence[str], partial: bool
) -> tuple[int | None, int | None] | None:
    """How many of A K Q J of trumps each side held: four in all, so only one side holds 3 or 4."""
    if raw is None:
        return None
    if not rules.honours:
        raise RuleError("honours", M("honours are not scored in this game (the honours option is off)"))
    if spec.trump is Trump.NO_TRUMPS:
        raise RuleError(
            "honours", M("deal %(number)s is played without trumps, so there are no honours", number=spec.number)
        )
    honours = _read_pair(raw, "honours", names, HONOURS, "honours", partial)
    known = sum(h for h in honours if h is not None)
    complete = None not in honours
    if known > HONOURS or (complete and known != HONOURS):
        raise RuleError(
            "honours",
            M(
                "the honours add up to %(known)s, but there are exactly four (A K Q J of trumps) "
                "shared between %(first)s and %(second)s",
                known=known,
                first=names[0],
                second=names[1],
            ),
        )
    return honours


def _read(setup: Setup, rules: Rules, spec: RoundSpec, raw: object, partial: bool) -> PendingHand:
    """Check every field of an entry, reporting all bad fields together."""
    if not isinstance(raw, Mapping):
        example = '{"tricks": [8, 5], "trump": "H"}'
        raise RuleErrors([RuleError("hand", M("a Whist hand is an object such as %(example)s", example=example))])
    names = [t.name for t in setup.teams]
    errors = ErrorCollector()
    for key in raw:
        if key not in HAND_KEYS:
            errors.add(RuleError(key_field(key), M("%(key)s is not part of a Whist hand", key=quoted(key))))
    tricks: tuple[int | None, int | None] = (None, None)
    trump: Trump | None = None
    honours: tuple[int | None, int | None] | None = None
    if raw.get("tricks") is None and not partial:
        errors.add(
            RuleError(
                "tricks",
                M(
                    "enter the tricks taken by each side (%(first)s, %(second)s), 13 in all",
                    first=names[0],
                    second=names[1],
                ),
            )
        )
    try:
        if raw.get("tricks") is not None:
            tricks = _read_tricks(raw["tricks"], names, partial)
    except (RuleError, RuleErrors) as e:
        errors.add(e)
    try:
        trump = _read_trump(raw.get("trump"), spec, seat_names(setup)[spec.dealer], partial)
    except RuleError as e:
        errors.add(e)
    try:
        honours = _read_honours(raw.get("honours"), rules, spec, names, partial)
    except (RuleError, RuleErrors) as e:
        errors.add(e)
    errors.raise_if_any()
    return PendingHand(tricks, trump, honours)


def _complete(pending: PendingHand) -> WhistHand:
    """A fully read hand (every required field present, as `_read` without `partial` ensures)."""
    t0, t1 = pending.tricks
    assert t0 is not None and t1 is not None and pending.trump is not None
    honours = None
    if pending.honours is not None:
        h0, h1 = pending.honours
        assert h0 is not None and h1 is not None
        honours = (h0, h1)
    return WhistHand((t0, t1), pending.trump, honours)


# --------------------------------------------------------------------------- scoring one deal


def honours_value(held: int) -> int:
    """All four honours score 4, three of them 2, fewer nothing."""
    return {4: 4, 3: 2}.get(held, 0)


@dataclass(frozen=True)
class DealScore:
    """What one deal of game play scores: points per side, the sheet's words, and who won a game."""

    points: tuple[int, int]
    details: tuple[str, str]
    game_to: int | None
    barred: int | None = None  # the side whose honours did not count: it stood at game minus one
    late: int | None = None  # the side whose honours came after the other side's game by tricks


def score_deal(hand: WhistHand, before: tuple[int, int], target: int) -> DealScore:
    """Tricks first, then honours: a side at target-1 cannot score honours, and honours come too
    late for a side whose opponents have just reached game by tricks."""
    side = hand.trick_side
    points = [0, 0]
    points[side] = hand.odd_tricks
    details: list[list[Message]] = [[M("took %(tricks)s", tricks=t)] for t in hand.tricks]  # parts, joined by " · "
    details[side].append(M("%(odd)s odd", odd=hand.odd_tricks))
    game_to = side if before[side] + points[side] >= target else None
    barred = late = None
    for s, held in enumerate(hand.honours or (0, 0)):
        value = honours_value(held)
        if not value:
            continue
        if before[s] == target - 1:
            barred = s
            details[s].append(M("%(held)s honours, barred at %(points)s", held=held, points=before[s]))
        elif game_to is not None and game_to != s:
            late = s
            details[s].append(M("%(held)s honours, too late: game already won", held=held))
        else:
            points[s] += value
            details[s].append(M("%(held)s honours +%(value)s", held=held, value=value))
    if game_to is None:
        game_to = next((s for s in (0, 1) if before[s] + points[s] >= target), None)
    return DealScore(
        (points[0], points[1]), (joined(details[0], " · "), joined(details[1], " · ")), game_to, barred, late
    )


# --------------------------------------------------------------------------- scoring a game


@dataclass
class _Tally:
    """The running state while the deals of a game or rubber are walked through."""

    names: tuple[str, str]
    games: list[int] = field(default_factory=lambda: [0, 0])
    points: list[int] = field(default_factory=lambda: [0, 0])
    games_needed: int = 1
    last_game: tuple[int, int] = (0, 0)  # the final score of the last game won

    @property
    def over(self) -> bool:
        return max(self.games) >= self.games_needed

    def game_line_note(self, side: int, totals: tuple[int, int]) -> str:
        score = f"{totals[side]}-{totals[1 - side]}"
        if self.games_needed == 1:
            return M("Game to %(side)s, %(score)s", side=self.names[side], score=score)
        if self.over:
            return M(
                "Game and rubber to %(side)s, %(score)s (%(won)s games to %(lost)s)",
                side=self.names[side],
                score=score,
                won=self.games[side],
                lost=self.games[1 - side],
            )
        return M(
            "Game to %(side)s, %(score)s (games %(first)s %(first_games)s, %(second)s %(second_games)s)",
            side=self.names[side],
            score=score,
            first=self.names[0],
            first_games=self.games[0],
            second=self.names[1],
            second_games=self.games[1],
        )

    def play(self, hand: WhistHand, spec: RoundSpec, target: int) -> Line:
        before = (self.points[0], self.points[1])
        deal = score_deal(hand, before, target)
        totals = (before[0] + deal.points[0], before[1] + deal.points[1])
        notes: list[str] = []
        if deal.barred is not None:
            notes.append(
                M("%(side)s stood at %(points)s: honours not scored", side=self.names[deal.barred], points=target - 1)
            )
        if deal.late is not None:
            notes.append(
                M("tricks are scored first: honours held by %(side)s come too late", side=self.names[deal.late])
            )
        if deal.game_to is not None:
            self.games[deal.game_to] += 1
            self.last_game = totals
            self.points = [0, 0]
            notes.append(self.game_line_note(deal.game_to, totals))
        else:
            self.points = list(totals)
        cells = tuple(Cell(deal.points[s], totals[s], deal.details[s], tricks=hand.tricks[s]) for s in (0, 1))
        return Line(spec.number, replace(spec, trump=hand.trump), cells, joined(notes, "; ") if notes else "")

    def detail(self, side: int) -> str:
        won, lost = self.games[side], self.games[1 - side]
        if not self.over and any(self.points):
            points = self.points[side]
            return (
                M("1 game to %(lost)s; %(points)s in this game", lost=lost, points=points)
                if won == 1
                else M("%(won)s games to %(lost)s; %(points)s in this game", won=won, lost=lost, points=points)
            )
        return M("1 game to %(lost)s", lost=lost) if won == 1 else M("%(won)s games to %(lost)s", won=won, lost=lost)

    def scoreboard(self, target: int) -> Scoreboard:
        """The game in play's points, big; the last game's score once the game or rubber is over."""
        unit = "game" if self.games_needed > 1 else ""
        games = (self.games[0], self.games[1])
        if self.over:
            return Scoreboard(
                M("Final score of the last game") if unit else M("Final score"), self.last_game, games, unit
            )
        heading = (
            M("Game %(number)s: %(target)s points win it", number=sum(self.games) + 1, target=target)
            if unit
            else M("%(target)s points win the game", target=target)
        )
        return Scoreboard(heading, (self.points[0], self.points[1]), games, unit)

    def summary(self) -> str:
        n = self.names
        if self.over:
            side = 0 if self.games[0] > self.games[1] else 1
            if self.games_needed == 1:
                return M(
                    "%(side)s win the game, %(score)s",
                    side=n[side],
                    score=f"{self.last_game[side]}-{self.last_game[1 - side]}",
                )
            return M(
                "%(side)s win the rubber, %(won)s games to %(lost)s",
                side=n[side],
                won=self.games[side],
                lost=self.games[1 - side],
            )
        now = dict(
            number=sum(self.games) + 1,
            first=n[0],
            first_points=self.points[0],
            second=n[1],
            second_points=self.points[1],
        )
        if self.games_needed > 1:
            return M(
                "Game %(number)s: %(first)s %(first_points)s, %(second)s %(second_points)s (games %(games)s)",
                games=f"{self.games[0]}-{self.games[1]}",
                **now,
            )
        return M("Game %(number)s: %(first)s %(first_points)s, %(second)s %(second_points)s", **now)


# --------------------------------------------------------------------------- a group's statistics


def _final_scores(setup: Setup, sheet: ScoreSheet) -> tuple[int, ...]:
    """The points scored over the whole game or rubber: rules/whist.txt, Scoring: "The partnership,
    which first reaches 5 points, wins the game": the score starts again for the next game of the
    rubber, so the sheet's total restarts too. A whist drive's total never restarts."""
    if Rules.of(setup).drive or not sheet.lines:
        return foot_of_sheet(setup, sheet)
    return tuple(sum(line.cells[c].points for line in sheet.lines) for c in range(len(sheet.columns)))


def _count_facts(setup: Setup, hands: Sequence[RawHand], sheet: ScoreSheet, column: int) -> Mapping[str, int]:
    """Odd tricks are the side's tricks above six (rules/whist.txt, Scoring); a game is won on the
    deal that brings a side's running total to the target (the totals restart after it; only one
    side can reach it on a deal, tricks being scored before honours); the rubber is the whole sheet
    when one is played, so winning it is winning the sheet (not a dead heat). A whist drive has
    neither: it is one drive, won by the column first on its sheet."""
    rules = Rules.of(setup)
    cells: list[Cell] = [line.cells[column] for line in sheet.lines]
    counts = {"deals": len(cells), "odd_tricks": sum(max(0, (cell.tricks or 0) - BOOK) for cell in cells)}
    drawn = len(sheet.winners) == len(sheet.columns)
    if rules.drive:
        counts["drives_played"] = 1
        counts["drives_won"] = int(column in sheet.winners and not drawn)
    else:
        counts["whist_games_played"] = sum(
            any(cell.total >= rules.target for cell in line.cells) for line in sheet.lines
        )
        counts["whist_games_won"] = sum(cell.total >= rules.target for cell in cells)
        counts["rubbers_played"] = int(rules.rubber)
        counts["rubbers_won"] = int(rules.rubber and column in sheet.winners and not drawn)
    return counts


STATS = StatsFacts(
    facts=(
        FactSpec("odd_tricks", M("Odd tricks per deal"), "odd_tricks", "deals", average=True),
        FactSpec("rubbers", M("Rubbers won"), "rubbers_won", "rubbers_played"),
        FactSpec("whist_games", M("Games won"), "whist_games_won", "whist_games_played"),
        FactSpec("drives", M("Whist drives won"), "drives_won", "drives_played"),
    ),
    count=_count_facts,
    final_scores=_final_scores,
    scored=lambda setup: Rules.of(setup).drive,
    own_results=True,
)


# --------------------------------------------------------------------------- the variant


def _located(error: RuleError | RuleErrors, hand: int) -> list[RuleError]:
    found = error.errors if isinstance(error, RuleErrors) else (error,)
    return [e.at_hand(hand) for e in found]


class WhistVariant:
    """Classic Whist, with game, rubber and whist-drive scoring."""

    key = "whist"
    name = "Whist"
    summary: str = M(
        "Two partnerships play out 13 tricks a deal; the side that takes more scores one point for "
        "each trick above six. The first side to 5 points wins the game (7 in America, 9 in Long "
        "Whist), usually in a rubber of best of three games, with honours as an option. At a whist "
        "drive a fixed number of deals is played and each side adds up its odd tricks."
    )
    option_specs: tuple[OptionSpec, ...] = OPTION_SPECS
    partnerships = True
    players = range(4, 5)  # two partnerships of two
    club_ranked_by_points = False
    stats = STATS

    def check_setup(self, setup: Setup) -> None:
        errors = ErrorCollector()
        _check_teams(setup, errors)
        if not 0 <= setup.first_dealer <= 3:
            errors.add(
                RuleError(
                    "first_dealer", M("the first dealer is a seat from 0 to 3, not %(given)s", given=setup.first_dealer)
                )
            )
        _check_options(Rules.of(setup), errors)
        errors.raise_if_any()

    def round_count(self, setup: Setup) -> int | None:
        deals = Rules.of(setup).deals
        return deals or None

    def round_spec(self, setup: Setup, number: int) -> RoundSpec:
        return _spec(setup, Rules.of(setup), number)

    def check_hand(self, setup: Setup, before: Sequence[RawHand], hand: RawHand) -> None:
        sheet = self.score(setup, before)
        if sheet.finished:
            raise RuleErrors([RuleError("hand", M("%(summary)s: no more deals are played", summary=sheet.summary))])
        self._parse(setup, len(before) + 1, hand, partial=False)

    @derived_once
    def score(self, setup: Setup, hands: Sequence[RawHand]) -> ScoreSheet:
        self.check_setup(setup)
        rules = Rules.of(setup)
        errors = ErrorCollector()
        parsed: list[tuple[RoundSpec, WhistHand]] = []
        for number, raw in enumerate(hands, 1):
            try:
                spec = _spec(setup, rules, number)
                parsed.append((spec, _complete(self._parse(setup, number, raw, partial=False))))
            except (RuleError, RuleErrors) as e:
                for located in _located(e, number):
                    errors.add(located)
        errors.raise_if_any()
        if rules.drive:
            return self._drive_sheet(setup, rules, parsed)
        return self._game_sheet(setup, rules, parsed)

    def state(self, setup: Setup, hands: Sequence[RawHand], pending: RawHand | None = None) -> GameState:
        sheet = self.score(setup, hands)
        played = len(hands)
        if sheet.finished:
            if pending:
                raise RuleErrors([RuleError("hand", M("%(summary)s: no more deals are played", summary=sheet.summary))])
            return GameState(played, True, "over", None, winners=sheet.winners)
        spec = self.round_spec(setup, played + 1)
        entry = self._parse(setup, played + 1, pending or {}, partial=True)
        return GameState(played, False, "result", spec, missing=self._missing(setup, entry))

    # ----------------------------------------------------------------------- helpers

    def _parse(self, setup: Setup, number: int, raw: object, partial: bool) -> PendingHand:
        rules = Rules.of(setup)
        try:
            spec = _spec(setup, rules, number)
        except RuleError as e:
            raise RuleErrors([e]) from None
        return _read(setup, rules, spec, raw, partial)

    @staticmethod
    def _missing(setup: Setup, entry: PendingHand) -> tuple[str, ...]:
        missing = []
        unknown = [t.name for t, v in zip(setup.teams, entry.tricks) if v is None]
        if len(unknown) == 2:
            missing.append(M("tricks for each side"))
        elif unknown:
            missing.append(M("tricks for %(side)s", side=unknown[0]))
        if entry.trump is None:
            missing.append(M("the trump turned up"))
        return tuple(missing)

    @staticmethod
    def _game_sheet(setup: Setup, rules: Rules, parsed: Sequence[tuple[RoundSpec, WhistHand]]) -> ScoreSheet:
        names = (setup.teams[0].name, setup.teams[1].name)
        tally = _Tally(names, games_needed=2 if rules.rubber else 1)
        lines: list[Line] = []
        errors = ErrorCollector()
        for spec, hand in parsed:
            if tally.over:
                errors.add(
                    RuleError("hand", M("%(summary)s: no more deals are played", summary=tally.summary()), spec.number)
                )
                continue
            lines.append(tally.play(hand, spec, rules.target))
        errors.raise_if_any()
        standings = rank(tally.games, names, [tally.detail(0), tally.detail(1)])
        winners = leaders(standings) if tally.over else ()
        return ScoreSheet(
            "whist",
            names,
            tuple(lines),
            standings,
            tally.over,
            winners,
            tally.summary(),
            tally.scoreboard(rules.target),
            M("Games won in the rubber (best of three)") if rules.rubber else M("Games won"),
        )

    @staticmethod
    def _drive_sheet(setup: Setup, rules: Rules, parsed: Sequence[tuple[RoundSpec, WhistHand]]) -> ScoreSheet:
        names = (setup.teams[0].name, setup.teams[1].name)
        totals = [0, 0]
        lines: list[Line] = []
        for spec, hand in parsed:
            cells = []
            for s in (0, 1):
                if rules.drive_all:
                    points, detail = hand.tricks[s], M("took %(tricks)s", tricks=hand.tricks[s])
                else:
                    odd = hand.tricks[s] - BOOK if s == hand.trick_side else 0
                    took = M("took %(tricks)s", tricks=hand.tricks[s])
                    points, detail = odd, joined([took, M("%(odd)s odd", odd=odd)], " · ") if odd else took
                totals[s] += points
                cells.append(Cell(points, totals[s], detail, tricks=hand.tricks[s]))
            lines.append(Line(spec.number, replace(spec, trump=hand.trump), tuple(cells)))
        finished = len(parsed) == rules.deals
        details = [
            M(
                "%(total)s tricks in %(played)s of %(deals)s deals",
                total=totals[s],
                played=len(parsed),
                deals=rules.deals,
            )
            if rules.drive_all
            else M(
                "%(total)s odd tricks in %(played)s of %(deals)s deals",
                total=totals[s],
                played=len(parsed),
                deals=rules.deals,
            )
            for s in (0, 1)
        ]
        standings = rank(totals, names, details)
        winners = leaders(standings) if finished else ()
        return ScoreSheet(
            "whist", names, tuple(lines), standings, finished, winners, _drive_summary(names, totals, finished)
        )


def _drive_summary(names: tuple[str, str], totals: Sequence[int], finished: bool) -> str:
    a, b = totals
    if a == b:
        level = dict(first=names[0], second=names[1], score=f"{a}-{b}")
        return (
            M("Tie: %(first)s and %(second)s %(score)s", **level)
            if finished
            else M("Level: %(first)s and %(second)s %(score)s", **level)
        )
    side = 0 if a > b else 1
    ahead = dict(side=names[side], score=f"{totals[side]}-{totals[1 - side]}")
    return M("%(side)s win, %(score)s", **ahead) if finished else M("%(side)s lead, %(score)s", **ahead)


VARIANT = WhistVariant()
