"""docs/api.md, the Python API's worked notebook (issue 37, part 4): its cells (the ```pycon blocks) run as a doctest,
in order, in a fresh folder on the sample library, and together they call every function of the API."""

from __future__ import annotations

import doctest
import io
import re
from pathlib import Path

import clix
import clix.api

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "api.md"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def cells() -> list[tuple[int, str]]:
    """Each cell of the page with the line it starts on."""
    text = PAGE.read_text(encoding="utf-8")
    return [(text[: m.start(1)].count("\n"), m.group(1)) for m in re.finditer(r"```pycon\n(.*?)```", text, flags=re.S)]


def test_the_page_calls_every_api_function_and_the_results_methods():
    code = "\n".join(cell for _, cell in cells())
    functions = [name for name in clix.api.__all__ if name[0].islower()] + ["Army"]
    assert sorted(functions) == [
        "Army",
        "build",
        "duel",
        "horrified",
        "ladder",
        "load_library",
        "melee",
        "meta",
        "results",
        "value",
    ]
    assert [name for name in functions if f"clix.{name}(" not in code] == []
    for method in ("Army.load(", ".replace(", ".save(", ".plot()", ".report(", ".table()", ".run(", ".export("):
        assert method in code, method
    assert "except clix.ClixError" in code and "progress=" in code
    for result in ("duel", "melee", "horrified", "ladder", "meta", "values", "built", "runs"):
        assert f"\n>>> {result}  # doctest: +ELLIPSIS\n<" in code or f"\n>>> {result}.runs" in code, result
        assert f"{result}.plot()" in code and f"{result}.report(" in code, result


def test_the_page_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CLIX_ROSTERS", raising=False)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    said = io.StringIO()
    shared: dict[str, object] = {}
    for line, cell in cells():
        test = parser.get_doctest(cell, shared, f"docs/api.md:{line + 1}", str(PAGE), line)
        runner.run(test, out=said.write, clear_globs=False)
        shared.update(test.globs)  # a DocTest runs on a copy of the names it is given
    assert runner.failures == 0, said.getvalue()
    assert runner.tries > 50
    assert (tmp_path / "duel" / "report.html").is_file() and (tmp_path / "clix-out" / "clix.duckdb").is_file()


def test_a_wrong_line_of_the_page_fails():
    """The doctest can fail: the page's look at the library, with an army renamed in its expected output."""
    cell = next(cell for _, cell in cells() if "sorted(library.armies)" in cell)
    examples = doctest.DocTestParser().get_examples(cell)
    kept = examples[: next(n for n, e in enumerate(examples) if "sorted(library.armies)" in e.source) + 1]
    assert kept[-1].want == "['ashfang-pack', 'butcher-shop', 'crimson-court']\n"
    kept[-1].want = kept[-1].want.replace("butcher-shop", "butcher-shoppe")
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(doctest.DocTest(kept, {"clix": clix}, "broken", str(PAGE), 0, None), out=io.StringIO().write)
    assert (runner.tries, runner.failures) == (len(kept), 1)
