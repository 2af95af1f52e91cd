"""One store, one fan-out behind every face: a change made through Connect reaches gRPC
and gRPC-Web subscribers, one made through gRPC-Web reaches a Connect subscriber, each
event carrying the revision the writer was told."""

from __future__ import annotations

import sonora.client

from gauge.v1 import widget_pb2 as wpb
from gauge.v1 import widget_service_pb2 as spb
from helpers import TIMEOUT, base_url, gauge, widget
from webfaces import (
    GrpcSubscription,
    WebStub,
    WebSubscription,
    connect_client,
    consume,
    kind,
    until_synced,
    upsert_of,
)


def value_content(value: float) -> wpb.Content:
    return wpb.Content(gauge=gauge(value, 0, 10))


def test_connect_change_reaches_grpc_and_grpc_web_subscribers(server, stub, new_id):
    wid = new_id()
    with connect_client(server, codec="json") as connect:
        made = connect.put_widget(
            spb.PutWidgetRequest(widget=widget(wid, content=value_content(1))))
        with GrpcSubscription(stub, ids=[wid]) as grpc_sub, \
                WebSubscription(server, ids=[wid]) as web_sub:
            for sub in (grpc_sub, web_sub):
                snapshot, _ = sub.until_synced()
                assert [e.upsert for e in snapshot] == [made.widget]

            changed = connect.update_widget(spb.UpdateWidgetRequest(
                id=wid, content=wpb.Content(gauge=wpb.Gauge(value=8))))
            for sub in (grpc_sub, web_sub):
                event = sub.next()
                assert upsert_of(wid, 8)(event), event
                assert event.revision == changed.revision and event.upsert == changed

            connect.delete_widget(spb.DeleteWidgetRequest(id=wid))
            for sub in (grpc_sub, web_sub):
                event = sub.next()
                assert kind(event) == "removed" and event.removed == wid, event
                assert event.revision > changed.revision


def test_connect_published_values_reach_grpc_web(server, new_id):
    """PublishValues, client streaming over Connect, seen live over gRPC-Web."""
    wid = new_id()
    with connect_client(server) as connect:
        connect.put_widget(spb.PutWidgetRequest(widget=widget(wid, content=value_content(1))))
        with WebSubscription(server, ids=[wid]) as web_sub:
            web_sub.until_synced()
            summary = connect.publish_values(iter([spb.ValueUpdate(id=wid, value=4)]))
            assert (summary.accepted, summary.rejected) == (1, 0)
            assert upsert_of(wid, 4)(web_sub.next())


def test_grpc_web_change_reaches_a_connect_subscriber(server, new_id):
    wid = new_id()
    with sonora.client.insecure_web_channel(base_url(server)) as channel, \
            connect_client(server, http2=True) as connect:
        web = WebStub(channel)
        made = web.PutWidget(spb.PutWidgetRequest(widget=widget(wid, content=value_content(2))))
        stream = connect.subscribe(spb.SubscribeRequest(ids=[wid]), timeout_ms=int(TIMEOUT * 4000))
        try:
            snapshot, _ = until_synced(stream)
            assert [e.upsert for e in snapshot] == [made.widget]
            changed = web.UpdateWidget(spb.UpdateWidgetRequest(
                id=wid, content=wpb.Content(gauge=wpb.Gauge(value=6))))
            (event,) = consume(stream, 1)
            assert event.revision == changed.revision and event.upsert == changed
            web.DeleteWidget(spb.DeleteWidgetRequest(id=wid))
            (event,) = consume(stream, 1)
            assert kind(event) == "removed" and event.removed == wid
        finally:
            stream.close()
