"""Bid Whist tournaments on the event core: registration, preliminary rounds, signing, bracket, medals.

The rows hold only what people entered or decided: the registrations, each match's hands (in
its game), signatures, the director's decisions (a cut playoff's winners, a bracket swap, a
walkover, standings published) and the event's draw seed. Pairings, tables, moves, standings,
the bracket and the medals are derived from them by `scorepad.formats.bid_whist_event` on every
request. `event.current_hand` counts the stages: preliminary round 1..R, then R + 1 for the bracket.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import defer, selectinload, undefer

from scorepad.events import core
from scorepad.events.bid_whist import boards, matches, registration
from scorepad.events.core import OneView, TablePage
from scorepad.extensions import db
from scorepad.formats import bid_whist_event as fmt
from scorepad.games import records
from scorepad.models import Event, EventDecision, EventEntrant, EventMatch, EventTable, Game
from scorepad.rules.base import RuleError, RuleErrors, key_field, quoted
from scorepad.rules.errors import M, Message, joined

NO_SHOW = "no-show"  # the reason of a swap or walkover when the director typed none

KEY = "bid_whist"
MEDALS = {"Gold": M("Gold"), "Silver": M("Silver"), "Bronze": M("Bronze")}  # the bracket's medals, said
BRACKETS = (("auto", M("The document's: top 16 (32 from 64 teams, 64 from 128), fewer when fewer teams")),
            ("8", M("Top %(count)s", count=8)), ("4", M("Top %(count)s", count=4)))


def create(name: str, *, rounds: int = 3, bracket: str = "auto", made_scores: str = "books",
           hidden: bool = False, pin: str = "") -> Event:
    """A Bid Whist tournament open for registration."""
    errors: list[RuleError] = []
    if not 1 <= rounds <= 8:
        errors.append(RuleError("rounds", M("play 1 to 8 preliminary rounds (the document plays 3)")))
    if bracket not in dict(BRACKETS):
        errors.append(RuleError("bracket", M("choose one of the bracket sizes offered")))
    if made_scores not in ("books", "bid"):
        errors.append(RuleError("made_scores", M("a made bid scores its books or its bid")))
    try:
        event = registration.create(name, KEY, {"rounds": rounds, "bracket": bracket, "made_scores": made_scores,
                                                   "hidden": hidden, "seed": secrets.token_hex(8)}, pin)
    except RuleErrors as e:
        raise RuleErrors(errors + list(e.errors)) from None
    if errors:
        db.session.delete(event)
        db.session.commit()
        raise RuleErrors(errors)
    return event


def game_options(event: Event) -> dict[str, object]:
    """The options of every match's game: one 4-hand round, scored as the event says."""
    return {"play_to": "rounds", "rounds": 1, "made_scores": event.options.get("made_scores", "books")}


def rounds(event: Event) -> int:
    return int(event.options.get("rounds", 3))


def teams(event: Event) -> list[EventEntrant]:
    return [e for e in event.entrants if len(e.players) == 2]


# --------------------------------------------------------------------------- what every page shows


def names(event: Event) -> dict[int, str]:
    """"(3) Aces" by team number, and the ghost team's name."""
    return _names(event)


def table_and_names(event: Event, match: EventMatch) -> tuple[EventTable | None, dict[int, str]]:
    """The match's table and its two teams' names, by targeted queries (not the whole event)."""

    table = db.session.scalars(select(EventTable).where(EventTable.event_id == event.id,
                                                        EventTable.number == match.table)).first()
    rows = db.session.scalars(select(EventEntrant).where(EventEntrant.event_id == event.id,
                                                         EventEntrant.number.in_((match.home, match.away))))
    names = {e.number: f"({e.number}) {e.name}" for e in rows}
    names[matches.GHOST] = matches.GHOST_NAME
    return table, names


def _names(event: Event) -> dict[int, str]:
    names = {e.number: f"({e.number}) {e.name}" for e in event.entrants}
    names[matches.GHOST] = matches.GHOST_NAME
    return names


def stage_of(event: Event) -> str:
    if event.started_at is None:
        return "registration"
    if event.current_hand <= rounds(event):
        return "round"
    return "bracket"


def match_title(event: Event, match: EventMatch) -> str:
    if match.stage == "round":
        return M("Round %(number)s of %(rounds)s", number=match.number, rounds=rounds(event))
    return _bracket_label(event, match.number)


def sign(event: Event, match: EventMatch, side: int, actor: str, by: str = "", code: str | None = None) -> None:
    """A team signs (see `matches.sign`); a bracket match that becomes final may open the next level's match."""
    matches.sign(match, side, actor, by, code)
    if match.stage == "bracket":
        _open_ready(event)
        db.session.commit()


def close_match(event: Event, match: EventMatch) -> None:
    matches.close(match)
    if match.stage == "bracket":
        _open_ready(event)
        db.session.commit()


def reopen_match(event: Event, match: EventMatch) -> None:
    """Reopen a final sheet; refused once a later stage depends on it (the next round is drawn)."""
    if not can_reopen(event, match):
        raise RuleErrors([RuleError("reopen", M("this sheet can no longer be reopened: the next round is drawn "
                                                "from it. Correct the standings with the next sheets instead."))])
    if match.closed_by == matches.WALKOVER:  # the walkover is undone with it: the match is played after all
        for d in [d for d in event.decisions if d.kind == "walkover" and d.key == str(match.number)]:
            event.decisions.remove(d)
    matches.reopen(match)


def can_reopen(event: Event, match: EventMatch) -> bool:
    if match.stage == "round":
        return match.number == event.current_hand and stage_of(event) == "round"
    later = _bracket_dependants(event, match.number)
    return not any(m.stage == "bracket" and m.number in later for m in event.matches)




# --------------------------------------------------------------------------- derived from the inputs


def _numbers(event: Event) -> list[int]:
    return [e.number for e in teams(event)]


def _draws(event: Event, upto: int) -> tuple[fmt.Draw, ...]:
    return fmt.draws(_numbers(event), str(event.options["seed"]), upto)


def _result(mv: matches.MatchView) -> fmt.Result | None:
    if not mv.final or mv.outcome.winner is None:
        return None
    return fmt.Result(mv.match.home, mv.match.away, mv.outcome.points, mv.outcome.winner)


def _reason(data: dict[str, Any]) -> str:
    """A decision's reason as the director typed it; the one given when none was typed is ours, said
    in the reader's language (it equals the stored English)."""
    reason = str(data.get("reason", ""))
    return M(NO_SHOW) if reason == NO_SHOW else reason


def _swaps(event: Event) -> list[fmt.Swap]:
    return [fmt.Swap(int(d.data["match"]), int(d.data["out"]), int(d.data["in"]), _reason(d.data))
            for d in event.decisions if d.kind == "swap"]


def _cut_winners(event: Event) -> list[int]:
    found = next((d for d in event.decisions if d.kind == "cut"), None)
    return [int(n) for n in found.data.get("winners", [])] if found else []


def _walkovers(event: Event) -> dict[int, tuple[int, str]]:
    """Bracket match number -> (the team sent through, the reason)."""
    return {int(d.data["match"]): (int(d.data["winner"]), _reason(d.data))
            for d in event.decisions if d.kind == "walkover"}


def _published(event: Event) -> int:
    """The last preliminary round whose standings the director published (hidden standings)."""
    return max((int(d.key) for d in event.decisions if d.kind == "publish"), default=0)


def walkover_of(event: Event, match: EventMatch) -> tuple[int, str] | None:
    """The walkover that decided `match` (the team sent through, the reason), if any."""
    if match.stage != "bracket" or match.closed_by != matches.WALKOVER:
        return None
    return _walkovers(event).get(match.number)


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


@dataclass(frozen=True)
class BracketSide:
    """One side of a bracket match: its seed and its team's number apart from the plain name (shown
    side by side, "1 (3) Card Sharks" left the reader to guess which number was which)."""

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
        return (self.hide_standings and self.published < self.round and bool(self.current)
                and all(m.final for m in self.current))

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
    def cut_playoff(self) -> Any:
        if not self.prelims_complete or self.cut is None or not self.cut.playoff:
            return None
        names = ", ".join(self.names[n] for n in self.cut.playoff)
        places = self.cut.places
        words = (M("%(teams)s are tied on rounds won and points for the last %(places)s places in the bracket: they "
                   "play a one-game playoff.", teams=names, places=places) if places > 1 else
                 M("%(teams)s are tied on rounds won and points for the last 1 place in the bracket: they play a "
                   "one-game playoff.", teams=names))
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
            return joined([M("%(medal)s: %(team)s", medal=MEDALS.get(medal, medal), team=name)
                           for medal, name in self.medals], " · ")
        playing = [m for m in self.current if not m.final]
        if not playing:
            return M("every sheet is final")
        return (M("1 table still playing or signing") if len(playing) == 1 else
                M("%(count)s tables still playing or signing", count=len(playing)))

    def _open_matches(self) -> list[fmt.Match]:
        """Bracket matches with both teams known, not decided, and no hand entered yet."""
        if self.bracket_state is None:
            return []
        return [m for m in self.bracket_state.matches
                if m.winner is None and None not in m.teams and not self._played(m.number)]

    @property
    def swappable(self) -> list[Any]:
        return [{"number": m.number, "label": self.match_label(m.number)} for m in self._open_matches()]

    @property
    def walkover_choices(self) -> list[Any]:
        """One choice per team of each match not yet started: "Sweet 16 · match 1: (3) Aces go through"."""
        return [{"value": f"{m.number}:{t}", "label": M("%(match)s: %(team)s go through",
                                                        match=self.match_label(m.number), team=self.names.get(t, t))}
                for m in self._open_matches() for t in m.teams if t is not None]

    @property
    def next_in_line(self) -> int | None:
        if self.bracket_state is None:
            return None
        inside = {t for m in self.bracket_state.matches for t in m.teams}
        return next((r.number for r in self.standings if r.number not in inside), None)

    def _played(self, number: int) -> bool:
        match = next((v for v in self.views.values() if v.match.stage == "bracket" and v.match.number == number), None)
        return match is not None and match.outcome.hands > 0

    def match_label(self, number: int) -> str:
        if self.bracket_state is None:
            return M("Match %(number)s", number=number)
        m = self.bracket_state.match(number)
        same = [x for x in self.bracket_state.matches if x.level == m.level]
        return m.level if len(same) == 1 else M("%(level)s · match %(number)s", level=m.level,
                                                number=same.index(m) + 1)

    def match_title(self, match: EventMatch) -> str:
        if match.stage == "round":
            return M("Round %(number)s of %(rounds)s", number=match.number, rounds=self.rounds)
        return self.match_label(match.number)

    def view_of(self, match: EventMatch) -> matches.MatchView:
        return self.views.get(match.id) or matches.view(match, self.names)

    def match_at(self, table: int) -> matches.MatchView | None:
        found = [m for m in self.current if m.match.table == table and not m.final]
        return found[0] if found else next((m for m in self.current if m.match.table == table), None)

    def match_of(self, number: int) -> matches.MatchView | None:
        found = [m for m in self.current if number in (m.match.home, m.match.away)]
        return next((m for m in found if not m.final), found[0] if found else None)

    def can_reopen(self, match: EventMatch) -> bool:
        return can_reopen(self.event, match)

    def _bracket_fate(self, number: int) -> str:
        """"out", "waiting" (won its last match, or its next match is not set) or "never" (not in it)."""
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
                won = {"Gold": M("Gold medal: congratulations!"), "Silver": M("Silver medal: congratulations!"),
                       "Bronze": M("Bronze medal: congratulations!")}
                return {"title": M("The tournament is over"),
                        "text": won.get(medal, M("Thank you for playing.")) if medal else M("Thank you for playing.")}
            fate = self._bracket_fate(number)
            if fate == "never":
                return {"title": M("No match now"), "text": M("Your team did not reach the bracket: thank you for "
                                                              "playing. The director may still call you in for a "
                                                              "no-show.")}
            if fate == "out":
                return {"title": M("No match now"), "text": M("Your team is out of the bracket: thank you for playing.")}
            return {"title": M("No match now"), "text": M("Wait for your next match: it appears here as soon as it is "
                                                          "set.")}
        side = fmt.NORTH_SOUTH if mv.match.home == number else fmt.EAST_WEST
        other = mv.names[1] if mv.match.home == number else mv.names[0]
        if mv.final:
            return {"title": M("%(match)s: sheet final", match=self.match_title(mv.match)),
                    "text": M("Wait for the next round's draw: your table appears here.")}
        return {"title": self.match_title(mv.match), "text": M("Table %(number)s, sit %(side)s, against %(other)s.",
                                                               number=mv.match.table, side=side, other=other)}

    def history_of(self, number: int) -> list[str]:
        lines = []
        for v in self.views.values():
            if number not in (v.match.home, v.match.away) or not v.final:
                continue
            mine = 0 if v.match.home == number else 1
            walk = self.walkovers.get(v.match.number) if v.match.closed_by == matches.WALKOVER else None
            if walk is not None:
                words = dict(match=self.match_title(v.match), other=v.names[1 - mine], reason=walk[1])
                lines.append(M("%(match)s: went through by a walkover against %(other)s (%(reason)s)", **words)
                             if walk[0] == number else
                             M("%(match)s: lost by a walkover against %(other)s (%(reason)s)", **words))
                continue
            words = dict(match=self.match_title(v.match), other=v.names[1 - mine],
                         score=f"{v.outcome.points[mine]}-{v.outcome.points[1 - mine]}")
            lines.append(M("%(match)s: won %(score)s against %(other)s", **words) if v.outcome.winner == mine else
                         M("%(match)s: lost %(score)s against %(other)s", **words))
        return lines


def _bracket_label(event: Event, number: int) -> str:
    return view(event).match_label(number)


def _bracket_dependants(event: Event, number: int) -> tuple[int, ...]:
    state = view(event).bracket_state
    return state.dependants(number) if state is not None else ()


def _standing_rows(stage: str, entrants: list[EventEntrant], names: dict[int, str],
                   table: tuple[fmt.Standing, ...], the_cut: fmt.Cut | None, flag_playoff: bool) -> list[StandingRow]:
    """The standings as shown: seeds once the bracket is set; the playoff at the cut flagged only once
    the preliminary rounds are complete (before that a tie at the cut says nothing yet)."""
    rows = []
    seeds = set(the_cut.seeds) if the_cut is not None and not the_cut.playoff else set()
    plain_names = {e.number: e.name for e in entrants}
    for i, s in enumerate(table):
        note = ""
        if stage in ("bracket", "finished") and s.number in seeds and the_cut is not None:
            note = M("seed %(seed)s", seed=list(the_cut.seeds).index(s.number) + 1)
        elif flag_playoff and the_cut is not None and s.number in the_cut.playoff:
            note = M("playoff for the bracket")
        last_in = the_cut is not None and i == the_cut.size - 1 and len(table) > the_cut.size
        rows.append(StandingRow(s.rank, s.tied, s.number, plain_names.get(s.number, names[s.number]), s.rounds_won,
                                s.points, note, last_in))
    return rows


# What a board leaves unread of each match's game while its outcome is kept (matches.outcome): its
# JSON columns (options, players, teams, the hand in hand, the undo history), which a warm board of
# 192 games spent a quarter of its time decoding. The games whose outcome must be worked out again
# read theirs in one query (`view`).
_SHEET_COLUMNS = (Game.options, Game.players, Game.teams, Game.pending)


def view(event: Event) -> TournamentView:
    """Derive the whole tournament from what was entered."""
    stage = stage_of(event)
    names = _names(event)
    entrants = teams(event)
    # every match with its game in two queries, not one per match; a game's hands are loaded only
    # when its outcome is not cached (see matches.outcome), and its undo history never (the largest
    # of its columns, read back from JSON for nothing: most of a warm board's time went there)
    unread = (*_SHEET_COLUMNS, Game.undo_log, Game.redo_log)
    loaded = db.session.scalars(select(EventMatch).where(EventMatch.event_id == event.id)
                                .options(selectinload(EventMatch.game).options(*(defer(c) for c in unread)))
                                ).all()
    unknown = [m.game.id for m in loaded if m.game is not None and not matches.outcome_known(m.game)]
    if unknown:  # their sheets are worked out again: the rest of their columns in one query, not one each
        db.session.scalars(select(Game).where(Game.id.in_(unknown)).options(
            *(undefer(c) for c in _SHEET_COLUMNS))).all()
    views = {m.id: matches.view(m, names) for m in loaded}
    current_round = min(event.current_hand, rounds(event)) if stage != "registration" else 0
    round_results = [(v.match.number, r) for v in views.values()
                     if v.match.stage == "round" and (r := _result(v)) is not None]
    results = [r for _, r in round_results]
    table = fmt.standings([e.number for e in entrants], results)
    size = fmt.playoff_size(len(entrants), str(event.options.get("bracket", "auto")))
    the_cut = fmt.cut(table, size, _cut_winners(event)) if stage != "registration" else None
    walkovers = _walkovers(event)
    bracket_state: fmt.Bracket | None = None
    levels: list[BracketLevel] = []
    medals: list[tuple[str, str]] = []
    if stage == "bracket" and the_cut is not None and not the_cut.playoff:
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
        swaps = _swaps(event)
        plain = {e.number: e.name for e in entrants}
        bracket_state = fmt.bracket(list(the_cut.seeds), winners, swaps)
        for name, ms in bracket_state.levels():
            shown = []
            for mt in ms:
                opened = by_number.get(mt.number)
                state = "final" if mt.winner is not None else "playing" if opened is not None else "waiting"
                sides = tuple(BracketSide(mt.seeds[i], t, plain[t]) if t is not None
                              else BracketSide(mt.seeds[i], None, _placeholder(bracket_state, mt, i))
                              for i, t in enumerate(mt.teams))
                win = mt.teams.index(mt.winner) if mt.winner is not None else None
                notes = [M("%(into)s in for %(out)s (%(reason)s)", into=names.get(s.into, s.into),
                           out=names.get(s.out, s.out), reason=s.reason) for s in swaps if s.match == mt.number]
                if mt.number in walkovers:
                    notes.append(M("walkover (%(reason)s)", reason=walkovers[mt.number][1]))
                shown.append(BracketMatch(mt.number, name, (sides[0], sides[1]),
                                          points.get(mt.number), win, mt.table, state, joined(notes, "; ")))
            levels.append(BracketLevel(name, tuple(shown)))
        medals = [(medal, names[n]) for medal, n in bracket_state.medals()]
        if medals and all(v.final for v in by_number.values()):
            stage = "finished"
    if stage == "round":
        current = [v for v in views.values() if v.match.stage == "round" and v.match.number == current_round]
    else:
        current = [v for v in views.values() if v.match.stage == "bracket"]
        current = [v for v in current if not v.final] + [v for v in current if v.final]
    current.sort(key=lambda v: (v.final, v.match.table) if stage != "round" else (0, v.match.table))
    complete = stage == "round" and current_round == rounds(event) and all(v.final for v in current)
    rows = _standing_rows(stage, entrants, names, table, the_cut, complete)
    published = _published(event)
    public_rows = rows
    if event.options.get("hidden") and stage == "round":
        shown_table = fmt.standings([e.number for e in entrants], [r for n, r in round_results if n <= published])
        public_rows = _standing_rows(stage, entrants, names, shown_table, None, False) if published else []
    seed = str(event.options.get("seed", ""))
    made: tuple[fmt.Draw, ...] = ()
    moves: tuple[str, ...] = ()
    if current_round:
        try:
            made = _draws(event, current_round)
        except RuleErrors:  # an event started before the rounds were checked at the start
            made = ()
    if stage == "round" and len(made) > 1:
        moves = fmt.moves(made[-2], made[-1], names)
    elif stage == "round" and len(made) == 1:
        moves = tuple(M("%(team)s: go to table %(table)s, sit %(side)s", team=names[n], table=s.table,
                        side=fmt.NORTH_SOUTH if n == s.home else fmt.EAST_WEST)
                      for s in made[0].seats for n in (s.home, s.away) if n != matches.GHOST)
    return TournamentView(event, stage, current_round, rounds(event), names, entrants,
                          [] if stage != "registration" else registration.singles(event), views, current, rows,
                          the_cut, bracket_state, levels, medals, moves, seed, made, published, public_rows,
                          walkovers)


def kept_view(event: Event) -> TournamentView:
    """The view as the boards keep it (`boards`): derived again only when a row it reads changed, its
    rows plain copies (columns, no relationships). For pages that only read it: a team's page,
    refreshed by each of 128 phones on every signature, costs 2 ms then, not 17."""
    return boards.board_view(event, view)


def _placeholder(b: fmt.Bracket, m: fmt.Match, side: int) -> str:
    if m.feeds is None:
        return "?"
    feeder = m.feeds[side]
    label = b.match(feeder).level
    return (M("loser of %(level)s %(match)s", level=label, match=feeder) if m.level == "Third place" else
            M("winner of %(level)s %(match)s", level=label, match=feeder))


# --------------------------------------------------------------------------- the director's actions


def _atomic(action: Any) -> Any:
    """Run a director's action as one transaction: a refusal half-way leaves nothing applied."""
    try:
        return action()
    except RuleErrors:
        db.session.rollback()
        raise


def start(event: Event, rounds_wanted: int | None = None) -> None:
    """Close registration, set the tables (one per two teams) and draw round 1.

    Every preliminary round is drawn here first (the draws depend only on the teams and the seed),
    so a number of rounds the teams cannot play is refused now, not half-way through the event."""
    if event.started_at is not None:
        raise RuleErrors([RuleError("start", M("the tournament has already started"))])
    waiting = registration.singles(event)
    if waiting:
        who = ", ".join(e.name for e in waiting)
        raise RuleErrors([RuleError("start", M("pair the single players first: %(players)s", players=who)
                                    if len(waiting) > 1 else M("pair the single player first: %(players)s",
                                                               players=who))])
    count = len(teams(event))
    if count < 2:
        raise RuleErrors([RuleError("start", M("register at least two teams first"))])
    planned = rounds(event) if rounds_wanted is None else rounds_wanted
    if not 1 <= planned <= 8:
        raise RuleErrors([RuleError("rounds", M("play 1 to 8 preliminary rounds (the document plays 3)"))])
    fmt.check_rounds(_numbers(event), str(event.options["seed"]), planned)

    def apply() -> None:
        if planned != rounds(event):
            event.options = {**event.options, "rounds": planned}
        registration.close(event)
        event.tables = [EventTable(number=n, team="") for n in range(1, (count + 1) // 2 + 1)]
        event.current_hand = 1
        db.session.flush()
        _open_round(event, 1)
        seed = event.options["seed"]
        event.audit.append(core.audit_entry("director", "started", note=M(
            "registration closed with %(count)s teams, %(rounds)s rounds; round 1 drawn from seed %(seed)s (the "
            "control room shows the order drawn)", count=count, rounds=planned, seed=seed) if planned > 1 else M(
            "registration closed with %(count)s teams, 1 round; round 1 drawn from seed %(seed)s (the control room "
            "shows the order drawn)", count=count, seed=seed)))
        db.session.commit()

    _atomic(apply)


def _open_round(event: Event, number: int) -> None:
    draw = _draws(event, number)[-1]
    for seat in draw.seats:
        matches.open_match(event, "round", number, seat.table, seat.home, seat.away, game_options(event))


def advance(event: Event) -> None:
    """Draw the next preliminary round, or, after the last, set the bracket and open its first matches."""
    tv = view(event)
    if tv.stage != "round":
        raise RuleErrors([RuleError("advance", M("the preliminary rounds are over"))])
    if not all(m.final for m in tv.current):
        tables = ", ".join(str(t) for t in tv.waiting)
        raise RuleErrors([RuleError("advance", M("wait for every sheet of this round to be final (signed by both "
                                                 "teams, or made final by you): tables %(tables)s", tables=tables)
                                    if len(tv.waiting) > 1 else
                                    M("wait for every sheet of this round to be final (signed by both teams, or "
                                      "made final by you): table %(tables)s", tables=tables))])
    if tv.round == tv.rounds and tv.cut is not None and tv.cut.playoff:
        raise RuleErrors([RuleError("advance", M("record the playoff for the last place in the bracket first"))])
    nxt = event.current_hand + 1
    if nxt <= rounds(event):
        try:
            _draws(event, nxt)  # refused before anything changes
        except RuleErrors as e:
            raise RuleErrors([RuleError("advance", e.errors[0].message)]) from None

    def apply() -> None:
        event.current_hand = nxt
        event.revision += 1
        if nxt <= rounds(event):
            _open_round(event, nxt)
            words = M("round %(number)s drawn from seed %(seed)s (the control room shows the order drawn)", number=nxt,
                      seed=event.options["seed"])
        else:
            db.session.flush()
            _open_ready(event)
            words = M("the bracket is set")
        event.audit.append(core.audit_entry("director", "advanced", note=words))
        db.session.commit()

    _atomic(apply)


def _open_ready(event: Event) -> None:
    """Open every bracket match whose two teams are known and that has no game yet."""
    db.session.flush()
    db.session.expire(event, ["matches"])
    state = view(event).bracket_state
    if state is None:
        return
    opened = {m.number for m in event.matches if m.stage == "bracket"}
    for m in state.matches:
        if m.ready and m.number not in opened:
            home, away = m.teams
            assert home is not None and away is not None
            matches.open_match(event, "bracket", m.number, m.table, home, away, game_options(event))


def record_cut(event: Event, winners: list[int]) -> None:
    """The one-game playoff at the cut: its winner(s) go into the bracket."""
    tv = view(event)
    if tv.cut is None or tv.cut_playoff is None:
        raise RuleErrors([RuleError("cut", M("no playoff is needed now"))])
    fmt.check_playoff(tv.cut, winners)
    event.decisions.append(EventDecision(kind="cut", key="1", data={"winners": sorted(winners)}))
    event.audit.append(core.audit_entry("director", "playoff", note=M(
        "won the playoff for the bracket: %(teams)s", teams=joined([tv.names[n] for n in winners]))))
    db.session.commit()


def publish(event: Event, round_no: int) -> None:
    """Hidden standings: show the players the standings as they are after round `round_no`."""
    tv = view(event)
    if not tv.hidden:
        raise RuleErrors([RuleError("publish", M("the standings are not hidden: the players see them already"))])
    if tv.stage != "round":
        raise RuleErrors([RuleError("publish", M("the preliminary rounds are over: the standings are public now"))])
    if round_no <= tv.published:
        raise RuleErrors([RuleError("publish", M("the standings after round %(number)s are already published",
                                                 number=round_no))])
    if round_no != tv.round:
        raise RuleErrors([RuleError("publish", M("round %(number)s is not the round in play (round %(current)s is)",
                                                 number=round_no, current=tv.round))])
    if not all(m.final for m in tv.current):
        tables = ", ".join(str(t) for t in tv.waiting)
        raise RuleErrors([RuleError("publish", M("wait for every sheet of round %(number)s to be final: tables "
                                                 "%(tables)s", number=round_no, tables=tables)
                                    if len(tv.waiting) > 1 else
                                    M("wait for every sheet of round %(number)s to be final: table %(tables)s",
                                      number=round_no, tables=tables))])
    event.decisions.append(EventDecision(kind="publish", key=str(round_no), data={"round": round_no}))
    event.audit.append(core.audit_entry("director", "published", note=M(
        "the standings after round %(number)s are shown to the players", number=round_no)))
    db.session.commit()


def walkover(event: Event, match_no: int, winner: int, reason: str) -> None:
    """A no-show with no team to swap in: the team present goes through, no hands played."""
    tv = view(event)
    if tv.bracket_state is None:
        raise RuleErrors([RuleError("walkover", M("the bracket is not set yet"))])
    fmt.check_walkover(tv.bracket_state, match_no, winner)
    if tv._played(match_no):
        raise RuleErrors([RuleError("walkover", M("match %(number)s has started: finish it, or make its sheet final",
                                                  number=match_no))])
    played = next((m for m in event.matches if m.stage == "bracket" and m.number == match_no), None)
    if played is None:
        raise RuleErrors([RuleError("walkover", M("match %(number)s is not at its table yet", number=match_no))])
    reason = " ".join(reason.split())[:200] or NO_SHOW

    def apply() -> None:
        event.decisions.append(EventDecision(kind="walkover", key=str(match_no),
                                             data={"match": match_no, "winner": winner, "reason": reason}))
        matches.walkover(played)
        event.audit.append(core.audit_entry("director", "walkover", table=played.table, note=M(
            "%(match)s: %(team)s go through by a walkover (%(reason)s)", match=tv.match_label(match_no),
            team=tv.names[winner], reason=_reason({"reason": reason}))))
        _open_ready(event)
        db.session.commit()

    _atomic(apply)


def swap(event: Event, match_no: int, out: int, into: int, reason: str) -> None:
    """A team takes a no-show's place in a bracket match not yet played; kept in the bracket's history."""
    tv = view(event)
    if tv.bracket_state is None:
        raise RuleErrors([RuleError("swap", M("the bracket is not set yet"))])
    if into not in tv.names or into == matches.GHOST:
        raise RuleErrors([RuleError("swap", M("there is no team number %(number)s", number=into))])
    reason = " ".join(reason.split())[:200] or NO_SHOW
    change = fmt.Swap(match_no, out, into, reason)
    fmt.check_swap(tv.bracket_state, change)
    if tv._played(match_no):
        raise RuleErrors([RuleError("swap", M("match %(number)s has started: its teams cannot change",
                                              number=match_no))])
    count = sum(1 for d in event.decisions if d.kind == "swap")
    event.decisions.append(EventDecision(kind="swap", key=str(count + 1),
                                         data={"match": match_no, "out": out, "in": into, "reason": reason}))
    played = next((m for m in event.matches if m.stage == "bracket" and m.number == match_no), None)
    if played is not None:  # its game was opened with the old team: swap the side's name and players
        entrant = next(e for e in event.entrants if e.number == into)
        side = 0 if played.home == out else 1
        if side == 0:
            played.home = into
        else:
            played.away = into
        if played.game is not None:
            sides = list(played.game.teams)
            sides[side] = matches.team_record(entrant, into)
            played.game.teams = sides
    event.audit.append(core.audit_entry("director", "swap", note=M(
        "%(match)s: %(team)s in for %(out)s (%(reason)s)", match=tv.match_label(match_no), team=tv.names[into],
        out=tv.names.get(out, out), reason=_reason({"reason": reason}))))
    db.session.commit()


# --------------------------------------------------------------------------- a restored event


def _option_errors(options: dict[str, Any]) -> list[RuleError]:
    checks: dict[str, tuple[Any, Message]] = {
        "rounds": (lambda v: isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 8,
                   M("%(option)s must be %(least)s to %(most)s rounds", option="rounds", least=1, most=8)),
        "bracket": (lambda v: v in dict(BRACKETS),
                    M("%(option)s must be one of %(choices)s", option="bracket",
                      choices=", ".join(k for k, _ in BRACKETS))),
        "made_scores": (lambda v: v in ("books", "bid"),
                        M("%(option)s must be %(books)s or %(bid)s", option="made_scores", books='"books"',
                          bid='"bid"')),
        "hidden": (lambda v: isinstance(v, bool), M("%(option)s must be true or false", option="hidden")),
        "seed": (lambda v: isinstance(v, str) and 0 < len(v) <= 64,
                 M("%(option)s must be text of %(least)s to %(most)s characters", option="seed", least=1, most=64)),
        registration.ISSUED: (lambda v: isinstance(v, int) and not isinstance(v, bool)
                              and 0 <= v <= registration.NUMBERS_MAX,
                              M("%(option)s must be a whole number from %(least)s to %(most)s",
                                option=registration.ISSUED, least=0, most=registration.NUMBERS_MAX)),
    }
    errors = [RuleError(f"options.{key_field(k)}", M("%(option)s is not a Bid Whist tournament option",
                                                     option=quoted(k))) for k in options if k not in checks]
    for key, (ok, must_be) in checks.items():
        if key in options and not ok(options[key]):
            errors.append(RuleError(f"options.{key}", must_be))
        elif key not in options and key != registration.ISSUED:
            errors.append(RuleError(f"options.{key}", M("the option %(option)s is missing", option=key)))
    return errors


_DECISIONS: dict[str, tuple[str, ...]] = {"cut": ("winners",), "publish": ("round",), "walkover": ("match", "winner", "reason"),
                                          "swap": ("match", "out", "in", "reason")}


def _decision_errors(event: Event) -> list[RuleError]:
    errors = []
    for d in event.decisions:
        keys = _DECISIONS.get(d.kind)
        if keys is None:
            errors.append(RuleError("decisions", M("%(kind)s is not a decision of a Bid Whist tournament",
                                                   kind=quoted(d.kind))))
        elif sorted(d.data) != sorted(keys) or not all(
                isinstance(d.data[k], str) if k == "reason" else
                (isinstance(d.data[k], list) and all(isinstance(n, int) and not isinstance(n, bool) for n in d.data[k]))
                if k == "winners" else (isinstance(d.data[k], int) and not isinstance(d.data[k], bool)) for k in keys):
            errors.append(RuleError("decisions", M("a %(kind)s decision holds %(keys)s (numbers; a reason as text), "
                                                   "not %(data)s", kind=d.kind, keys=", ".join(keys),
                                                   data=quoted(d.data))))
    return errors


def check_rows(event: Event) -> None:
    """RuleErrors unless the rows are what the tournament's play leaves (a restored backup, see
    events/backup.py): its options, registration until the start, then a table per two teams,
    each round's matches exactly as the seed draws them, the bracket's as the standings seed it,
    every match with its Bid Whist game, and the director's decisions in the shape they are kept."""
    errors = _option_errors(event.options) + _decision_errors(event)
    errors += core.unused(event, "hands", "results", "loans", "playoffs", "days_closed")
    errors += [RuleError("entrants", M("%(name)s…: a single player's name is at most %(most)s characters",
                                       name=e.name[:40], most=registration.MAX_PLAYER))
               for e in registration.singles(event) if len(e.name) > registration.MAX_PLAYER]
    errors += [RuleError("entrants", M("%(player)s plays for %(first)s and for %(second)s: a player's name is theirs "
                                       "alone in a tournament", player=name, first=found[0].name, second=found[1].name))
               for name, found in registration.duplicate_players(event.entrants)]
    registered = len(teams(event)) + (len(registration.singles(event)) + 1) // 2
    if registered > registration.MAX_TEAMS:
        errors.append(RuleError("entrants", M("a tournament has at most %(most)s teams (two single players make "
                                              "one), not %(count)s", most=registration.MAX_TEAMS, count=registered)))
    if errors:
        raise RuleErrors(errors)
    count, last = len(teams(event)), min(event.current_hand, rounds(event))
    if event.started_at is None:
        if event.current_hand or event.tables or event.matches or event.decisions:
            errors.append(RuleError("started_at",
                                    M("a tournament still registering has no tables, rounds or decisions")))
    elif registration.singles(event) or count < 2:
        errors.append(RuleError("entrants", M("a tournament starts with two teams or more, and no single player")))
    elif not 1 <= event.current_hand <= rounds(event) + 1:
        errors.append(RuleError("current_hand", _stage_beyond(event.current_hand, rounds(event))))
    elif len(event.tables) != (count + 1) // 2:
        errors.append(RuleError("tables", M("2 teams play at 1 table, not %(found)s", found=len(event.tables))
                                if count == 2 else
                                M("%(count)s teams play at %(tables)s tables, not %(found)s", count=count,
                                  tables=(count + 1) // 2, found=len(event.tables))))
    else:
        drawn = _draws(event, last)
        for draw in drawn:
            played = sorted((m.table, m.home, m.away) for m in matches.of_stage(event, "round", draw.round))
            if played != sorted((s.table, s.home, s.away) for s in draw.seats):
                errors.append(RuleError("matches", M("round %(round)s's matches are not the draw its seed gives",
                                                     round=draw.round)))
        if any(m.number > last for m in matches.of_stage(event, "round")):
            errors.append(RuleError("matches", M("a match of a round not drawn yet (round %(round)s is in play)",
                                                 round=event.current_hand)))
        if matches.of_stage(event, "bracket") and event.current_hand <= rounds(event):
            errors.append(RuleError("matches", M("bracket matches before the preliminary rounds are over")))
    for m in event.matches:
        if m.game is None or m.game.variant != matches.VARIANT_KEY or m.game.options != game_options(event):
            errors.append(RuleError("matches", M("%(match)s has no Bid Whist game of the tournament's options "
                                                 "(%(options)s)", match=_stage_label(m),
                                                 options=quoted(game_options(event)))))
    if {g.id for g in core.games_of(event)} != {m.game_id for m in event.matches}:
        errors.append(RuleError("games", M("every game of a tournament is a match's")))
    if errors:
        raise RuleErrors(errors)
    state = view(event).bracket_state
    if state is not None:
        known = {x.number: x for x in state.matches}
        for m in matches.of_stage(event, "bracket"):
            b = known.get(m.number)
            if b is None or (m.table, m.home, m.away) != (b.table, *b.teams):
                errors.append(RuleError("matches", M("%(match)s is not the match the bracket sets there",
                                                     match=_stage_label(m))))
    if errors:
        raise RuleErrors(errors)


def _stage_beyond(stage: int, count: int) -> Message:
    """A stage past the tournament's rounds and its bracket, in words (a tournament of one round said apart)."""
    if count == 1:
        return M("stage %(stage)s: a tournament of 1 round is at round 1, or 2 (the bracket)", stage=stage)
    return M("stage %(stage)s: a tournament of %(rounds)s rounds is at round 1 to %(rounds)s, or %(bracket)s "
             "(the bracket)", stage=stage, rounds=count, bracket=count + 1)


def _stage_label(m: EventMatch) -> Message:
    if m.stage == "round":
        return M("round %(number)s, table %(table)s", number=m.number, table=m.table)
    return M("bracket match %(number)s, table %(table)s", number=m.number, table=m.table)


# --------------------------------------------------------------------------- the export


def _iso(moment: Any) -> str | None:
    return moment.isoformat() if moment is not None else None


def export(event: Event) -> dict[str, object]:
    """The whole tournament as JSON: the inputs (entrants, seed, draws, every match's game record,
    signatures, decisions) and what they give (standings, bracket, medals). While the standings
    are hidden, the sheets of rounds not yet published are left out, as on the boards."""
    tv = view(event)
    hidden_after = tv.published if tv.hide_standings else None
    out_matches: list[dict[str, object]] = []
    for v in sorted(tv.views.values(), key=lambda v: (v.match.stage != "round", v.match.number, v.match.table)):
        m = v.match
        row: dict[str, object] = {"stage": m.stage, "number": m.number, "label": tv.match_title(m), "table": m.table,
                                  "home": m.home, "away": m.away}
        if hidden_after is not None and m.stage == "round" and m.number > hidden_after:
            row["hidden"] = True
            out_matches.append(row)
            continue
        walk = tv.walkovers.get(m.number) if m.closed_by == matches.WALKOVER else None
        winner = walk[0] if walk else ((m.home, m.away)[v.outcome.winner] if v.final and v.outcome.winner is not None
                                       else None)
        row.update({"points": list(v.outcome.points), "hands": v.outcome.hands, "final": v.final, "winner": winner,
                    "walkover": {"winner": walk[0], "reason": walk[1]} if walk else None,
                    "signed_home_at": _iso(m.signed_home_at), "signed_away_at": _iso(m.signed_away_at),
                    "closed_by": m.closed_by, "dispute": m.dispute or None,
                    "game": records.record_of(m.game) if m.game is not None else None})
        out_matches.append(row)
    standings = tv.public_standings if tv.hide_standings else tv.standings
    return {
        "scorepad_event": 1,
        "format": KEY,
        "name": event.name,
        "options": {k: v for k, v in event.options.items() if k != "seed"},
        "seed": tv.seed,
        "stage": tv.stage,
        "entrants": [{"number": e.number, "name": e.name, "players": list(e.players)} for e in event.entrants],
        "draws": [{"round": d.round, "order": list(d.order),
                   "tables": [{"table": s.table, "home": s.home, "away": s.away} for s in d.seats]} for d in tv.draws],
        "matches": out_matches,
        "decisions": [{"kind": d.kind, "key": d.key, "data": d.data, "actor": d.actor, "at": _iso(d.at)}
                      for d in event.decisions],
        "standings": [{"rank": r.rank, "tied": r.tied, "number": r.number, "name": r.name,
                       "rounds_won": r.rounds_won, "points": r.points, "note": r.note} for r in standings],
        "standings_hidden": tv.hide_standings,
        "bracket": [{"number": m.number, "level": m.level, "teams": list(m.teams), "table": m.table,
                     "winner": m.winner} for m in (tv.bracket_state.matches if tv.bracket_state else ())],
        "medals": [{"medal": medal, "team": name} for medal, name in tv.medals],
    }


class _BidWhist(OneView):
    """Bid Whist tournaments behind the registry (see `events.registry`)."""

    key, title, pages, view_name = KEY, "Bid Whist tournament", "bid_whist", "tv"
    keeps_board = True  # `board` gives the same view object while nothing on it changed (views/board.py)

    def view(self, event: Event) -> TournamentView:
        return view(event)

    def room(self, event: Event) -> dict[str, object]:
        """The view, and the teams locked out of their code on a sheet (by the clock: never kept)."""
        return {self.view_name: view(event), "code_locks": matches.code_locks(event)}

    def board(self, event: Event) -> dict[str, object]:
        """The boards' view, kept while the rows it is derived from are unchanged (`boards`)."""
        return {self.view_name: kept_view(event)}

    def table(self, table: EventTable) -> TablePage:
        """The match in play at the table (its game's scoring page), else what comes next there."""
        tv = view(table.event)
        match = tv.match_at(table.number)
        game = match.match.game if match is not None and not match.final else None
        return TablePage({"tv": tv, "match": match}, game=game)

    def teams(self, event: Event) -> list[EventEntrant]:
        return teams(event)

    def export(self, event: Event) -> dict[str, object]:
        return export(event)

    def check(self, event: Event) -> None:
        """As `OneView.check`, the board's view derived but not kept: the rows are not committed yet."""
        check_rows(event)
        boards.detached(self.room(event)[self.view_name])
        self.export(event)

    def forget(self, event_id: int, game_ids: Sequence[int]) -> None:
        matches.forget_outcomes(game_ids)

    def status(self, event: Event) -> str:
        return view(event).status_title


FORMAT = _BidWhist()
