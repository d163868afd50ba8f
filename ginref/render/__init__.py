"""Rendering: text for people, and the batch's JSON streams. No game logic lives here.

One module per module of :mod:`ginref.cli`: :mod:`~ginref.render.hands`,
:mod:`~ginref.render.advice`, :mod:`~ginref.render.games`, :mod:`~ginref.render.records`,
:mod:`~ginref.render.report` and its page :mod:`~ginref.render.html`, on the shared layouts of
:mod:`~ginref.render.tables`. JSON is the ``to_dict()`` form of the library's value objects,
written by :mod:`ginref.jsonwrite` with a stable key order. Text uses tabulate; cards are
shown with ``10`` for ten, and with suit glyphs (red hearts and diamonds) when asked.
A command imports only the module it renders with.
"""
