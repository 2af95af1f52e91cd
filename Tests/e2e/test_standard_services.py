"""grpc.health.v1.Health and server reflection (v1 and v1alpha) on gauged, with the
stock grpcio-health-checking and grpcio-reflection clients."""

from __future__ import annotations

import grpc
import pytest
from google.protobuf import descriptor_pool, json_format, message_factory
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)

from helpers import TIMEOUT, rpc_error

WIDGETS = "gauge.v1.WidgetService"
TOKENS = "gauge.v1.TokenService"
HEALTH = "grpc.health.v1.Health"
REFLECTION_V1 = "grpc.reflection.v1.ServerReflection"
REFLECTION_V1ALPHA = "grpc.reflection.v1alpha.ServerReflection"
Serving = health_pb2.HealthCheckResponse


# --------------------------------------------------------------------------- health


@pytest.fixture
def health(channel):
    return health_pb2_grpc.HealthStub(channel)


@pytest.mark.parametrize("service", ["", WIDGETS, HEALTH, REFLECTION_V1, REFLECTION_V1ALPHA])
def test_check_reports_serving_for_the_server_and_each_service(health, service):
    reply = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=TIMEOUT)
    assert reply.status == Serving.SERVING


def test_check_of_an_unknown_service_is_not_found(health):
    err = rpc_error(health.Check, health_pb2.HealthCheckRequest(service="nope.Service"),
                    timeout=TIMEOUT)
    assert err.code() == grpc.StatusCode.NOT_FOUND, (err.code(), err.details())
    assert "nope.Service" in err.details()


def test_watch_answers_the_current_status_at_once_and_stays_open(health):
    replies = health.Watch(health_pb2.HealthCheckRequest(service=WIDGETS), timeout=TIMEOUT)
    assert next(replies).status == Serving.SERVING
    assert replies.is_active(), "Watch ended after its first answer"
    replies.cancel()


def test_watch_of_an_unknown_service_says_so_and_keeps_watching(health):
    replies = health.Watch(health_pb2.HealthCheckRequest(service="nope.Service"),
                           timeout=TIMEOUT)
    assert next(replies).status == Serving.SERVICE_UNKNOWN
    assert replies.is_active(), "Watch of an unknown service must not end the call"
    replies.cancel()


# --------------------------------------------------------------------------- reflection


def test_reflection_lists_every_service(channel):
    db = ProtoReflectionDescriptorDatabase(channel)
    assert set(db.get_services()) == {WIDGETS, TOKENS, HEALTH, REFLECTION_V1, REFLECTION_V1ALPHA}


def test_reflection_serves_files_by_name_and_symbol_with_their_imports(channel):
    db = ProtoReflectionDescriptorDatabase(channel)
    by_name = db.FindFileByName("gauge/v1/widget_service.proto")
    assert by_name.package == "gauge.v1"
    assert "gauge/v1/widget.proto" in by_name.dependency
    assert [s.name for s in by_name.service] == ["WidgetService"]
    # The import came along with the file, so the database knows it already.
    assert db.FindFileByName("gauge/v1/widget.proto").package == "gauge.v1"

    by_symbol = db.FindFileContainingSymbol(WIDGETS)
    assert by_symbol == by_name
    method = db.FindFileContainingSymbol(f"{WIDGETS}.PutWidget")
    assert method.name == "gauge/v1/widget_service.proto"
    assert db.FindFileContainingSymbol("grpc.health.v1.HealthCheckRequest").name == (
        "grpc/health/v1/health.proto"
    )


def test_reflection_serves_only_what_gauged_serves(channel):
    db = ProtoReflectionDescriptorDatabase(channel)
    for lookup, name in [
        (db.FindFileContainingSymbol, "grpc.testing.TestService"),
        (db.FindFileContainingSymbol, "gauge.v1.NoSuchThing"),
        (db.FindFileByName, "grpc/testing/test.proto"),
    ]:
        with pytest.raises(KeyError):
            lookup(name)


def test_a_dynamic_stub_built_from_reflection_calls_put_widget(channel, new_id):
    """No generated code: everything comes from the descriptors the server sent."""
    pool = descriptor_pool.DescriptorPool(ProtoReflectionDescriptorDatabase(channel))
    method = pool.FindServiceByName(WIDGETS).methods_by_name["PutWidget"]
    request_class = message_factory.GetMessageClass(method.input_type)
    response_class = message_factory.GetMessageClass(method.output_type)
    wid = new_id()
    request = json_format.ParseDict(
        {"widget": {"id": wid, "name": "via reflection",
                    "content": {"gauge": {"value": 1, "minValue": 0, "maxValue": 2}}}},
        request_class(),
    )
    put = channel.unary_unary(
        f"/{WIDGETS}/PutWidget",
        request_serializer=request_class.SerializeToString,
        response_deserializer=response_class.FromString,
    )
    reply = put(request, timeout=TIMEOUT)
    assert reply.created is True
    assert reply.widget.id == wid
    assert reply.widget.content.gauge.value == 1


def _reflect(channel, service: str, requests):
    """Raw ServerReflectionInfo on `service`; v1 has the wire shape of v1alpha."""
    info = channel.stream_stream(
        f"/{service}/ServerReflectionInfo",
        request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
        response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
    )
    return list(info(iter(requests), timeout=TIMEOUT))


@pytest.mark.parametrize("service", [REFLECTION_V1, REFLECTION_V1ALPHA])
def test_both_versions_answer_each_request_in_order_on_one_stream(channel, service):
    Request = reflection_pb2.ServerReflectionRequest
    requests = [
        Request(host="h", list_services=""),
        Request(file_by_filename="grpc/health/v1/health.proto"),
        Request(file_containing_symbol="gauge.v1.Nope"),
        Request(file_containing_symbol="gauge.v1.Widget"),
    ]
    replies = _reflect(channel, service, requests)
    assert len(replies) == 4
    assert replies[0].valid_host == "h"
    assert replies[0].original_request == requests[0]
    assert {s.name for s in replies[0].list_services_response.service} >= {WIDGETS, HEALTH}
    health_files = replies[1].file_descriptor_response.file_descriptor_proto
    assert len(health_files) == 1
    assert replies[2].WhichOneof("message_response") == "error_response"
    assert replies[2].error_response.error_code == grpc.StatusCode.NOT_FOUND.value[0]
    assert "gauge.v1.Nope" in replies[2].error_response.error_message
    assert replies[3].original_request.file_containing_symbol == "gauge.v1.Widget"
    assert len(replies[3].file_descriptor_response.file_descriptor_proto) >= 1
