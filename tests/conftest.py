import pytest

from exactplay.numbers import get_backend


@pytest.fixture(params=["mpq", "fraction"])
def exact_backend(request):
    """Both exact backends: every exact test that takes this runs twice."""
    return get_backend(request.param)
