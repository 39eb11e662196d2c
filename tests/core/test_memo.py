"""``advisor.core.memo``: ``KeepLast`` (the last argument, by identity, and its result) and ``HeldById``."""

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


def test_held_by_id_answers_for_the_same_objects_only():
    from advisor.core.memo import HeldById

    kept: HeldById[str] = HeldById(3)
    a, b = [1], [1]  # equal, not the same object
    assert kept.get((a,), "x") is None
    assert kept.put((a,), "x", "for a") == "for a"
    assert kept.get((a,), "x") == "for a"
    assert kept.get((b,), "x") is None and kept.get((a,), "y") is None
    kept.put((a, b), None, "pair")
    assert kept.get((a, b)) == "pair" and kept.get((b, a)) is None
    kept.put((b,), "x", "for b")
    assert len(kept) == 3
    kept.put((a,), "z", "one more")  # full: all forgotten, then this one kept
    assert len(kept) == 1 and kept.get((a,), "x") is None and kept.get((a,), "z") == "one more"


def test_held_by_id_never_answers_for_a_new_object_at_an_old_ones_address():
    from advisor.core.memo import HeldById

    kept: HeldById[str] = HeldById(8)

    class Obj:
        pass

    old = Obj()
    kept.put((old,), None, "old")
    assert kept.get((old,)) == "old"
    stale = next(iter(kept._kept))  # the key holds the old object's id; a new object at that id must not match
    new = Obj()
    kept._kept[(id(new), *stale[1:])] = kept._kept.pop(stale)  # as if ``new`` had been given ``old``'s address
    assert kept.get((new,)) is None
