"""Every operation has a named method on both clients, typed with the model its operation decodes to
(what the clients' type check relies on); pure, no gateway needed."""
import typing

import pytest

from vitalis_client import OPERATIONS, AsyncVitalisClient, BucketPage, Health, VitalisClient, VitalsPage
from vitalis_client.client import _expect


@pytest.mark.parametrize("client", [VitalisClient, AsyncVitalisClient])
def test_named_methods_return_their_operations_model(client: type[VitalisClient | AsyncVitalisClient]) -> None:
    for name, op in OPERATIONS.items():
        returned = typing.get_type_hints(getattr(client, name))["return"]
        expected = op.model if op.model is not None else VitalsPage | BucketPage
        assert returned == expected, f"{client.__name__}.{name} returns {returned}, its operation decodes to {expected}"


def test_a_result_of_another_model_is_a_type_error() -> None:
    health = Health(status="ok", version="1")
    assert _expect(Health, health) is health
    with pytest.raises(TypeError, match="expected VitalsPage, got Health"):
        _expect(VitalsPage, health)
