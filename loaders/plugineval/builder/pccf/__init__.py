"""PCCF: the closed-loop construction framework (docs/format.md §4)."""
