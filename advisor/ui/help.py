"""Help: the formulas and their sources (the core's own list), About, and the dialog that shows a page of text."""

from __future__ import annotations

import html

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout

from advisor import APP_LICENSE, APP_NAME, APP_URL, __version__


def formulas_html() -> str:
    """Help ▸ Formulas & sources: the core's own list (``advisor.core.advice.formulas``), so Help shows what is computed."""
    try:
        from advisor.core import formulas
    except ImportError:
        return "<p>The list of formulas is not available in this version.</p>"
    rows = "".join(f"<li><b>{html.escape(f.term)}</b>: {html.escape(f.formula)}<br><i>Sources: "
                   f"{html.escape('; '.join(f.sources))}</i></li>" for f in formulas())
    return ("<h2>Formulas and sources</h2><ul>" + rows + "</ul><p>Each estimate's expected error is the error "
            "measured against published measurements and this project's own on an H100 (benchmarks/fidelity.py); where none was measured the app says so.</p>")


def about_html() -> str:
    """Help ▸ About: the version, the shipped catalog's date, the licence and the project's address."""
    from advisor.storage.catalog_store import shipped_catalog_date

    return (f"<b>{APP_NAME}</b> {__version__}<br>Catalog: {html.escape(shipped_catalog_date())}<br>"
            f"License: {APP_LICENSE}<br><a href='{APP_URL}'>{APP_URL}</a>")


def text_dialog(parent, title: str, page_html: str) -> QDialog:
    """A dialog showing ``page_html`` (links open in the browser), closed with Close."""
    d = QDialog(parent)
    d.setWindowTitle(title)
    lay = QVBoxLayout(d)
    view = QTextBrowser()
    view.setOpenExternalLinks(True)
    view.setHtml(page_html)
    lay.addWidget(view)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(d.reject)
    lay.addWidget(buttons)
    d.resize(640, 520)
    return d
