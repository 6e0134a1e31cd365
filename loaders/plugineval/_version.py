"""Version stamps. Every score carries the dataset, judge and scorer versions.

Bump JUDGE_VERSION when a verdict for the same (prediction, gold) pair can change;
bump SCORER_VERSION when a metric computed from the same verdicts can change.
"""

__version__ = "0.1.0"
SCHEMA_VERSION = "1.0"
JUDGE_VERSION = "1.0.2"  # 1.0.2: exact arguments marked temporal when time-valued; integers compared exactly
SCORER_VERSION = "1.0.0"
