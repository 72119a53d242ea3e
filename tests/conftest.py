import pytest

from exactplay.numbers.backends import get_backend


@pytest.fixture(params=["mpq", "fraction"])
def exact_backend(request):
    """Both exact backends: every exact test that takes this runs twice."""
    return get_backend(request.param)


def pytest_collection_modifyitems(session, config, items):
    """Run the certificate re-checks first: two of them (chefs n = 14, hold 75/6) take about half a
    minute each, and started first they overlap the rest of the suite on the other core."""
    items.sort(key=lambda item: 0 if item.nodeid.startswith("tests/test_proofs.py") else 1)
