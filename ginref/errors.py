"""One root for everything ginref raises, so callers can catch ``GinrefError``; every public
exception lives here, but for the few that carry a module's own data (docs/architecture.md
names them and says why).

Exceptions mean "could not evaluate": rule breaches found in a record are
findings (data), never exceptions.
"""

from __future__ import annotations


class GinrefError(Exception):
    """Root of every ginref error."""


class NotationError(GinrefError, ValueError):
    """Text that is not valid card notation; ``column`` is 1-based (0 = unknown)."""

    def __init__(self, message: str, column: int = 0, token: str = "") -> None:
        super().__init__(message)
        self.column = column
        self.token = token


class DuplicateCardError(NotationError):
    """The same card was given twice."""


class HandSizeError(GinrefError, ValueError):
    """A hand with the wrong number of cards for what was asked."""


class UnknownRulesError(GinrefError, ValueError):
    """A rule-set name, knob or knob value that does not exist."""


class FormatError(GinrefError, ValueError):
    """No record format of that name is registered, or one of that name already is
    (:mod:`ginref.records.formats`)."""


class RulingError(GinrefError, ValueError):
    """A question that cannot be ruled on as asked (e.g. cards shared by both hands)."""


MAX_MESSAGE = 160
"""Longest message a ``RecordError`` carries (its ``source:line:column:`` comes on top); the
quote of the offending text is cut first."""


def tidy_message(message: str) -> str:
    """``message`` on one printable line of at most ``MAX_MESSAGE`` characters: characters
    that would not print (controls, line and paragraph separators) are shown escaped."""
    if not message.isprintable():
        message = "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)
    if len(message) > MAX_MESSAGE:
        message = message[: MAX_MESSAGE - 3] + "..."
    return message


class RecordError(GinrefError, ValueError):
    """A record that cannot be read; carries where (``source:line:column``)."""

    def __init__(self, message: str, source: str = "", line: int = 0, column: int = 0) -> None:
        message = tidy_message(message)
        super().__init__(message)
        self.message = message
        self.source = source
        self.line = line
        self.column = column

    def __str__(self) -> str:
        where = ":".join(str(part) for part in (self.source, self.line, self.column) if part)
        return f"{where}: {self.message}" if where else self.message


def detached(error: RecordError) -> RecordError:
    """``error`` without its traceback and the errors it was raised from: a reader yields
    errors that say what and where, and a caller who keeps thousands of them must not keep
    the frames of the parse, and with them the input, alive."""
    error.__traceback__ = None
    error.__context__ = None
    error.__cause__ = None
    return error


class InputFileError(GinrefError, OSError):
    """A path that cannot be read as input (missing, a folder, a FIFO, no permission).

    ``missing`` is True when the path does not exist (a usage error, exit 2);
    any other case is unreadable input (exit 3).
    """

    def __init__(self, message: str, path: str = "", *, missing: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.missing = missing

    def __str__(self) -> str:
        return self.message


class OutputFileError(GinrefError, OSError):
    """An output that cannot be written (no such folder, a full disk, no permission)."""

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.path = path

    def __str__(self) -> str:
        return self.message


class ClusterError(GinrefError):
    """A Dask cluster that cannot be used: dask is not installed, or its scheduler cannot be reached."""


class GameError(GinrefError, ValueError):
    """Hand entries that cannot be tallied (:mod:`ginref.game`); ``hand`` is the 1-based hand
    number (0 = none)."""

    def __init__(self, message: str, hand: int = 0) -> None:
        super().__init__(message)
        self.hand = hand


class GameOverError(GameError):
    """A hand entered after the game (or the Hollywood match) was over."""


class IllegalAction(GinrefError, ValueError):
    """An action id that is not legal in the state it was applied to; the state is unchanged
    (:mod:`ginref.referee.openspiel_state`)."""


class StatsError(GinrefError, ValueError):
    """Counts or test parameters that cannot be used, or numpy (or scipy) missing (:mod:`ginref.stats`)."""


class PlotError(GinrefError):
    """A plot that cannot be drawn: matplotlib is not installed, or the file ending is not one it writes."""


class MatchError(GinrefError):
    """A match that cannot be run as asked, or that stopped on a failure (:mod:`ginref.arena.match`)."""
