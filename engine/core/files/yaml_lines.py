"""Read YAML files safely, keeping the line of every value, and catch what PyYAML lets pass (repeated keys).

Every file clix reads (roster files, maps, scenarios) comes through `read_yaml`, which refuses what could
make a small file cost unbounded time or memory, each with one message saying what to change:

- a file over `MAX_FILE_BYTES` (the largest sample file is 23 KB);
- bytes that are not UTF-8 text;
- YAML anchors and aliases (`&name`, `*name`): one alias can stand for a whole tree, so a 1 KB file
  can expand to gigabytes ("billion laughs"); clix files never need them;
- nesting deeper than `MAX_DEPTH` (the deepest valid clix file nests 6 levels), checked while parsing,
  before Python's recursion limit could be reached, in time linear in the file's size (libyaml stops at
  its own depth limit, and the slow pure-Python reparse that words syntax errors is skipped for deep text).
"""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path
from typing import Any

import yaml
from clix.engine.core.files.problems import LineMap, Loc
from yaml.composer import Composer
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.resolver import Resolver

try:  # libyaml parses several times faster; the composer on top stays ours either way
    from yaml.cyaml import CParser as _Parser
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    from yaml.parser import Parser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _Parser(Reader, Scanner, Parser):  # type: ignore[no-redef]
        def __init__(self, stream: str) -> None:
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            Parser.__init__(self)


MAX_FILE_BYTES = 1_000_000
MAX_DEPTH = 32
REPARSE_BYTES = 100_000
DEEPEST_VALID = 6


class YamlError(Exception):
    """A file that cannot be read as safe YAML, with the line of the mistake (0: the whole file)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def _line(mark: Any) -> int:
    return mark.line + 1 if mark is not None else 0


class _GuardedComposer(Composer):
    """PyYAML's composer, refusing anchors and aliases and counting the depth as it descends."""

    depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            raise YamlError(
                _line(event.start_mark),
                f"YAML aliases ('*{event.anchor}') are not allowed in clix files; write the value out in full",
            )
        if getattr(event, "anchor", None):
            raise YamlError(
                _line(event.start_mark),
                f"YAML anchors ('&{event.anchor}') are not allowed in clix files; remove the anchor "
                "and write every value out in full",
            )
        if isinstance(event, yaml.CollectionStartEvent):
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise _too_deep(_line(event.start_mark))
            try:
                return super().compose_node(parent, index)
            finally:
                self.depth -= 1
        return super().compose_node(parent, index)


def _too_deep(line: int) -> YamlError:
    return YamlError(
        line,
        f"lists and mappings are nested more than {MAX_DEPTH} levels deep here; clix files "
        f"need at most {DEEPEST_VALID}, check the brackets and the indentation",
    )


_BRACKETS = re.compile(r"[\[\]{}]")


def _bracket_depth(text: str) -> int:
    """The deepest nesting of flow brackets in `text`, counted in one pass and blind to quotes (an upper
    bound that only a quoted run of brackets could inflate)."""
    depth = deepest = 0
    for match in _BRACKETS.finditer(text):
        depth = depth + 1 if match.group() in "[{" else max(0, depth - 1)
        deepest = max(deepest, depth)
    return deepest


class _Constructor(SafeConstructor):
    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep)
        except (ValueError, OverflowError) as exc:
            # e.g. an integer of more than 4300 digits, or a date like 2024-13-45
            raise ConstructorError(
                None,
                None,
                f"the value cannot be read ({str(exc).split(';')[0]}); write it as text in quotes",
                node.start_mark,
            ) from exc


class _Loader(_GuardedComposer, _Parser, _Constructor, Resolver):  # type: ignore[misc,valid-type]
    def __init__(self, stream: str) -> None:
        _Parser.__init__(self, stream)
        _GuardedComposer.__init__(self)
        _Constructor.__init__(self)
        Resolver.__init__(self)


def read_yaml(path: Path) -> tuple[Any, LineMap, list[tuple[int, Loc, str]]]:
    """Read file `path` as YAML: its data, line map and warnings-as-problems (line, loc, message).

    Raises YamlError (one message saying what is wrong and how to fix it) for anything that is not a
    readable, UTF-8, safe YAML file of at most `MAX_FILE_BYTES`.
    """
    return load_yaml(decode(read_bytes(path)))


def path_problem(path: Path) -> str | None:
    """Why `path` cannot be read as a file (a broken or looping link, a folder, a device), or None."""
    if path.is_symlink() and not path.exists():
        try:
            os.stat(path)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                return "symbolic link loop: following it never reaches a file; replace it with the file or remove it"
        try:
            target = os.readlink(path)
        except OSError:
            target = "?"
        return f"broken symbolic link: its target '{target}' does not exist; fix the link or remove it"
    if path.is_dir():
        try:
            os.listdir(path)
        except PermissionError:
            return "cannot read this folder (permission denied), so its files were not checked; fix its permissions"
        except OSError as exc:
            return f"cannot read this folder ({exc.strerror or exc}), so its files were not checked"
        return "this is a folder, not a file, though its name ends like a YAML file; rename it"
    if not path.exists():
        return "no such file or directory"
    if not path.is_file():
        return "not a regular file (a pipe, socket or device); clix reads only ordinary files"
    return None


def read_bytes(path: Path) -> bytes:
    """The bytes of file `path`, at most MAX_FILE_BYTES; raises YamlError otherwise."""
    problem = path_problem(path)
    if problem:
        raise YamlError(0, problem)
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except PermissionError as exc:
        raise YamlError(0, "cannot read the file (permission denied); fix its permissions") from exc
    except OSError as exc:
        raise YamlError(0, f"cannot read the file ({exc.strerror or exc})") from exc
    if len(raw) > MAX_FILE_BYTES:
        try:
            size = f"{path.stat().st_size:,} bytes"
        except OSError:
            size = "too large"
        raise YamlError(
            0,
            f"the file is {size}, over the {MAX_FILE_BYTES // 1_000_000} MB limit for a clix file "
            "(the largest sample file is 23 KB); split it or remove what does not belong in it",
        )
    return raw


def decode(raw: bytes) -> str:
    """`raw` as UTF-8 text (a byte-order mark is dropped); raises YamlError naming the line of a bad byte."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise YamlError(1, "the file is UTF-16 text, not UTF-8; save it as UTF-8")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise YamlError(
            line,
            f"not UTF-8 text: byte 0x{raw[exc.start]:02x} on this line is not valid UTF-8; save the file as UTF-8",
        ) from exc


def load_yaml(text: str) -> tuple[Any, LineMap, list[tuple[int, Loc, str]]]:
    """Parse `text`; return the data, its line map, and warnings-as-problems (line, loc, message).

    Raises YamlError for text that is not YAML at all, or not safe YAML (see the module docstring).
    """
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise YamlError(0, f"the text is over the {MAX_FILE_BYTES // 1_000_000} MB limit for a clix file")
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except (yaml.scanner.ScannerError, yaml.parser.ParserError) as exc:
        if "maximum nesting depth" in str(exc.problem):  # libyaml's own limit, far beyond MAX_DEPTH
            raise _too_deep(_line(exc.problem_mark)) from exc
        # Pure Python reparses slowly (3 s a MB, and with the square of the nesting depth): only files of a
        # size people write by hand, and nested no deeper than clix allows.
        reparse = len(text) <= REPARSE_BYTES and _bracket_depth(text) <= MAX_DEPTH
        raise _marked((reparse and _python_error(text)) or exc) from exc
    except yaml.MarkedYAMLError as exc:
        raise _marked(exc) from exc
    except yaml.reader.ReaderError as exc:
        line = text[: exc.position].count("\n") + 1
        char = exc.character if isinstance(exc.character, str) else chr(exc.character)
        raise YamlError(line, f"not valid YAML: {exc.reason} (found {char!r}); remove that character") from exc
    except yaml.YAMLError as exc:
        raise YamlError(0, "not valid YAML: " + " ".join(str(exc).split())) from exc
    except RecursionError as exc:  # not expected below MAX_DEPTH; kept so no input can give a traceback
        raise YamlError(0, f"nested too deep to read; clix files need at most {DEEPEST_VALID} levels") from exc
    finally:
        loader.dispose()
    lines: dict[Loc, int] = {}
    problems: list[tuple[int, Loc, str]] = []
    if node is not None:
        _walk(node, (), lines, problems)
    return data, LineMap(lines), problems


def _python_error(text: str) -> yaml.MarkedYAMLError | None:
    """The syntax error pure-Python PyYAML finds in `text`: its messages are the ones clix documents
    (libyaml words some differently). Parsing events only, it neither recurses nor expands aliases."""
    try:
        for _ in yaml.parse(text, Loader=yaml.SafeLoader):
            pass
    except yaml.MarkedYAMLError as exc:
        return exc
    except yaml.YAMLError:
        return None
    return None


def _marked(exc: yaml.MarkedYAMLError) -> YamlError:
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
        return YamlError(
            opened.line + 1,
            f"not valid YAML: a {what} opened on this line is never closed ({exc.problem}); "
            "check the indentation and quotes",
        )
    if isinstance(exc, ConstructorError) and exc.problem and exc.problem.startswith("the value cannot"):
        return YamlError(_line(mark), exc.problem)
    if isinstance(exc, ConstructorError) and exc.problem and "constructor for the tag" in exc.problem:
        tag = exc.problem.split("tag '", 1)[-1].rstrip("'").replace("tag:yaml.org,2002:", "!!")
        return YamlError(_line(mark), f"YAML tags ('{tag}') are not allowed in clix files; remove the tag")
    if exc.problem and "another document" in exc.problem:
        return YamlError(_line(mark), "a second YAML document ('---') starts here; a clix file holds one, remove it")
    return YamlError(_line(mark), f"not valid YAML: {exc.problem or exc.context}; check the indentation and quotes")


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
