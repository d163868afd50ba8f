"""The ``ginref`` process: one command run through click, the documented exit code, and
signals and pipes handled so that no traceback is ever printed (see :mod:`ginref.cli.exits`)."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Sequence
from contextlib import suppress
from typing import TYPE_CHECKING, NoReturn

import click

from ginref.cli.app import COMPLETE_VAR, cli
from ginref.cli.exits import (
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OUTPUT,
    EXIT_PIPE_CLOSED,
    EXIT_TERMINATED,
    WRITE_ERRNOS,
    error_exit_code,
)
from ginref.cli.importing import keep_for_good
from ginref.errors import GinrefError

if TYPE_CHECKING:
    from types import FrameType


class Terminated(BaseException):
    """SIGTERM arrived; unwinds like KeyboardInterrupt, so ``with`` blocks and worker pools close."""


def main(args: Sequence[str] | None = None) -> NoReturn:
    """The ``ginref`` program: one command, the documented exit code, never a traceback.

    Called by :func:`ginref.cli.main`, which loaded this module and froze what it loaded
    (:mod:`ginref.cli.importing`): the command's own objects are collected as ever."""
    _raise_on_sigterm()
    code = _run(args)
    keep_for_good()  # what is left goes with the process: exit need not walk it
    sys.exit(code)


def _run(args: Sequence[str] | None) -> int:
    try:
        code = _invoke(args)
        if sys.stdout is not None:
            sys.stdout.flush()  # here, not at shutdown, where a failure is only "Exception ignored"
        return code
    except KeyboardInterrupt:
        return _stopped("interrupted", EXIT_INTERRUPTED)
    except Terminated:
        return _stopped("terminated", EXIT_TERMINATED)
    except BrokenPipeError:
        _discard_stdout()
        return EXIT_PIPE_CLOSED
    except Exception as exc:
        return _failed(exc)


def _invoke(args: Sequence[str] | None) -> int:
    """Run the command line through click; its exit code instead of click's own exit."""
    argv = list(sys.argv[1:] if args is None else args)
    if COMPLETE_VAR in os.environ:
        from ginref.cli.completing import use_line_completion

        use_line_completion()
        cli.main(argv, prog_name="ginref")  # shell completion: click answers and exits
    try:
        with cli.make_context("ginref", argv) as ctx:
            cli.invoke(ctx)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.Abort:
        raise KeyboardInterrupt from None
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        _say(str(exc.code))
        return 1
    return 0


def _failed(exc: Exception) -> int:
    """One line on stderr for an error no command caught, and its exit code."""
    if isinstance(exc, GinrefError):
        _say(f"Error: {exc}")
        return error_exit_code(exc)
    if isinstance(exc, OSError) and exc.errno in WRITE_ERRNOS:
        _discard_stdout()
        from ginref.files import describe_os_error

        _say(f"ginref: cannot write the output: {describe_os_error(exc)}")
        return EXIT_OUTPUT
    if os.environ.get("GINREF_DEBUG"):
        raise exc
    message = " ".join(str(exc).split())
    message = message if len(message) <= 160 else message[:157] + "..."
    _say(f"ginref: internal error: {type(exc).__name__}: {message} (please report it)")
    return EXIT_INTERNAL


def _stopped(what: str, code: int) -> int:
    """Say why ginref stops; another Ctrl-C now could only turn the exit into a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if sys.stderr is not None and sys.stderr.isatty():
        _say("")  # end the line the terminal's ^C echo left open
    _say(f"ginref: {what}")
    return code


def _say(line: str) -> None:
    """A line on stderr, if stderr can still take it."""
    with suppress(OSError, ValueError):
        click.echo(line, err=True)


def _discard_stdout() -> None:
    """Point stdout at /dev/null, so output still buffered cannot fail again at shutdown.

    The recipe from the Python docs' note on SIGPIPE.
    """
    with suppress(AttributeError, OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _raise_on_sigterm() -> None:
    """Make SIGTERM raise :class:`Terminated` in this process; a forked worker dies as usual."""
    main_pid = os.getpid()

    def handler(signum: int, frame: FrameType | None) -> None:
        if os.getpid() != main_pid:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)
            return
        raise Terminated

    signal.signal(signal.SIGTERM, handler)
