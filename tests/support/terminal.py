"""Pseudo-terminals for the tests of what ginref shows only on a terminal."""

from __future__ import annotations

import os


def read_until_closed(master: int) -> bytes:
    """Everything written to the pseudo-terminal whose master end is ``master``, until every
    writer has closed it (reading then fails with EIO on Linux, or returns nothing)."""
    seen = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    return seen
