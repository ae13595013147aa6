"""A report rendered to PDF for `clix serve` (issue 41), safely: WeasyPrint renders the report's HTML as `--pdf`
does, but its URL fetcher loads only `data:` URLs and files inside the allowed folders (the report's own run
folder and the package's static files). An `http(s)://` address, a `file:` outside them (`file:///etc/passwd`,
a symbolic link out) or any other scheme is refused: WeasyPrint leaves the resource out with a warning, and the
server never reaches another machine or reads another file while rendering a page."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse
from urllib.request import url2pathname

from clix.analyzer.common.errors import ClixError

STATIC = Path(__file__).resolve().parent / "static"


def allowed(url: str, roots: Sequence[Path]) -> None:
    """Nothing when the renderer may load `url` (a `data:` URL, or a `file:` URL of a file inside one of `roots`);
    a ValueError naming it otherwise."""
    parsed = urlparse(url)
    if parsed.scheme == "data":
        return
    if parsed.scheme == "file" and parsed.netloc in ("", "localhost"):
        path = Path(url2pathname(unquote(parsed.path))).resolve()
        if any(path.is_relative_to(root.resolve()) for root in roots):
            return
    raise ValueError(f"clix serve: {url[:200]} is outside the report's folder; not loaded")


def fetcher(roots: Sequence[Path]) -> Any:
    """A WeasyPrint URL fetcher that loads only what `allowed` allows (WeasyPrint 67 and later take a `URLFetcher`,
    earlier ones a function)."""
    import weasyprint

    base = getattr(weasyprint, "URLFetcher", None)
    if base is None:  # WeasyPrint before 67: a function
        default = weasyprint.default_url_fetcher

        def fetch(url: str, *args: Any, **kwargs: Any) -> Any:
            allowed(url, roots)
            return default(url, *args, **kwargs)

        return fetch

    class Confined(base):  # type: ignore[misc, valid-type]
        def fetch(self, url: str, headers: Any = None) -> Any:
            allowed(url, roots)
            return super().fetch(url, headers)

    return Confined(allowed_protocols=("file", "data"), allow_redirects=False)


def write_report_pdf(report: Path, pdf: Path) -> Path:
    """Render the HTML report `report` to `pdf`, loading only files of its run folder and the package's static
    files; the engine failing is one line (`--pdf`'s)."""
    import weasyprint
    from clix.analyzer.report.duel import pdf_engine_error
    from clix.analyzer.report.folder import writing

    html = report.read_text(encoding="utf-8")
    with writing(pdf):
        try:
            document = weasyprint.HTML(
                string=html,
                base_url=report.parent.resolve().as_uri() + "/",
                url_fetcher=fetcher([report.parent, STATIC]),
            )
            document.write_pdf(pdf)
        except OSError:
            raise
        except ClixError:
            raise
        except Exception as exc:  # WeasyPrint (or a library under it) failing on this report
            raise pdf_engine_error(exc, pdf) from None
    return pdf
