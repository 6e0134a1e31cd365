"""Adapters that import other benchmarks' data as PluginEval records."""

from __future__ import annotations

from .bfcl import bfcl_prediction, load_bfcl, prediction_from_bfcl, record_from_bfcl

__all__ = ["bfcl_prediction", "load_bfcl", "prediction_from_bfcl", "record_from_bfcl"]
