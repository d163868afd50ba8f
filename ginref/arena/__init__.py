"""The arena: bots played against each other at the referee's table (``ginref match``).

:mod:`ginref.arena.bots` holds the bundled bots, :mod:`ginref.arena.botproto` the bot
protocol over a subprocess, :mod:`ginref.arena.match` the runner; docs/match.md is the
reference.
"""
