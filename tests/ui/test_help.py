"""Help: the formulas page lists the core's own formulas with their sources; About names the version and the
shipped catalog's date."""

from __future__ import annotations

import html

from advisor import __version__
from advisor.core.advice.formulas import formulas
from advisor.storage.catalog_store import shipped_catalog_date
from advisor.ui.help import about_html, formulas_html, text_dialog


def test_the_formulas_page_is_the_cores_list():
    page = formulas_html()
    for f in formulas():
        assert html.escape(f.term) in page and html.escape(f.formula) in page


def test_about_names_the_version_and_the_catalog_date():
    text = about_html()
    assert __version__ in text and html.escape(shipped_catalog_date()) in text


def test_a_text_page_shows_its_html(qtbot):
    d = text_dialog(None, "Formulas and sources", "<p>hello <b>there</b></p>")
    qtbot.addWidget(d)
    assert d.windowTitle() == "Formulas and sources"
    from PySide6.QtWidgets import QTextBrowser

    assert d.findChild(QTextBrowser).toPlainText() == "hello there"
