"""What every ruleset's scenario runner (`Ruleset.run_scenario`, `clix scenario run`) gives back for one scenario
file: its name, the rules it cites, and the expectations that did not hold."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class ScenarioResult:
    """What running one scenario found: `failures` empty when every expectation held."""

    path: str
    name: str
    rules: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures
