"""The exit codes of ``ginref``, and the errors that carry them.

Exit codes (:func:`ginref.cli.process.main`; README's "Exit codes" says the same for users):

- 0 done (``knock``: may knock; ``adjudicate``/``verify``: every record clean)
- 1 a "no" or findings (``rules --fit``: no preset gives back every recorded point, or none is recorded);
  ``match``: the run stopped on a bot's failure, or ``--check`` found one
- 2 usage or bad input, a path that does not exist, an ``-o`` or ``--plot`` that cannot be
  written to (its folder does not exist, found before any work),
  a record the output form cannot express (``convert --to openspiel`` of other rules),
  a score sheet given to ``rules --fit``
- 3 unreadable input: a path that exists but cannot be read (a FIFO, no permission),
  bytes that are not text, records, sheet lines or a rules file that do not parse, input
  with no hand or record at all ("no hands on stdin")
- 4 the output could not be written (a full disk; a stdout error other than a closed pipe)
- 69 ``verify --scheduler``: dask is not installed, or its scheduler cannot be reached (EX_UNAVAILABLE)
- 70 an internal error (a bug: one line asks for a report; ``GINREF_DEBUG=1`` shows the traceback)
- 130 interrupted (SIGINT, Ctrl-C), 143 terminated (SIGTERM): worker processes are shut down first
- 141 the reader of stdout went away (``ginref verify big | head -1``): quiet, as if
  killed by SIGPIPE, which is what a shell reports as 141

Every error is one line on stderr; a usage error may add where the help is
(:mod:`ginref.cli.app`). Tests that run :data:`cli` through click's
``CliRunner`` bypass :func:`main`, so bugs still surface there as exceptions.
"""

from __future__ import annotations

import errno
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any, NoReturn

import click

from ginref.errors import GinrefError, InputFileError, OutputFileError, RecordError

EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_UNREADABLE = 3
EXIT_OUTPUT = 4
EXIT_UNAVAILABLE = 69
"""EX_UNAVAILABLE: no dask, or no scheduler at the address"""
EXIT_INTERNAL = 70
"""EX_SOFTWARE from sysexits.h: a bug in ginref"""
EXIT_INTERRUPTED = 128 + signal.SIGINT
EXIT_PIPE_CLOSED = 128 + signal.SIGPIPE
EXIT_TERMINATED = 128 + signal.SIGTERM
WRITE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})
"""errors that only writing the output can cause (an escaped read error is a bug)"""


class InputError(click.ClickException):
    """Bad input on the command line or stdin: one line, exit code 2."""

    exit_code = EXIT_USAGE


class UsageLine(click.UsageError):
    """A usage error as one line, exit code 2: no usage block, and with ``help_for`` (a
    command's path) the line that says where its help is (``Try 'ginref analyze --help'``)."""

    def __init__(
        self, message: str, ctx: click.Context | None = None, *, help_for: str | None = None
    ) -> None:
        super().__init__(message, ctx)
        self.help_for = help_for

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"Error: {self.format_message()}", file=file, err=file is None)
        if self.help_for:
            click.echo(f"Try '{self.help_for} --help' for help.", file=file, err=file is None)


class UnreadableError(click.ClickException):
    """An input file or record that cannot be read: exit code 3."""

    exit_code = EXIT_UNREADABLE


class ClusterUnavailable(click.ClickException):
    """``verify --scheduler``: no dask, or no scheduler at the address: exit code 69."""

    exit_code = EXIT_UNAVAILABLE


@contextmanager
def input_errors() -> Iterator[None]:
    """Turn the library's errors into a one-line message and exit code 2.

    A file that exists but cannot be read (a FIFO, no permission) is 3, as
    :func:`error_exit_code` decides for every command.
    """
    try:
        yield
    except GinrefError as exc:
        unreadable = error_exit_code(exc) == EXIT_UNREADABLE
        raise (UnreadableError if unreadable else InputError)(str(exc)) from None


def fail(message: str) -> NoReturn:
    """Stop the command: a usage error or bad input, one line, exit 2."""
    raise InputError(message)


def error_exit_code(exc: GinrefError) -> int:
    """The documented exit code for a library error that reached the command line."""
    if isinstance(exc, OutputFileError):
        return EXIT_OUTPUT
    if isinstance(exc, InputFileError):
        return EXIT_USAGE if exc.missing else EXIT_UNREADABLE
    return EXIT_UNREADABLE if isinstance(exc, RecordError) else EXIT_USAGE
