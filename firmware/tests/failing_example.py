"""A deliberately failing test: the host suite checks that the runner reports it."""


def test_wrong_sum():
    assert 1 + 1 == 3
