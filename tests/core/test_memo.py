"""``advisor.core.memo.KeepLast``: the last argument, by identity, and its result."""

from advisor.core.memo import KeepLast


def test_the_same_object_is_answered_from_the_kept_pair_another_is_computed():
    calls = []

    @KeepLast
    def double(xs: list) -> list:
        calls.append(xs)
        return xs * 2

    a, b = [1], [1]  # equal, not the same object
    assert double(a) == [1, 1] and double(a) is double(a)
    assert len(calls) == 1
    assert double(b) == [1, 1] and len(calls) == 2  # identity, not equality
    assert double(a) and len(calls) == 3  # only the last pair is kept
    double.clear()
    double(a)
    assert len(calls) == 4
    assert double.__doc__ is None and double.__name__ == "double"
