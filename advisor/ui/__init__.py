"""The window: the composition root, the session holding state, views, dialogs and the catalog editor.

May import everything below it (core, storage, probe, plots, report).
"""
