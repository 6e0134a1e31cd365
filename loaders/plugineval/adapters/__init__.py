"""Adapters that import other benchmarks' data as PluginEval records."""

from __future__ import annotations

from .bfcl import load_bfcl, prediction_from_bfcl, record_from_bfcl

__all__ = ["load_bfcl", "prediction_from_bfcl", "record_from_bfcl"]
