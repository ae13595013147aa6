"""Horrified (Ravensburger 2019), a co-operative game against classic monsters on a graph board (issue 40): a third
ruleset on the core's contract. Rule IDs `HF-*` are those of ../shared/rules/horrified_rules.md (docs/horrified.md)."""

from clix.engine import compiled

compiled.extend(__path__, "horrified")
