"""The command line's own modules, loaded with the garbage collector paused.

Importing them creates tens of thousands of objects that live as long as the process and
hold no garbage, yet every 700 of them start a collection, and the older generations walk
them again. In the ``ginref`` process (:func:`ginref.cli.main`) what loads is moreover
frozen out of every later collection (``gc.freeze``), and so is what is left at its end
(:func:`keep_for_good` once more); a library or a test that imports :mod:`ginref.cli`
finds the collector as it left it, enabled or disabled, and nothing frozen.
"""

from __future__ import annotations

import gc

_for_good = False
"""True once this process is the ``ginref`` program's."""


def keep_for_good() -> None:
    """This process is the ``ginref`` program's: what there is now, and what :func:`loading`
    loads from now on, lives as long as it, so leave it out of every later collection
    (``gc.freeze``), the interpreter's last ones at exit included (whose finalizers Python
    never promised)."""
    global _for_good
    _for_good = True
    gc.freeze()


class _Loading:
    """A class, not ``contextlib``: what this module imports is imported before any pause."""

    def __enter__(self) -> None:
        self.collecting = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc_info: object) -> None:
        if _for_good:
            gc.freeze()  # before any collection could walk it once more
        if self.collecting:
            gc.enable()


def loading() -> _Loading:
    """No garbage collection inside, then the collector as the caller had it (and, in the
    ``ginref`` process, what was loaded frozen)."""
    return _Loading()
