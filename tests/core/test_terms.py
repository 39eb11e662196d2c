"""The names of a memory estimate's terms, in the order the views stack them."""

from advisor.core.terms import MEMORY_TERMS, term_label


def test_terms_have_labels_for_people():
    assert term_label("reference_weights") == "reference model"
    assert term_label("kv_cache") == "kv cache"


def test_the_terms_start_with_the_weights_and_end_with_what_the_runtime_holds():
    assert MEMORY_TERMS[0] == "weights" and MEMORY_TERMS[-1] == "runtime" and len(set(MEMORY_TERMS)) == len(MEMORY_TERMS)
