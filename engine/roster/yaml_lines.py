"""Read YAML keeping the line of every value, and catch what PyYAML lets pass (repeated keys)."""

from __future__ import annotations

from typing import Any

import yaml

from engine.roster.problems import LineMap, Loc


class YamlError(Exception):
    """A file that is not valid YAML, with the line of the mistake."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def load_yaml(text: str) -> tuple[Any, LineMap, list[tuple[int, Loc, str]]]:
    """Parse `text`; return the data, its line map, and warnings-as-problems (line, loc, message).

    Raises YamlError for text that is not YAML at all.
    """
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        opened = exc.context_mark
        context = exc.context or ""
        if (
            opened is not None
            and mark is not None
            and opened.line < mark.line
            and ("quoted scalar" in context or "flow" in context)
        ):
            # An unclosed quote or bracket is only noticed far below; the mistake is where it was opened.
            what = "quote" if "quoted" in context else "bracket"
            raise YamlError(
                opened.line + 1,
                f"not valid YAML: a {what} opened on this line is never closed ({exc.problem}); "
                "check the indentation and quotes",
            ) from exc
        line = mark.line + 1 if mark else 0
        raise YamlError(
            line, f"not valid YAML: {exc.problem or exc.context}; check the indentation and quotes"
        ) from exc
    except yaml.YAMLError as exc:
        raise YamlError(0, f"not valid YAML: {exc}") from exc
    lines: dict[Loc, int] = {}
    problems: list[tuple[int, Loc, str]] = []
    if node is not None:
        _walk(node, (), lines, problems)
    return data, LineMap(lines), problems


def _walk(node: yaml.Node, loc: Loc, lines: dict[Loc, int], problems: list[tuple[int, Loc, str]]) -> None:
    lines[loc] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, int] = {}
        for key_node, value_node in node.value:
            key = str(key_node.value)
            line = key_node.start_mark.line + 1
            if key in seen:
                problems.append(
                    (
                        line,
                        (*loc, key),
                        f"key '{key}' appears twice (first on line {seen[key]}); "
                        "keep one, PyYAML would silently drop the first",
                    )
                )
            seen[key] = line
            _walk(value_node, (*loc, key), lines, problems)
            lines[(*loc, key)] = line
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(item, (*loc, index), lines, problems)
