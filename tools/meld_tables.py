"""Write ginref/standard_tables.bin: the standard meld system's suit tables, computed.

    python tools/meld_tables.py          # rewrite the file
    python tools/meld_tables.py --check  # exit 1 when the file differs from the computed tables

ginref reads the file at import instead of computing the tables (45 ms of every
command's start-up); ``tests/hands/test_melds.py`` checks that the two agree.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ginref.melds import STANDARD_SYSTEM, STANDARD_TABLES_FILE, _built_tables

TABLES_FILE = Path(STANDARD_TABLES_FILE)


def computed() -> bytes:
    return _built_tables.__wrapped__(STANDARD_SYSTEM, None).saved()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    data = computed()
    if args.check:
        fresh = TABLES_FILE.is_file() and TABLES_FILE.read_bytes() == data
        state = "up to date" if fresh else "stale: run python tools/meld_tables.py"
        print(f"{TABLES_FILE.name} is {state}")
        return 0 if fresh else 1
    TABLES_FILE.write_bytes(data)
    print(f"wrote {TABLES_FILE} ({len(data):,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
