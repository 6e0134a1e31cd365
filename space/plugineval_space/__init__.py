"""The PluginEval Space: leaderboard, dataset browser and live judge.

Importing this package does no I/O and does not import gradio; ``build_demo()`` in ``space/app.py`` builds the page
and everything it shows is loaded lazily (``release.Release``) when a request first needs it.
"""

from __future__ import annotations

__all__ = ["SPACE_VERSION"]

SPACE_VERSION = "1.0.0"
