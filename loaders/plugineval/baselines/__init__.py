"""Text-only baselines: a slot filler built on the normalizers, and the frozen reference router.

The builder uses both (a generator reads only the query text; the router calibrates negatives), and
``plugineval predict baseline:*`` runs them as meaningful baselines.
"""
