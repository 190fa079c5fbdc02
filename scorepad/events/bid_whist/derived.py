"""The view of a Bid Whist tournament that every page shows (the director's room, the tables, the
teams' pages, the boards), derived from its rows on every request (`view`), or kept for the pages
that only read it while none of those rows changed (`kept_view`, `boards`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import defer, selectinload, undefer

from scorepad.events.bid_whist import boards, matches, registration, tournament
from scorepad.extensions import db
from scorepad.formats import bid_whist_event as fmt
from scorepad.models import Event, EventEntrant, EventMatch, Game
from scorepad.rules.base import RuleErrors
from scorepad.rules.errors import M, joined

TIE_NOTES = {  # how a seed's team was put in order when tied on rounds won and points
    "match": M("tie broken by their match"),
    "lot": M("tie broken by lot"),
    "match, lot": M("tie broken by their matches, then by lot"),
}
MEDALS = {"Gold": M("Gold"), "Silver": M("Silver"), "Bronze": M("Bronze")}  # the bracket's medals, said


@dataclass(frozen=True)
class StandingRow:
    rank: int
    tied: bool
    number: int
    name: str
    rounds_won: int
    points: int
    note: str
    last_in: bool
    tie_break: str = ""  # how a tie on rounds won and points was put in order (fmt.standings)
    tie_note: str = ""  # the same in words, beside a seed


@dataclass(frozen=True)
class BracketSide:
    """One side of a bracket match: its seed and its team's number apart from the plain name (shown
    side by side, as "1 (3) Card Sharks", they leave the reader to guess which number is which)."""

    seed: int | None
    number: int | None  # None until the team is known (`name` then says where it comes from)
    name: str


@dataclass(frozen=True)
class BracketMatch:
    number: int
    label: str
    sides: tuple[BracketSide, BracketSide]
    points: tuple[int, int] | None
    winner: int | None  # 0 or 1
    table: int
    state: str  # "waiting", "playing", "final"
    note: str


@dataclass(frozen=True)
class BracketLevel:
    name: str
    matches: tuple[BracketMatch, ...]


@dataclass(frozen=True)
class TournamentView:
    """Everything the director's room, the tables, the teams' pages and the boards show."""

    event: Event
    stage: str  # "registration", "round", "bracket", "finished"
    round: int
    rounds: int
    names: dict[int, str]
    teams: list[EventEntrant]
    singles: list[EventEntrant]
    views: dict[int, matches.MatchView]  # by match id
    current: list[matches.MatchView]
    standings: list[StandingRow]
    cut: fmt.Cut | None
    bracket_state: fmt.Bracket | None
    bracket: list[BracketLevel]
    medals: list[tuple[str, str]]
    moves: tuple[str, ...]
    seed: str
    draws: tuple[fmt.Draw, ...]  # the rounds drawn so far, re-derived from the seed
    published: int  # hidden standings: the last round the director published (0: none)
    public_standings: list[StandingRow]  # what the players see while the standings are hidden
    walkovers: dict[int, tuple[int, str]]  # bracket match -> (team sent through, reason)

    @property
    def stamp(self) -> str:
        signed = sum(1 for v in self.views.values() if v.final)
        hands = sum(v.outcome.hands for v in self.views.values())
        return f"{self.event.current_hand} {len(self.views)} {signed} {hands} {len(self.event.audit)}"

    @property
    def hidden(self) -> bool:
        """The director chose to hide the standings until published (preliminary rounds only)."""
        return bool(self.event.options.get("hidden"))

    @property
    def hide_standings(self) -> bool:
        return self.hidden and self.stage == "round"

    @property
    def can_publish(self) -> bool:
        """Hidden standings: this round's sheets are all final and its standings not yet published."""
        return (
            self.hide_standings
            and self.published < self.round
            and bool(self.current)
            and all(m.final for m in self.current)
        )

    @property
    def prelims_complete(self) -> bool:
        """Every preliminary round is drawn and every sheet of the last one is final."""
        return self.stage == "round" and self.round == self.rounds and all(m.final for m in self.current)

    @property
    def round_complete(self) -> bool:
        return self.stage == "round" and all(m.final for m in self.current) and self.cut_playoff is None

    @property
    def waiting(self) -> list[int]:
        return [m.match.table for m in self.current if not m.final]

    @property
    def wait_words(self) -> str | None:
        """What the next step waits for: the sheets still open, else the playoff at the cut."""
        if self.stage != "round" or self.round_complete:
            return None
        if self.waiting:
            tables = ", ".join(str(t) for t in self.waiting)
            if len(self.waiting) > 1:
                return M("Waiting for the sheets of tables %(tables)s", tables=tables)
            return M("Waiting for the sheets of table %(tables)s", tables=tables)
        playoff = self.cut_playoff
        if playoff is not None:
            if playoff["places"] > 1:
                return M(
                    "Waiting for the playoff for the last %(places)s places in the bracket: record its winners below.",
                    places=playoff["places"],
                )
            return M("Waiting for the playoff for the last place in the bracket: record its winner below.")
        return None

    @property
    def cut_playoff(self) -> Any:
        if not self.prelims_complete or self.cut is None or not self.cut.playoff:
            return None
        names = ", ".join(self.names[n] for n in self.cut.playoff)
        places = self.cut.places
        words = (
            M(
                "%(teams)s are tied on rounds won and points for the last %(places)s places in the bracket: they "
                "play a one-game playoff.",
                teams=names,
                places=places,
            )
            if places > 1
            else M(
                "%(teams)s are tied on rounds won and points for the last 1 place in the bracket: they play a "
                "one-game playoff.",
                teams=names,
            )
        )
        return {"teams": self.cut.playoff, "places": places, "words": words}

    @property
    def status_title(self) -> str:
        if self.stage == "registration":
            return M("Registration")
        if self.stage == "round":
            return M("Round %(number)s of %(rounds)s", number=self.round, rounds=self.rounds)
        if self.stage == "finished":
            return M("Final results")
        open_levels = [lv.name for lv in self.bracket if any(m.state == "playing" for m in lv.matches)]
        if not open_levels:
            return M("Bracket · waiting for the next matches")
        if len(open_levels) == 1:
            return M("Bracket · %(level)s", level=open_levels[0])
        return M("Bracket · %(levels)s and %(last)s", levels=joined(open_levels[:-1], " and "), last=open_levels[-1])

    @property
    def status_text(self) -> str:
        if self.stage == "registration":
            return M("%(count)s teams registered", count=len(self.teams))
        if self.stage == "finished":
            return joined(
                [M("%(medal)s: %(team)s", medal=MEDALS.get(medal, medal), team=name) for medal, name in self.medals],
                " · ",
            )
        playing = [m for m in self.current if not m.final]
        if not playing:
            return M("every sheet is final")
        return (
            M("1 table still playing or signing")
            if len(playing) == 1
            else M("%(count)s tables still playing or signing", count=len(playing))
        )

    def _open_matches(self) -> list[fmt.Match]:
        """Bracket matches with both teams known, not decided, and no hand entered yet."""
        if self.bracket_state is None:
            return []
        return [
            m
            for m in self.bracket_state.matches
            if m.winner is None and None not in m.teams and not self.bracket_match_started(m.number)
        ]

    @property
    def swappable(self) -> list[Any]:
        return [{"number": m.number, "label": self.match_label(m.number)} for m in self._open_matches()]

    @property
    def walkover_choices(self) -> list[Any]:
        """One choice per team of each match not yet started: "Sweet 16 · match 1: (3) Aces go through"."""
        return [
            {
                "value": f"{m.number}:{t}",
                "label": M(
                    "%(match)s: %(team)s go through", match=self.match_label(m.number), team=self.names.get(t, t)
                ),
            }
            for m in self._open_matches()
            for t in m.teams
            if t is not None
        ]

    @property
    def next_in_line(self) -> int | None:
        if self.bracket_state is None:
            return None
        inside = {t for m in self.bracket_state.matches for t in m.teams}
        return next((r.number for r in self.standings if r.number not in inside), None)

    def bracket_match_started(self, number: int) -> bool:
        match = next((v for v in self.views.values() if v.match.stage == "bracket" and v.match.number == number), None)
        return match is not None and match.outcome.hands > 0

    def match_label(self, number: int) -> str:
        if self.bracket_state is None:
            return M("Match %(number)s", number=number)
        return self.bracket_state.name(number)

    def match_title(self, match: EventMatch) -> str:
        if match.stage == "round":
            return M("Round %(number)s of %(rounds)s", number=match.number, rounds=self.rounds)
        return self.match_label(match.number)

    def match_at(self, table: int) -> matches.MatchView | None:
        found = [m for m in self.current if m.match.table == table and not m.final]
        return found[0] if found else next((m for m in self.current if m.match.table == table), None)

    def match_of(self, number: int) -> matches.MatchView | None:
        found = [m for m in self.current if number in (m.match.home, m.match.away)]
        return next((m for m in found if not m.final), found[0] if found else None)

    def can_reopen(self, match: EventMatch) -> bool:
        """A final sheet can be reopened until a later stage depends on it: a round's until the next
        round is drawn, a bracket match's until a match it feeds is opened."""
        if match.stage == "round":
            return match.number == self.event.current_hand and self.stage == "round"
        later = self.bracket_state.dependants(match.number) if self.bracket_state is not None else ()
        return not any(m.stage == "bracket" and m.number in later for m in self.event.matches)

    def _bracket_fate(self, number: int) -> str:
        """ "out", "waiting" (won its last match, or its next match is not set) or "never" (not in it)."""
        if self.bracket_state is None:
            return "never"
        mine = [m for m in self.bracket_state.matches if number in m.teams]
        if not mine:
            return "never"
        last = mine[-1]
        return "out" if last.winner is not None and last.winner != number else "waiting"

    def team_words(self, number: int) -> dict[str, str]:
        mv = self.match_of(number)
        if self.stage == "registration":
            return {"title": M("Registered"), "text": M("The draw for round 1 is made when the director starts.")}
        if mv is None or (mv.final and self.stage != "round"):
            if self.stage == "finished":
                medal = next((m for m, n in self.medals if n == self.names.get(number)), None)
                won = {
                    "Gold": M("Gold medal: congratulations!"),
                    "Silver": M("Silver medal: congratulations!"),
                    "Bronze": M("Bronze medal: congratulations!"),
                }
                return {
                    "title": M("The tournament is over"),
                    "text": won.get(medal, M("Thank you for playing.")) if medal else M("Thank you for playing."),
                }
            fate = self._bracket_fate(number)
            if fate == "never":
                return {
                    "title": M("No match now"),
                    "text": M(
                        "Your team did not reach the bracket: thank you for "
                        "playing. The director may still call you in for a "
                        "no-show."
                    ),
                }
            if fate == "out":
                return {
                    "title": M("No match now"),
                    "text": M("Your team is out of the bracket: thank you for playing."),
                }
            return {
                "title": M("No match now"),
                "text": M("Wait for your next match: it appears here as soon as it is set."),
            }
        side = fmt.NORTH_SOUTH if mv.match.home == number else fmt.EAST_WEST
        other = mv.names[1] if mv.match.home == number else mv.names[0]
        if mv.final:
            return {
                "title": M("%(match)s: sheet final", match=self.match_title(mv.match)),
                "text": M("Wait for the next round's draw: your table appears here."),
            }
        return {
            "title": self.match_title(mv.match),
            "text": M(
                "Table %(number)s, sit %(side)s, against %(other)s.", number=mv.match.table, side=side, other=other
            ),
        }

    def history_of(self, number: int) -> list[str]:
        lines = []
        for v in self.views.values():
            if number not in (v.match.home, v.match.away) or not v.final:
                continue
            mine = 0 if v.match.home == number else 1
            walk = self.walkovers.get(v.match.number) if v.match.closed_by == matches.WALKOVER else None
            if walk is not None:
                words = dict(match=self.match_title(v.match), other=v.names[1 - mine], reason=walk[1])
                lines.append(
                    M("%(match)s: went through by a walkover against %(other)s (%(reason)s)", **words)
                    if walk[0] == number
                    else M("%(match)s: lost by a walkover against %(other)s (%(reason)s)", **words)
                )
                continue
            words = dict(
                match=self.match_title(v.match),
                other=v.names[1 - mine],
                score=f"{v.outcome.points[mine]}-{v.outcome.points[1 - mine]}",
            )
            lines.append(
                M("%(match)s: won %(score)s against %(other)s", **words)
                if v.outcome.winner == mine
                else M("%(match)s: lost %(score)s against %(other)s", **words)
            )
        return lines


def _result(mv: matches.MatchView) -> fmt.Result | None:
    if not mv.final or mv.outcome.winner is None:
        return None
    return fmt.Result(mv.match.home, mv.match.away, mv.outcome.points, mv.outcome.winner)


# What a board leaves unread of each match's game while its outcome is kept (matches.outcome): its
# JSON columns (options, players, teams, the hand in hand, the undo history), whose decoding is a
# quarter of a warm board's time at 192 games. The games whose outcome must be worked out again
# read theirs in one query (`_match_views`).
_SHEET_COLUMNS = (Game.options, Game.players, Game.teams, Game.pending)


def _match_views(event: Event, names: dict[int, str]) -> dict[int, matches.MatchView]:
    """Every match with its outcome, by match id.

    The matches and their games come in two queries, not one per match; a game's hands are loaded
    only when its outcome is not cached (see matches.outcome), and its undo history never (the
    largest of its columns: decoding it for nothing would be most of a warm board's time)."""
    unread = (*_SHEET_COLUMNS, Game.undo_log, Game.redo_log)
    loaded = db.session.scalars(
        select(EventMatch)
        .where(EventMatch.event_id == event.id)
        .options(selectinload(EventMatch.game).options(*(defer(c) for c in unread)))
        .execution_options(populate_existing=True)  # as stored now, not as this request read them before
    ).all()
    unknown = [m.game.id for m in loaded if m.game is not None and not matches.outcome_known(m.game)]
    if unknown:  # their sheets are worked out again: the rest of their columns in one query, not one each
        db.session.scalars(
            select(Game).where(Game.id.in_(unknown)).options(*(undefer(c) for c in _SHEET_COLUMNS))
        ).all()
    return {m.id: matches.view(m, names) for m in loaded}


def _current(views: dict[int, matches.MatchView], stage: str, current_round: int) -> list[matches.MatchView]:
    """The matches in play: the round's, by table; in the bracket, those still playing first."""
    if stage == "round":
        return sorted(
            (v for v in views.values() if v.match.stage == "round" and v.match.number == current_round),
            key=lambda v: v.match.table,
        )
    return sorted((v for v in views.values() if v.match.stage == "bracket"), key=lambda v: (v.final, v.match.table))


def _standing_rows(
    stage: str,
    entrants: list[EventEntrant],
    names: dict[int, str],
    table: tuple[fmt.Standing, ...],
    the_cut: fmt.Cut | None,
    flag_playoff: bool,
) -> list[StandingRow]:
    """The standings as shown: seeds once the bracket is set; the playoff at the cut flagged only once
    the preliminary rounds are complete (before that a tie at the cut says nothing yet)."""
    rows = []
    seeds = set(the_cut.seeds) if the_cut is not None and not the_cut.playoff else set()
    plain_names = {e.number: e.name for e in entrants}
    straddling = set()  # the teams tied across the cut, whom the playoff put in order
    if the_cut is not None and len(table) > the_cut.size:
        edge = (table[the_cut.size - 1].rounds_won, table[the_cut.size - 1].points)
        straddling = {s.number for s in table if (s.rounds_won, s.points) == edge}
        if not (straddling - seeds) or not (straddling & seeds):
            straddling = set()
    for i, s in enumerate(table):
        note = tie = ""
        if stage in ("bracket", "finished") and s.number in seeds and the_cut is not None:
            seed = list(the_cut.seeds).index(s.number) + 1
            note = M("seed %(seed)s", seed=seed)
            if s.number in straddling:
                tie = M("won the playoff for the bracket")
            elif s.tie_break:
                tie = TIE_NOTES[s.tie_break]
        elif flag_playoff and the_cut is not None and s.number in the_cut.playoff:
            note = M("playoff for the bracket")
        last_in = the_cut is not None and i == the_cut.size - 1 and len(table) > the_cut.size
        rows.append(
            StandingRow(
                s.rank,
                s.tied,
                s.number,
                plain_names.get(s.number, names[s.number]),
                s.rounds_won,
                s.points,
                note,
                last_in,
                s.tie_break,
                tie,
            )
        )
    return rows


@dataclass(frozen=True)
class _Bracket:
    """The bracket as the pages show it: empty until the cut is made."""

    state: fmt.Bracket | None = None
    levels: list[BracketLevel] = field(default_factory=list)
    medals: list[tuple[str, str]] = field(default_factory=list)
    over: bool = False  # every medal won and every bracket sheet final: the tournament is finished


def _bracket(
    event: Event,
    views: dict[int, matches.MatchView],
    names: dict[int, str],
    entrants: list[EventEntrant],
    the_cut: fmt.Cut,
    walkovers: dict[int, tuple[int, str]],
) -> _Bracket:
    """The bracket seeded by the cut, with the results, swaps and walkovers so far."""
    winners = {}
    points: dict[int, tuple[int, int]] = {}
    by_number = {v.match.number: v for v in views.values() if v.match.stage == "bracket"}
    for number, v in by_number.items():
        r = _result(v)
        if r is not None:
            winners[number] = r.winning_team
            points[number] = r.points
    for number, (winner, _) in walkovers.items():
        winners[number] = winner
    swaps = tournament.swaps(event)
    plain = {e.number: e.name for e in entrants}
    state = fmt.bracket(list(the_cut.seeds), winners, swaps)
    levels = []
    for name, ms in state.levels():
        shown = []
        for mt in ms:
            opened = by_number.get(mt.number)
            status = "final" if mt.winner is not None else "playing" if opened is not None else "waiting"
            sides = tuple(
                BracketSide(mt.seeds[i], t, plain[t])
                if t is not None
                else BracketSide(mt.seeds[i], None, _placeholder(state, mt, i))
                for i, t in enumerate(mt.teams)
            )
            win = mt.teams.index(mt.winner) if mt.winner is not None else None
            notes = [
                M(
                    "%(into)s in for %(out)s (%(reason)s)",
                    into=names.get(s.into, s.into),
                    out=names.get(s.out, s.out),
                    reason=s.reason,
                )
                for s in swaps
                if s.match == mt.number
            ]
            if mt.number in walkovers:
                notes.append(M("walkover (%(reason)s)", reason=walkovers[mt.number][1]))
            shown.append(
                BracketMatch(
                    mt.number,
                    state.name(mt.number),
                    (sides[0], sides[1]),
                    points.get(mt.number),
                    win,
                    mt.table,
                    status,
                    joined(notes, "; "),
                )
            )
        levels.append(BracketLevel(name, tuple(shown)))
    medals = [(medal, names[n]) for medal, n in state.medals()]
    return _Bracket(state, levels, medals, over=bool(medals) and all(v.final for v in by_number.values()))


def _placeholder(b: fmt.Bracket, m: fmt.Match, side: int) -> str:
    if m.feeds is None:
        return "?"
    feeder = b.name(m.feeds[side])
    return M("loser of %(match)s", match=feeder) if m.level == "Third place" else M("winner of %(match)s", match=feeder)


def _drawn(event: Event, current_round: int) -> tuple[fmt.Draw, ...]:
    """The rounds drawn so far, made again from the seed."""
    if not current_round:
        return ()
    try:
        return tournament.draws(event, current_round)
    except RuleErrors:  # teams too few for their rounds: `writes.start` refuses them, but a database may hold
        return ()  # an event started without that check, and its pages still show (with no draws)


def _moves(stage: str, drawn: tuple[fmt.Draw, ...], names: dict[int, str]) -> tuple[str, ...]:
    """Where each team goes for the round in play: from the last round's table, or to its first."""
    if stage == "round" and len(drawn) > 1:
        return fmt.moves(drawn[-2], drawn[-1], names)
    if stage == "round" and len(drawn) == 1:
        return tuple(
            M(
                "%(team)s: go to table %(table)s, sit %(side)s",
                team=names[n],
                table=s.table,
                side=fmt.NORTH_SOUTH if n == s.home else fmt.EAST_WEST,
            )
            for s in drawn[0].seats
            for n in (s.home, s.away)
            if n != matches.GHOST
        )
    return ()


def view(event: Event) -> TournamentView:
    """Derive the whole tournament from what was entered."""
    stage = tournament.stage_of(event)
    names = tournament.names(event)
    current_round = min(event.current_hand, tournament.rounds(event)) if stage != "registration" else 0
    drawn = _drawn(event, current_round)
    return _assembled(
        event,
        stage,
        current_round,
        names,
        tournament.teams(event),
        _match_views(event, names),
        _Fixed(
            tournament.cut_winners(event),
            tournament.walkovers(event),
            tournament.published(event),
            registration.singles(event) if stage == "registration" else [],
            drawn,
            _moves(stage, drawn, names),
        ),
    )


@dataclass(frozen=True)
class _Fixed:
    """What a view reads of the event's own rows (decisions, seed, draws) beside its matches' outcomes:
    the same while those rows are (`advanced` takes them from the view before)."""

    cut_winners: list[int]
    walkovers: dict[int, tuple[int, str]]
    published: int
    singles: list[EventEntrant]
    draws: tuple[fmt.Draw, ...]
    moves: tuple[str, ...]


def _assembled(
    event: Event,
    stage: str,
    current_round: int,
    names: dict[int, str],
    entrants: list[EventEntrant],
    views: dict[int, matches.MatchView],
    fixed: _Fixed,
) -> TournamentView:
    """The view from its matches' outcomes: the standings, the cut, the bracket, the matches in play."""
    numbers = [e.number for e in entrants]
    round_results = [
        (v.match.number, r) for v in views.values() if v.match.stage == "round" and (r := _result(v)) is not None
    ]
    seed = str(event.options.get("seed", ""))
    table = fmt.standings(numbers, [r for _, r in round_results], seed)
    size = fmt.playoff_size(len(entrants), str(event.options.get("bracket", "auto")))
    the_cut = fmt.cut(table, size, fixed.cut_winners) if stage != "registration" else None
    bracket = _Bracket()
    if stage == "bracket" and the_cut is not None and not the_cut.playoff:
        bracket = _bracket(event, views, names, entrants, the_cut, fixed.walkovers)
        if bracket.over:
            stage = "finished"
    current = _current(views, stage, current_round)
    complete = stage == "round" and current_round == tournament.rounds(event) and all(v.final for v in current)
    standings = _standing_rows(stage, entrants, names, table, the_cut, complete)
    public_standings = standings
    if event.options.get("hidden") and stage == "round":
        shown = fmt.standings(numbers, [r for n, r in round_results if n <= fixed.published], seed)
        public_standings = _standing_rows(stage, entrants, names, shown, None, False) if fixed.published else []
    return TournamentView(
        event=event,
        stage=stage,
        round=current_round,
        rounds=tournament.rounds(event),
        names=names,
        teams=entrants,
        singles=fixed.singles,
        views=views,
        current=current,
        standings=standings,
        cut=the_cut,
        published=fixed.published,
        public_standings=public_standings,
        bracket_state=bracket.state,
        bracket=bracket.levels,
        medals=bracket.medals,
        walkovers=fixed.walkovers,
        seed=seed,
        draws=fixed.draws,
        moves=fixed.moves,
    )


def advanced(before: TournamentView, event: Event, game_ids: set[int]) -> TournamentView | None:
    """`before` (a kept, detached view) with the outcomes of these games' matches worked out again, when
    nothing but those games changed (a hand entered at a table: `boards.board_view` knows it from the
    fingerprints) in a preliminary round; None when the whole must be derived (the bracket, whose
    matches follow from others'). A board pushed after each result then reads one game, not the
    whole tournament (10 of a push's 13 ms for 32 teams)."""
    by_game = {mv.match.game_id: key for key, mv in before.views.items()}
    if before.stage != "round" or not game_ids <= by_game.keys():
        return None
    views = dict(before.views)
    for game in db.session.scalars(
        select(Game)
        .where(Game.id.in_(game_ids))
        .options(defer(Game.undo_log), defer(Game.redo_log))
        .execution_options(populate_existing=True)  # as stored now, not as this request read them before
    ):
        key = by_game[game.id]
        views[key] = dataclasses.replace(views[key], outcome=matches.outcome(game))
    fixed = _Fixed(
        tournament.cut_winners(event), before.walkovers, before.published, before.singles, before.draws, before.moves
    )
    return _assembled(before.event, before.stage, before.round, before.names, before.teams, views, fixed)


def kept_view(event: Event) -> TournamentView:
    """The view as the boards keep it (`boards`): derived again only when a row it reads changed, its
    rows plain copies (columns, no relationships). For pages that only read it: a team's page,
    refreshed by each of 128 phones on every signature, costs 2 ms then, not 17."""
    return boards.board_view(event, view, advanced)
