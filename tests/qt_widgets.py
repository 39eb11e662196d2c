"""Small helpers for driving Qt widgets in the UI tests."""


def pick(combo, text: str) -> None:
    """Choose the item of ``combo`` shown as ``text``, as a user would; fail if it is not offered."""
    i = combo.findText(text)
    assert i >= 0, text
    combo.setCurrentIndex(i)
