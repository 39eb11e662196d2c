"""Small helpers for driving Qt widgets in the UI tests."""


def pick(combo, text: str) -> None:
    """Choose the item of ``combo`` shown as ``text``, as a user would; fail if it is not offered."""
    i = combo.findText(text)
    assert i >= 0, text
    combo.setCurrentIndex(i)


def pick_value(combo, name: str, value) -> None:
    """Choose the item that shows ``value`` of the job setting ``name`` in its declared words (as the
    window shows it: 'QLoRA (4-bit base)' for qlora), as a user would."""
    from advisor.core.estimation.job_words import say

    pick(combo, say(name, value))


def shown(name: str, value) -> str:
    """The words the window shows for ``value`` of setting ``name``."""
    from advisor.core.estimation.job_words import say

    return say(name, value)
