"""Publishing a release folder to the Hub: a dataset repo with a ``vX.Y.Z`` tag per version, and the
Space with a wheel of the package built from the same commit. ``huggingface_hub`` is imported only
when a push runs."""

from __future__ import annotations

from .push import PushPlan, ReleaseError, plan_push, push_release, release_version

__all__ = ["PushPlan", "ReleaseError", "plan_push", "push_release", "release_version"]
