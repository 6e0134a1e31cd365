"""PCCF: the closed-loop construction framework (SPEC §3)."""
