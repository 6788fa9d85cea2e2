"""Keeping a gettext domain's catalogs in step with an extracted template (Babel only): used by
the bot's domain ``messages`` and the Mini App's domain ``webapp``."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

WIDTH = 100


def merge_template(
    template: Catalog, *, domain: str, locales_dir: Path, locales: Iterable[str]
) -> None:
    """Write `<domain>.pot` and merge it into every locale's `<domain>.po` (new and changed
    entries come out empty or fuzzy; obsolete ones are dropped). A missing `.po` is created."""
    with (locales_dir / f"{domain}.pot").open("wb") as fp:
        write_po(fp, template, width=WIDTH, omit_header=False)
    for locale in locales:
        path = locales_dir / locale / "LC_MESSAGES" / f"{domain}.po"
        if path.exists():
            with path.open("rb") as fp:
                catalog = read_po(fp, locale=locale)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=locale, domain=domain, project="kosti", charset="utf-8")
        catalog.update(template, update_header_comment=False)
        with path.open("wb") as fp:
            write_po(fp, catalog, width=WIDTH, ignore_obsolete=True)
