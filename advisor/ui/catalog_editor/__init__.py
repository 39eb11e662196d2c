"""The catalog editor (Edit ▸ Catalog…): tables, a validating form, undo, bundles.

``open_catalog_editor(window)`` is what the main window's ``catalog_editor_requested``
connects to: one editor per main window, raised if it is already open.
"""

from __future__ import annotations


def open_catalog_editor(main_window):
    """Show (or raise) the editor of ``main_window``'s session; returns it."""
    from advisor.ui.catalog_editor.window import CatalogEditor

    editor = getattr(main_window, "catalog_editor", None)
    if editor is None:
        editor = CatalogEditor(main_window.session, parent=main_window)
        main_window.catalog_editor = editor
    elif not editor.isVisible():
        editor.reload()  # reopened: show the disk as it is now (and watch it again)
    editor.show()
    editor.raise_()
    editor.activateWindow()
    return editor
