"""HeroClix 2005 (seed 002, powers read from 004 in 2005 terms): the second ruleset, on the engine's core alone
(issue 34). Rules cite the IDs of ../shared/rules/heroclix_rules.md (`HX-TOPIC-NN`)."""

from clix.engine import compiled

compiled.extend(__path__, "heroclix")
