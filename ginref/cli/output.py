"""Where the commands' output goes: stdout, colour through ``click.style``, the terminal's
width, pictures (``--plot``), and ``verify``'s progress line on stderr."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from ginref.records.io import ReadProgress


def card_style(glyphs: bool) -> Any:
    """Red cards are red with --glyphs, or always with --color=always; click.echo drops the
    colour when stdout is not a terminal, under NO_COLOR or with --color=never."""
    from ginref.render.tables import CardStyle

    forced = click.get_current_context().color is True
    return CardStyle(glyphs=glyphs, paint=paint if glyphs or forced else None)


def paint(text: str, colour: str) -> str:
    """The one place colour is made: ``click.style``."""
    return click.style(text, fg=colour)


def emit(text: str) -> None:
    click.echo(text)


def output_width() -> int:
    """The terminal's width for text output, or 80 when stdout is a pipe or a file."""
    from ginref.render.tables import WIDTH

    if not sys.stdout.isatty():
        return WIDTH
    import shutil

    return max(40, shutil.get_terminal_size((WIDTH, 24)).columns)


def screen_rows() -> int | None:
    """The terminal's height when stdout is a terminal, else None (a pipe or a file has no screen)."""
    if not sys.stdout.isatty():
        return None
    import shutil

    return shutil.get_terminal_size((80, 24)).lines


def check_output_folder(option: str, path: str) -> None:
    """An output file (``-o``, ``--plot``) whose folder does not exist fails at once (exit 2),
    before any work, rather than after it all."""
    import os

    if not os.path.isdir(os.path.dirname(path) or "."):
        from ginref.cli.exits import fail

        fail(f"{option}: the folder of {path!r} does not exist")


def check_plot(path: str | None) -> None:
    """``--plot FILE``: a file ending matplotlib cannot write, a folder that does not exist, or
    no matplotlib, fails at once (exit 2), before any work."""
    if path is not None:
        from ginref.cli.exits import fail
        from ginref.errors import PlotError
        from ginref.plot import plot_format, require_matplotlib

        try:
            plot_format(path)
            check_output_folder("--plot", path)
            require_matplotlib()
        except PlotError as exc:
            fail(f"--plot: {exc}")


def check_stats(option: str) -> None:
    """``option`` needs numpy (the ``stats`` extra): without it, fail at once (exit 2), one line
    naming the extra, before any work."""
    from ginref.cli.exits import fail
    from ginref.stats import StatsError, require_numpy

    try:
        require_numpy()
    except StatsError as exc:
        fail(f"{option}: {exc}")


T = TypeVar("T")


def write_plot(draw: Callable[[T, str], None], value: T, path: str | None) -> None:
    """Draw ``value`` into ``path`` with ``draw`` (:mod:`ginref.plot`); a file that cannot be
    written is an ``OutputFileError`` (exit 4)."""
    if path is not None:
        from ginref.cli.exits import fail
        from ginref.errors import PlotError

        try:
            draw(value, path)
        except PlotError as exc:
            fail(f"--plot: {exc}")


class ProgressLine:
    """A batch's progress on stderr (``verify``, ``report``, ``convert``): records, records per
    second and, for files, the part read and the time left. Only where stderr is a terminal;
    first drawn after half a second, redrawn at most five times a second, fitted to the
    terminal's width, and erased (:meth:`clear`) before anything else is written to the
    terminal, and at the end."""

    FIRST = 0.5
    """seconds before the first drawing: a quick batch shows none"""
    EVERY = 0.2

    def __init__(self, progress: ReadProgress | None, doing: str = "verifying") -> None:
        self.progress, self.doing = progress, doing
        self.start = time.monotonic()
        self.drawn = self.start + self.FIRST - self.EVERY
        self.width = 0
        self.on_stdout = progress is not None and sys.stdout.isatty()
        """whether stdout writes to a terminal too, where the line must make way for it"""

    @staticmethod
    def wanted() -> bool:
        return sys.stderr.isatty()

    def __enter__(self) -> ProgressLine:
        return self

    def update(self, records: int) -> None:
        if self.progress is None:
            return
        now = time.monotonic()
        if now - self.drawn < self.EVERY:
            return
        from ginref.render.records import progress_text

        self.drawn = now
        room = _terminal_columns(sys.stderr) - 1  # the last column would wrap on some terminals
        line = progress_text(records, now - self.start, self.progress.fraction, self.doing, width=room)
        sys.stderr.write("\r" + line.ljust(min(self.width, room)))
        sys.stderr.flush()
        self.width = len(line)

    def clear(self) -> None:
        """Erase the line, so that what is written next starts a clean line."""
        if self.width:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()
            self.width = 0

    def before_stdout(self) -> None:
        """Make way for a write to stdout, when that is a terminal too."""
        if self.on_stdout:
            self.clear()

    def __exit__(self, *exc: object) -> None:
        self.clear()


def _terminal_columns(stream: Any) -> int:
    """The width of the terminal ``stream`` writes to (80 when it cannot be asked)."""
    import os

    try:
        return max(20, os.get_terminal_size(stream.fileno()).columns)
    except (AttributeError, OSError, ValueError):
        return 80


def check_output_file(path: str | None, option: str) -> None:
    """An output file (``--html``) that is a folder, or whose folder does not exist, fails at
    once (exit 2), before any work."""
    if path is not None:
        import os

        if os.path.isdir(path):
            from ginref.cli.exits import fail

            fail(f"{option}: {path!r} is a folder; name a file")
        check_output_folder(option, path)


def write_text_file(path: str, text: str, option: str) -> None:
    """``text`` into ``path``, whole or not at all (a failure is an ``OutputFileError``, exit 4)."""
    from ginref.files import atomic_output

    with atomic_output(path) as out:
        out.write(text)
