"""Score sheets: the grammar of a sheet line and the reader that turns a sheet into hands.

:func:`read_sheet` / :func:`parse_sheet` read a sheet into a :class:`Sheet` of
:class:`~ginref.game.HandEntry` values, which :mod:`ginref.game` scores.

Score sheets (one line each; ``#`` starts a comment; keywords in any case)::

    players: Ann Bo          # required before the first hand (or players=...)
    rules: standard          # optional; the rules= argument (CLI --rules) wins
    dealer: Bo               # optional first dealer
    Ann knock 6 15           # knocker's deadwood, defender's after layoffs -> settle()
    Bo knock 8 5             # an undercut: 13 to Ann under standard
    Bo gin 22                # the opponent's deadwood only
    Ann big_gin 30           # only where the rules recognise big gin
    Ann wins 25 [undercut]   # points as scored elsewhere; outcome knock (default),
                             # gin, big_gin or undercut (for Oklahoma extra boxes)
    Bo undercut 8 5          # the same hand, said by the one who undercut (counts in any order)
    void                     # nobody scores
    Ann knock 6 15 spade     # flags: spade (a doubled Oklahoma hand) and/or
    Ann knock 6 15 upcard 7S # upcard CARD (sets the Oklahoma knock limit and doubling)

Players write the same lines in other ways, and these read the same:
``players: Ann, Bo`` (or ``&``, ``and``, ``vs``), ``knocks``/``knocked``,
``gins``/``ginned``, ``big gin``/``big-gin``, ``win``/``won``, ``undercuts``,
and ``6 - 15``, ``6-15``, ``6/15``, ``6 to 15`` between a knock's counts
(``6 -15`` is a negative count, an error).

Headers come before the first hand, once each. A hand line is checked
against the rules: a knock over the knock limit or with no deadwood, big gin
where it is not a rule, a second count after gin, ``spade`` without spade
doubling, a hand after the end of the game are all errors, each a
:class:`~ginref.errors.RecordError` with its line and column. Points of a
``wins`` line are taken as written (``spade`` there only marks the boxes).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import msgspec
import pyparsing as pp

from ginref.cards import card_name, suit_of
from ginref.errors import NotationError, RecordError, RulingError, UnknownRulesError
from ginref.game import (
    HOLLYWOOD_GAMES,
    MAX_NAME,
    GameError,
    GameTally,
    HandEntry,
    HollywoodTally,
    Scorer,
    checked_players,
    hollywood,
    named_players,
    other_player,
    tally,
)
from ginref.notation import SEPARATORS, excerpt, parse_card, placeless
from ginref.rules import STANDARD, Rules, find_rules, parse_number, with_overrides
from ginref.scoring import Ending, settle

__all__ = [
    "SHEET_KEYWORDS",
    "Sheet",
    "SheetHand",
    "SheetToken",
    "parse_sheet",
    "read_sheet",
    "sheet_line_expr",
    "sheet_name_expr",
]

# -- the grammar of one line ---------------------------------------------------------------
# The reader below builds the sheet (players, rules, hand entries) from the parsed
# lines, so every error has its line and column:
#
#   line     ::= [header | "void" | hand] [comment]
#   header   ::= "players" ":" name name | "rules" ":" rules_name | "dealer" ":" name
#   hand     ::= name result flag*
#   result   ::= "knock" count [sep] count          knocker's deadwood, defender's after layoffs
#              | "undercut" count [sep] count       by the defender; the higher count is the knocker's
#              | ("gin" | "big_gin") count [count]  opponent's deadwood (a 2nd count is an error)
#              | "wins" count [outcome]             points as scored elsewhere
#   outcome  ::= "knock" | "gin" | "big_gin" | "undercut"
#   flag     ::= "spade" | "upcard" card            (the card word is read by ``parse_card``)
#   name     ::= letters, digits and "_", not starting with a digit; inner "-", "'" or "."
#                allowed; never a keyword
#   count    ::= ["+" | "-"] digit+                 (ASCII digits, signed so that "-3" gets a
#                                                   clear error)
#   sep      ::= "-" | "/" | ":" | "to"            (a "-" touching the next count is its sign)
#   comment  ::= "#" to the end of the line
#
# Each keyword also reads in the forms of ``_SHEET_FORMS`` (``knocks``, ``big gin``);
# "players:" takes an optional ",", "&", "and" or "vs" between the names.
#
# Keywords are case-insensitive, names are not. Results: ``header``, ``first``,
# ``second``, ``value``, ``void``, ``player``, ``ending``, ``knocker``,
# ``defender``, ``extra``, ``points``, ``outcome`` (each a ``SheetToken``), and
# ``flags`` (groups of ``flag`` and, for "upcard", ``card``).


class SheetToken(msgspec.Struct, frozen=True):
    """A word of a score-sheet line and where it starts (0-based offset in the line)."""

    loc: int
    text: str


SHEET_KEYWORDS = (
    "players", "rules", "dealer", "void", "knock", "gin", "big_gin", "wins", "undercut",
    "spade", "upcard",
)

_SHEET_FORMS = {
    "knock": r"knock(?:s|ed)?",
    "gin": r"gin(?:s|ned)?",
    "big_gin": r"big[ _-]?gin(?:s|ned)?",
    "wins": r"wins?|won",
    "undercut": r"undercuts?",
}
"""The ways players write each result word (``Maria knocks``, ``Tom undercut``, ``big gin``)."""


def _sheet_token(s: str, loc: int, toks: pp.ParseResults) -> SheetToken:
    return SheetToken(loc, toks[0])


def _sheet_word(word: str) -> pp.ParserElement:
    """A keyword in any case, read as its canonical spelling whichever form was written."""
    pattern = rf"(?:{_SHEET_FORMS.get(word, re.escape(word))})(?!\w)"

    def canonical(s: str, loc: int, toks: pp.ParseResults) -> SheetToken:
        return SheetToken(loc, word)

    return pp.Regex(pattern, flags=re.IGNORECASE).set_parse_action(canonical).set_name(repr(word))


_SHEET_KEYWORD_RE = "|".join(_SHEET_FORMS.get(word, word) for word in SHEET_KEYWORDS)
sheet_name_expr = (
    pp.Regex(rf"(?!(?i:{_SHEET_KEYWORD_RE})(?!\w))[^\W\d]\w*(?:['.-]\w+)*")
    .set_parse_action(_sheet_token)
    .set_name("player name")
)
sheet_count_expr = pp.Regex(r"[+-]?[0-9]+(?![\w.])").set_parse_action(_sheet_token).set_name("count")
_count_separator = pp.Suppress(pp.Regex(r"(?<=[0-9])-|-(?=\s|$)|[/:\u2013\u2014]|to(?!\w)"))
"""between a knock's two counts: ``4 - 22``, ``4-22``, ``4/22`` (but ``4 -22`` is a negative count)"""
_rules_name = pp.Regex(r"[\w-]+").set_parse_action(_sheet_token).set_name("rule set name")
_sheet_card_word = pp.Regex(r"[^\s#]+").set_parse_action(_sheet_token).set_name("card")
_colon = pp.Suppress(":").set_name("':'")
_end_of_line = pp.StringEnd().set_name("end of line")
_name_separator = pp.Suppress(pp.Regex(r"[,&]|(?i:and|vs\.?)(?!\w)"))
"""between the two players: ``players: Maria, Tom``, ``Maria & Tom``, ``Maria and Tom``"""

_sheet_header = (
    (_sheet_word("players")("header") - _colon - sheet_name_expr("first")
     - ((_name_separator + sheet_name_expr("second")) | sheet_name_expr("second")).set_name("player name"))
    | (_sheet_word("rules")("header") - _colon - _rules_name("value"))
    | (_sheet_word("dealer")("header") - _colon - sheet_name_expr("value"))
).set_name("header")
_sheet_outcome = (
    _sheet_word("knock") | _sheet_word("gin") | _sheet_word("big_gin") | _sheet_word("undercut")
).set_name("outcome")


def _two_counts(first: str, second: str) -> pp.ParserElement:
    later = sheet_count_expr(second).set_name(f"{second}'s deadwood")
    return (sheet_count_expr(first).set_name(f"{first}'s deadwood")
            - ((_count_separator + later) | later).set_name(f"{second}'s deadwood"))


_sheet_result = (
    (_sheet_word("knock")("ending") - _two_counts("knocker", "defender"))
    | (_sheet_word("undercut")("ending") - _two_counts("knocker", "defender"))
    | ((_sheet_word("big_gin") | _sheet_word("gin"))("ending")
       - sheet_count_expr("defender").set_name("opponent's deadwood")
       + pp.Opt(sheet_count_expr("extra")))
    | (_sheet_word("wins")("ending") - sheet_count_expr("points").set_name("points")
       + pp.Opt(_sheet_outcome("outcome")))
).set_name("'knock', 'gin', 'big_gin', 'undercut' or 'wins'")
_sheet_flag = pp.Group(
    _sheet_word("spade")("flag")
    | (_sheet_word("upcard")("flag") - _sheet_card_word("card"))
).set_name("flag")
_sheet_hand = (
    sheet_name_expr("player") - _sheet_result
    - pp.Group(pp.ZeroOrMore(_sheet_flag))("flags")
    - pp.StringEnd().set_name("'spade', 'upcard CARD' or end of line")
)
sheet_line_expr = (
    (_sheet_header - _end_of_line)
    | (_sheet_word("void")("void") - _end_of_line)
    | _sheet_hand
    | _end_of_line
).set_name("'players:', 'rules:', 'dealer:', 'void' or a player name").ignore(
    pp.python_style_comment
).parse_with_tabs()
"""One score-sheet line (parse one line at a time, so columns are the line's)."""


# -- the sheet ----------------------------------------------------------------------------


class SheetHand(msgspec.Struct, frozen=True):
    """A hand line of a score sheet and the entry it comes to."""

    entry: HandEntry
    line: int
    column: int
    text: str
    """the line as written, without its comment"""

    def to_dict(self) -> dict[str, object]:
        return {"line": self.line, "column": self.column, "text": self.text, **self.entry.to_dict()}


class Sheet(msgspec.Struct, frozen=True):
    """A score sheet read: who played, under which rules, and one entry per hand.

    ``players`` is ``None`` only for a sheet read with ``keep_going`` that names
    no players (the error is reported; scoring it raises :class:`GameError`).
    ``hollywood`` says how :meth:`score` scores it.
    """

    players: tuple[str, str] | None
    rules: Rules
    first_dealer: str | None
    hands: tuple[SheetHand, ...]
    hollywood: bool = False
    source: str = ""
    rules_name: str | None = None
    """the rule set named on the sheet's ``rules:`` line, as written"""

    @property
    def entries(self) -> tuple[HandEntry, ...]:
        return tuple(hand.entry for hand in self.hands)

    def _players(self) -> tuple[str, str]:
        if self.players is None:
            raise GameError("the sheet names no players")
        return self.players

    def tally(self) -> GameTally:
        """The sheet scored as one game."""
        return tally(self._players(), self.entries, self.rules, self.first_dealer)

    def hollywood_tally(self) -> HollywoodTally:
        """The sheet scored as three Hollywood games."""
        return hollywood(self._players(), self.entries, self.rules, self.first_dealer)

    def score(self) -> GameTally | HollywoodTally:
        """:meth:`hollywood_tally` for a Hollywood sheet, else :meth:`tally`."""
        return self.hollywood_tally() if self.hollywood else self.tally()

    def to_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            "players": list(self.players) if self.players else None,
            "rules": self.rules.label,
            "first_dealer": self.first_dealer,
            "hollywood": self.hollywood,
            "hands": [hand.to_dict() for hand in self.hands],
        }


class _LineError(Exception):
    """A problem with one sheet line; ``loc`` is the 0-based offset in the line."""

    def __init__(self, message: str, loc: int) -> None:
        super().__init__(message)
        self.message = message
        self.loc = loc


def _syntax_message(exc: pp.ParseBaseException, line: str) -> tuple[str, int]:
    """A one-line message and 1-based column for a line the grammar rejects."""
    rest = line[exc.loc:]
    loc = exc.loc + len(rest) - len(rest.lstrip())
    found = line[loc:].split(maxsplit=1)[0] if line[loc:].strip() else ""
    if found.startswith(":") and loc and not line[:loc].strip().count(" "):
        header = line[:loc].strip()
        return f"unknown header {excerpt(header)}; expected 'players:', 'rules:' or 'dealer:'", 1
    message = exc.msg
    if message.startswith("Expected "):
        message = "expected " + message[len("Expected "):]
    message += f", found {excerpt(found)}{_near(found, message)}" if found else ", found end of line"
    return message, loc + 1


def _near(found: str, expected: str) -> str:
    """``; did you mean 'knock'?`` when one of the words quoted in ``expected`` is close to
    the word ``found``, as for a rule set's name."""
    import difflib  # only a misspelt word needs it

    words = re.findall(r"'([a-z_]+)'", expected)
    close = difflib.get_close_matches(found.lower(), words, n=1) if len(found) <= 40 else []
    return f"; did you mean {close[0]!r}?" if close else ""


_NAME_ONLY = sheet_name_expr + pp.StringEnd()


def _check_sheet_name(name: str) -> None:
    try:
        _NAME_ONLY.parse_string(name)
    except pp.ParseBaseException:
        raise GameError(f"{excerpt(name)} cannot be a player name on a score sheet") from None
    if len(name) > MAX_NAME:
        raise GameError(f"player names on a sheet have at most {MAX_NAME} characters, "
                        f"not {len(name)}")


class _SheetReader:
    """Reads a sheet line by line (private and mutable; the result is a frozen Sheet)."""

    def __init__(
        self,
        source: str,
        rules: Rules | None,
        overrides: Mapping[str, object] | None,
        players: tuple[str, str] | None,
        hollywood: bool | None,
        keep_going: bool,
        default_rules: Rules | None = None,
    ) -> None:
        self.source = source
        self.given_rules = rules
        self.default_rules = default_rules
        self.overrides = dict(overrides or {})
        self.given_players = players
        self.given_hollywood = hollywood
        self.keep_going = keep_going
        self.errors: list[RecordError] = []
        self.seen: dict[str, int] = {}
        self.sheet_players: tuple[str, str] | None = None
        self.sheet_rules: Rules | None = None
        self.rules_name: str | None = None
        self.dealer: tuple[str, int, int] | None = None
        self.first_hand_line = 0
        self.finalized = False
        self.rules = STANDARD
        self.players: tuple[str, str] | None = None
        self.first_dealer: str | None = None
        self.hollywood = False
        self.hands: list[SheetHand] = []
        self.over_at: int = 0
        self.scorer: Scorer | None = None
        """line of the hand that ended the game (or match), 0 while it is on"""

    def report(self, message: str, line: int, column: int) -> None:
        error = RecordError(message, self.source, line, column)
        if not self.keep_going:
            raise error
        self.errors.append(error)

    def read(self, text: str) -> Sheet:
        for number, written in enumerate(_lines(text), 1):
            line = written.translate(_SPACES)
            if not line.partition("#")[0].strip():
                continue  # blank or only a comment: nothing for the grammar to do
            try:
                result = sheet_line_expr.parse_string(line)
            except pp.ParseBaseException as exc:
                message, column = _syntax_message(exc, line)
                self.report(message, number, column)
                continue
            try:
                if "header" in result:
                    self.header(result, number)
                elif "void" in result:
                    self.add(number, line, result["void"].loc, HandEntry(None, 0, "void"))
                elif "player" in result:
                    self.hand(result, number, line)
            except _LineError as exc:
                self.report(exc.message, number, exc.loc + 1)
        if not self.finalized:
            self.finalize(0)
        return Sheet(
            self.players, self.rules, self.first_dealer, tuple(self.hands), self.hollywood,
            self.source, self.rules_name,
        )

    # -- headers ---------------------------------------------------------------

    def header(self, result: pp.ParseResults, number: int) -> None:
        keyword: SheetToken = result["header"]
        kind = keyword.text.lower()
        if self.finalized:
            raise _LineError(
                f"'{kind}:' must come before the first hand (line {self.first_hand_line})",
                keyword.loc,
            )
        if kind in self.seen:
            first_line = self.seen[kind]
            raise _LineError(f"'{kind}:' is given twice (first on line {first_line})", keyword.loc)
        self.seen[kind] = number
        if kind == "players":
            first: SheetToken = result["first"]
            second: SheetToken = result["second"]
            for word in (first, second):
                if len(word.text) > MAX_NAME:
                    raise _LineError(f"player names have at most {MAX_NAME} characters, "
                                     f"not {len(word.text)}", word.loc)
            if first.text == second.text:
                raise _LineError(
                    f"the two players need different names, got {first.text!r} twice", second.loc
                )
            self.sheet_players = (first.text, second.text)
        elif kind == "rules":
            value: SheetToken = result["value"]
            try:
                self.sheet_rules = find_rules(value.text)
            except UnknownRulesError as exc:
                raise _LineError(str(exc), value.loc) from None
            self.rules_name = value.text
        else:
            name: SheetToken = result["value"]
            self.dealer = (name.text, number, name.loc)

    def finalize(self, number: int) -> None:
        """Settle rules, players and dealer: at the first hand line (``number``) or the end."""
        self.finalized = True
        self.first_hand_line = number
        rules = self.given_rules or self.sheet_rules or self.default_rules or STANDARD
        self.rules = with_overrides(rules, self.overrides) if self.overrides else rules
        self.players = self.given_players or self.sheet_players
        self.hollywood = (
            self.given_hollywood if self.given_hollywood is not None
            else self.rules.hollywood_columns == HOLLYWOOD_GAMES
        )
        if self.dealer is not None:
            name, line, loc = self.dealer
            if self.players is not None and name not in self.players:
                message = f"unknown dealer {excerpt(name)}; the players are {named_players(self.players)}"
                self.report(message, line, loc + 1)
            else:
                self.first_dealer = name
        if self.players is None and number:
            message = "no players: add a 'players: NAME NAME' line before the first hand"
            self.report(message, number, 1)
        self.scorer = self.new_scorer()

    def new_scorer(self) -> Scorer | None:
        """What tells :meth:`add` at once that the game is over: one hand at a time, linear."""
        if self.players is None:
            return None
        try:
            return Scorer(self.players, self.rules, self.first_dealer, hollywood=self.hollywood)
        except GameError:  # e.g. Hollywood with a one-hand rule set: reported when scored
            return None

    # -- hands -----------------------------------------------------------------

    def hand(self, result: pp.ParseResults, number: int, line: str) -> None:
        if not self.finalized:
            self.finalize(number)
        if self.players is None:
            return
        rules = self.rules
        who: SheetToken = result["player"]
        player = who.text
        if player not in self.players:
            raise _LineError(
                f"unknown player {excerpt(player)}; the players are {named_players(self.players)}", who.loc
            )
        other = other_player(self.players, player)
        spade: SheetToken | None = None
        upcard_word: SheetToken | None = None
        upcard = None
        for group in result["flags"]:
            flag: SheetToken = group["flag"]
            if (spade if flag.text == "spade" else upcard_word) is not None:
                raise _LineError(f"{flag.text!r} is given twice", flag.loc)
            if flag.text == "spade":
                spade = flag
                continue
            upcard_word = group["card"]
            try:
                upcard = parse_card(upcard_word.text)
            except NotationError as exc:
                raise _LineError(placeless(str(exc)), upcard_word.loc + max(exc.column - 1, 0)) from None
        if spade is not None and not rules.spade_double:
            raise _LineError(
                f"'spade' marks a doubled hand, but spade doubling is off in {rules.label}",
                spade.loc,
            )
        if spade is not None and upcard is not None and suit_of(upcard) != _SPADES:
            raise _LineError(f"'spade' contradicts the upcard {card_name(upcard)}", spade.loc)
        multiplier = 2 if spade is not None or rules.is_spade_doubled(upcard) else 1
        ending_word: SheetToken = result["ending"]
        ending = ending_word.text
        if ending == "wins":
            points = _count(result["points"], "points")
            outcome_word: SheetToken | None = _optional(result, "outcome")
            outcome = outcome_word.text if outcome_word is not None else "knock"
            if outcome == "big_gin" and not rules.recognises_big_gin:
                assert outcome_word is not None
                raise _LineError(_no_big_gin(rules), outcome_word.loc)
            knocker = other if outcome == "undercut" else player
            entry = HandEntry(player, points, outcome, knocker, multiplier)
        else:
            entry = self.settled(result, player, other, ending_word, upcard, multiplier)
        self.add(number, line, who.loc, entry)

    def settled(
        self,
        result: pp.ParseResults,
        player: str,
        other: str,
        ending_word: SheetToken,
        upcard: int | None,
        multiplier: int,
    ) -> HandEntry:
        rules = self.rules
        undercut = ending_word.text == "undercut"
        ending: Ending = "knock" if ending_word.text in ("knock", "undercut") else (
            "gin" if ending_word.text == "gin" else "big_gin"
        )
        defender_word: SheetToken = result["defender"]
        if ending == "knock":
            knocker_word: SheetToken = result["knocker"]
            k = _count(knocker_word, "deadwood")
            d = _count(defender_word, "deadwood")
            if undercut:  # 'Tom undercut 7 5': Tom defended; the higher count is the knocker's
                player, other = other, player
                k, d = max(k, d), min(k, d)
            limit = rules.knock_limit_for(upcard)
            if k == 0:
                raise _LineError(
                    f"a knock with no deadwood is gin: write '{player} gin {d}'", ending_word.loc
                )
            if limit == 0:
                why = (f"the upcard {card_name(upcard)} allows gin only" if upcard is not None
                       and rules.knock_limit else f"only gin ends a hand in {rules.label}")
                raise _LineError(f"no knocking: {why}", ending_word.loc)
            if k > limit:
                by = f" set by the upcard {card_name(upcard)}" if (
                    upcard is not None and rules.oklahoma != "off") else ""
                raise _LineError(
                    f"a knock with {k} is over the knock limit {limit}{by}", knocker_word.loc
                )
        else:
            extra: SheetToken | None = _optional(result, "extra")
            if extra is not None:
                raise _LineError(
                    f"{ending} takes only the opponent's deadwood: write "
                    f"'{player} {ending} {extra.text}'",
                    defender_word.loc,
                )
            k = 0
            d = _count(defender_word, "deadwood")
            if ending == "big_gin" and not rules.recognises_big_gin:
                raise _LineError(_no_big_gin(rules), ending_word.loc)
        try:
            settlement = settle(ending, k, d, rules, multiplier=multiplier)
        except RulingError as exc:  # pragma: no cover - the checks above come first
            raise _LineError(str(exc), ending_word.loc) from None
        if undercut and settlement.outcome.value != "undercut":
            raise _LineError(
                f"{k} against {d} is not an undercut in {rules.label} (tie_policy = {rules.tie_policy}): "
                f"write '{player} knock {k} {d}'", ending_word.loc,
            )
        side = settlement.winner
        winner = player if side == "knocker" else other if side == "defender" else None
        return HandEntry(winner, settlement.points, settlement.outcome.value, player, multiplier)

    def add(self, number: int, line: str, loc: int, entry: HandEntry) -> None:
        if not self.finalized:
            self.finalize(number)
        if self.players is None:
            return
        if self.over_at:
            what = "Hollywood match" if self.hollywood else "game"
            raise _LineError(
                f"hand {len(self.hands) + 1} comes after the end of the {what}"
                f" (hand {len(self.hands)}, line {self.over_at})",
                loc,
            )
        try:
            over = self.scorer is not None and self.scorer.add(entry)
        except GameError as exc:  # points past MAX_NUMBER, from counts just below it
            raise _LineError(str(exc), loc) from None
        text = line.split("#", 1)[0].rstrip()
        self.hands.append(SheetHand(entry, number, loc + 1, text))
        if over:
            self.over_at = number


_SPADES = 3


def _no_big_gin(rules: Rules) -> str:
    return (f"big gin is not a rule in {rules.label}: score the sheet under rules that have it "
            "('rules: hoyle', --rules hoyle) or add it (--set big_gin_bonus=31)")


_SPACES = str.maketrans(dict.fromkeys(SEPARATORS.replace(",", ""), " "))
"""Every character ``str.split`` splits at becomes a space for the grammar, one for one,
so the grammar and the messages skip the same spaces and columns do not move."""


def _lines(text: str) -> list[str]:
    """The lines of ``text``, split at ``\n`` only (as the record reader and editors count
    them); a BOM before line 1 and a ``\r`` before each line end are not part of a line."""
    lines = text.removeprefix("\ufeff").split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


_HEADER_LINE = re.compile(r"\s*(?:players|rules|dealer)\s*[:=]", re.IGNORECASE)


def looks_like_sheet(text: str) -> bool:
    """Whether ``text`` opens as a score sheet does, with a header (``players:``, ``rules:``,
    ``dealer:``) for its first line that is not blank or a comment: for a command given a
    sheet where it reads game records, to say which command reads it."""
    for line in _lines(text[:65536]):
        if line.strip() and not line.lstrip().startswith("#"):
            return _HEADER_LINE.match(line) is not None
    return False


def _optional(result: pp.ParseResults, name: str) -> SheetToken | None:
    if name not in result:
        return None
    word: SheetToken = result[name]
    return word


def _count(word: SheetToken, what: str) -> int:
    value = parse_number(word.text)
    if value is None:
        raise _LineError(f"{what} {excerpt(word.text)} is too large: no game comes near it", word.loc)
    if value < 0:
        raise _LineError(f"{what} cannot be negative: {word.text!r}", word.loc)
    return value


def read_sheet(
    text: str,
    *,
    source: str = "",
    rules: Rules | None = None,
    overrides: Mapping[str, object] | None = None,
    players: tuple[str, str] | None = None,
    hollywood: bool | None = None,
    keep_going: bool = False,
    default_rules: Rules | None = None,
) -> tuple[Sheet, list[RecordError]]:
    """Read a score sheet; return it with the errors found (see the grammar in the module doc).

    ``rules`` replaces the sheet's ``rules:`` line; ``default_rules`` rule a sheet that
    has none (else ``standard``); ``overrides`` (knob -> value) then change knobs of
    whichever applies;
    ``players`` replaces the ``players:`` line; ``hollywood`` forces (or
    refuses) Hollywood scoring, which otherwise follows ``hollywood_columns``.
    Each bad line is a :class:`RecordError` with its line and column; with
    ``keep_going`` every bad line is collected and skipped, otherwise the
    first is raised. A bad override raises :class:`UnknownRulesError` and
    bad ``players`` a :class:`GameError`, in both modes.

    ``text`` is the sheet and ``source`` its name in messages. Returns the
    :class:`Sheet` and the errors.
    """
    if not isinstance(text, str):
        raise RecordError(f"a score sheet is text, not {type(text).__name__}", source)
    if rules is not None and not isinstance(rules, Rules):
        raise UnknownRulesError(f"rules must be a Rules value, not {type(rules).__name__}")
    if players is not None:
        players = checked_players(players, None)
        for name in players:
            _check_sheet_name(name)
    reader = _SheetReader(source, rules, overrides, players, hollywood, keep_going, default_rules)
    sheet = reader.read(text)
    return sheet, reader.errors


def parse_sheet(
    text: str,
    *,
    source: str = "",
    rules: Rules | None = None,
    overrides: Mapping[str, object] | None = None,
    players: tuple[str, str] | None = None,
    hollywood: bool | None = None,
) -> Sheet:
    """Read a score sheet, raising :class:`RecordError` at the first bad line."""
    sheet, _ = read_sheet(
        text, source=source, rules=rules, overrides=overrides, players=players,
        hollywood=hollywood,
    )
    return sheet
