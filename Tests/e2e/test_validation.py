"""Validation: every rule rejects with INVALID_ARGUMENT + google.rpc.BadRequest, and the
edges that are allowed are accepted. Each case is one PutWidget."""

from __future__ import annotations

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from gauge.v1 import widget_pb2 as wpb
from helpers import (
    INF,
    NAN,
    assert_invalid,
    gauge,
    get,
    put,
    rpc_error,
    same_content,
    update,
    violations,
    widget,
)


def content(template=None, **fields) -> wpb.Content:
    c = wpb.Content(**fields)
    if template is not None:
        slot = getattr(c, template.DESCRIPTOR.name.lower())
        slot.SetInParent()  # present even when the template message is empty
        slot.CopyFrom(template)
    return c


def g(**kw) -> wpb.Content:
    """A gauge content with overrides for the gauge (value 2 in [0, 5] by default)."""
    return content(gauge(**kw))


def colour(field: str, value: str) -> wpb.Content:
    return content(gauge(), **{field: value})


NO_CONTENT = object()


def case(label, fields, content=None, id=None, name=None):
    """A rejected PutWidget: overrides of a valid widget, and the fields it must report.
    A field may be a tuple of acceptable alternatives."""
    return pytest.param(content, id, name, fields, id=label)


REJECTED = [
    # ids
    case("id-empty", ["id"], id=""),
    case("id-129-chars", ["id"], id="a" * 129),
    case("id-leading-underscore", ["id"], id="_abc"),
    case("id-leading-dash", ["id"], id="-abc"),
    case("id-bad-char-dot", ["id"], id="a.b"),
    case("id-bad-char-space", ["id"], id="a b"),
    case("id-bad-char-slash", ["id"], id="a/b"),
    case("id-non-ascii", ["id"], id="caf\u00e9"),
    # name
    case("name-257", ["name"], name="n" * 257),
    # gauge: value, min and max required and finite
    case("gauge-value-missing", ["content.gauge.value"], g(value=None)),
    case("gauge-min-missing", ["content.gauge.min_value"], g(min_value=None)),
    case("gauge-max-missing", ["content.gauge.max_value"], g(max_value=None)),
    case("gauge-value-nan", ["content.gauge.value"], g(value=NAN)),
    case("gauge-value-inf", ["content.gauge.value"], g(value=INF)),
    case("gauge-value-neg-inf", ["content.gauge.value"], g(value=-INF)),
    case("gauge-min-nan", ["content.gauge.min_value"], g(min_value=NAN)),
    case("gauge-min-neg-inf", ["content.gauge.min_value"], g(min_value=-INF)),
    case("gauge-max-nan", ["content.gauge.max_value"], g(max_value=NAN)),
    case("gauge-max-inf", ["content.gauge.max_value"], g(max_value=INF)),
    # gauge: min < max strictly; the value inside the bounds, rejected not clamped
    case("gauge-min-eq-max", [("content.gauge.min_value", "content.gauge.max_value")],
         g(value=1, min_value=1, max_value=1)),
    case("gauge-min-gt-max", [("content.gauge.min_value", "content.gauge.max_value")],
         g(value=1, min_value=2, max_value=0)),
    case("gauge-value-above-max", ["content.gauge.value"], g(value=7)),
    case("gauge-value-below-min", ["content.gauge.value"], g(value=-0.5)),
    # gauge: gradient 2...8 colours; marks at most 16, each within the bounds
    case("gradient-1", ["content.gauge.gradient"], g(gradient=["red"])),
    case("gradient-9", ["content.gauge.gradient"], g(gradient=["red"] * 9)),
    case("gradient-bad-colour", ["content.gauge.gradient"], g(gradient=["red", "#GGG"])),
    case("gradient-empty-colour", ["content.gauge.gradient"], g(gradient=["red", ""])),
    case("marks-17", ["content.gauge.marks"], g(marks=[wpb.Mark(value=1)] * 17)),
    case("mark-above-max", ["content.gauge.marks"],
         g(marks=[wpb.Mark(value=1), wpb.Mark(value=6)])),
    case("mark-below-min", ["content.gauge.marks"], g(marks=[wpb.Mark(value=-1)])),
    case("mark-nan", ["content.gauge.marks"], g(marks=[wpb.Mark(value=NAN)])),
    # progress: 0...1
    case("progress-missing", ["content.progress.value"], content(wpb.Progress())),
    case("progress-negative", ["content.progress.value"], content(wpb.Progress(value=-0.01))),
    case("progress-above-1", ["content.progress.value"], content(wpb.Progress(value=1.01))),
    case("progress-nan", ["content.progress.value"], content(wpb.Progress(value=NAN))),
    # value: the value required; bounds min < max when both are given
    case("value-missing", ["content.value.value"], content(wpb.Value(min_value=0, max_value=1))),
    case("value-min-eq-max", [("content.value.min_value", "content.value.max_value")],
         content(wpb.Value(value=1, min_value=3, max_value=3))),
    case("value-min-gt-max", [("content.value.min_value", "content.value.max_value")],
         content(wpb.Value(value=1, min_value=4, max_value=3))),
    # shared strings
    case("unit-33", ["content.unit"], content(gauge(), unit="u" * 33)),
    case("unit-33-multibyte", ["content.unit"], content(gauge(), unit="\u20ac" * 33)),
    case("label-257", ["content.label"], content(gauge(), label="l" * 257)),
    case("subtitle-257", ["content.subtitle"], content(gauge(), subtitle="s" * 257)),
    case("icon-129", ["content.icon"], content(gauge(), icon="i" * 129)),
    case("icon-space", ["content.icon"], content(gauge(), icon="chart line")),
    case("icon-double-dot", ["content.icon"], content(gauge(), icon="a..b")),
    case("icon-mdi-empty", ["content.icon"], content(gauge(), icon="mdi:")),
    case("icon-slash", ["content.icon"], content(gauge(), icon="a/b")),
    case("icon-empty", ["content.icon"], content(gauge(), icon="")),
    # the template
    case("no-template", ["content"], content(label="only a label")),
    case("no-content", ["content"], NO_CONTENT),
]
for _field in ("accent_color", "background_color", "text_color"):
    for _label, _bad in (
        ("hex-ggg", "#GGG"),
        ("word", "notacolour"),
        ("empty", ""),
        ("hex-5", "#12345"),
        ("hex-7", "1234567"),
        ("hex-9", "#123456789"),
    ):
        REJECTED.append(case(f"{_field}-{_label}", [f"content.{_field}"], colour(_field, _bad)))


@pytest.mark.parametrize("c,wid,name,fields", REJECTED)
def test_rejected(stub, new_id, c, wid, name, fields):
    w = widget(new_id() if wid is None else wid, name="valid" if name is None else name)
    if c is NO_CONTENT:
        w.ClearField("content")
    elif c is not None:
        w.content.CopyFrom(c)
    err = rpc_error(put, stub, w)
    assert_invalid(err, *fields)
    if wid is None:  # nothing was stored under the (valid) id
        assert rpc_error(get, stub, w.id).code() == grpc.StatusCode.NOT_FOUND


ACCEPTED = [
    ("id-1-char", None),
    ("id-128-chars", None),
    ("id-all-classes", None),
    ("name-256", None),
    ("name-256-multibyte", None),
    ("name-empty", None),
    ("gauge-value-at-min", g(value=0)),
    ("gauge-value-at-max", g(value=5)),
    ("gauge-negative-bounds", g(value=-5, min_value=-10, max_value=-1)),
    ("gradient-2", g(gradient=["red", "#00ff00"])),
    ("gradient-8", g(gradient=["red", "orange", "yellow", "green", "blue", "purple",
                               "ff000080", "#000000FF"])),
    ("marks-16", g(marks=[wpb.Mark(value=i * 5 / 15, label=str(i)) for i in range(16)])),
    ("marks-at-bounds", g(marks=[wpb.Mark(value=0), wpb.Mark(value=5)])),
    ("progress-0", content(wpb.Progress(value=0))),
    ("progress-1", content(wpb.Progress(value=1))),
    ("value-no-bounds", content(wpb.Value(value=-123.5))),
    ("value-min-only", content(wpb.Value(value=1, min_value=0))),
    ("value-outside-bounds-not-clamped", content(wpb.Value(value=10, min_value=0, max_value=5))),
    ("unit-32", content(gauge(), unit="u" * 32)),
    ("unit-32-multibyte", content(gauge(), unit="\u20ac" * 32)),
    ("unit-32-multibyte-2", content(gauge(), unit="\u00b0" * 32)),
    ("label-256", content(gauge(), label="l" * 256)),
    ("label-empty", content(gauge(), label="")),
    ("subtitle-256", content(gauge(), subtitle="s" * 256)),
    ("icon-sf-symbol", content(gauge(), icon="a.b.c")),
    ("icon-sf-symbol-long", content(gauge(), icon="chart.line.uptrend.xyaxis")),
    ("icon-sf-symbol-digits", content(gauge(), icon="42.circle")),
    ("icon-mdi", content(gauge(), icon="mdi:name")),
    ("icon-mdi-dashed", content(gauge(), icon="mdi:thermometer-lines")),
    ("icon-128", content(gauge(), icon="i" * 128)),
    ("colours-named", content(gauge(), accent_color="red", background_color="blue",
                              text_color="orange")),
    ("colours-hex6", content(gauge(), accent_color="#ff8800", background_color="FF8800",
                             text_color="#AbCdEf")),
    ("colours-hex8", content(gauge(), accent_color="#11223344", background_color="11223344",
                             text_color="#FFFFFF00")),
    ("trend-and-style", content(gauge(style=wpb.ACCESSORY_CIRCULAR_CAPACITY), trend=wpb.DOWN)),
]

_NAMES = {"name-256": "n" * 256, "name-256-multibyte": "\u00e9" * 256, "name-empty": ""}


@pytest.mark.parametrize("case,c", ACCEPTED, ids=[a[0] for a in ACCEPTED])
def test_accepted(stub, new_id, case, c):
    wid = new_id()
    if case == "id-1-char":
        wid = "a"
    elif case == "id-128-chars":
        wid = (wid + "x" * 128)[:128]
    elif case == "id-all-classes":
        wid = wid + "-AZaz09_-"
    w = widget(wid, name=_NAMES.get(case, "valid"), content=c if c is not None else content(gauge()))
    resp = put(stub, w)
    assert resp.widget.id == wid
    assert resp.widget.name == w.name
    # Stored as sent, never clamped.
    assert same_content(resp.widget.content, w.content), resp.widget.content
    assert get(stub, wid) == resp.widget


def test_value_outside_bounds_message(stub, new_id):
    err = rpc_error(put, stub, widget(new_id(), content=g(value=7, min_value=0, max_value=5)))
    assert_invalid(err, "content.gauge.value")
    assert "content.gauge.value: 7 is outside [0, 5]" in err.details(), err.details()
    found = [v for v in violations(err) if v.field == "content.gauge.value"]
    assert [v.description for v in found] == ["7 is outside [0, 5]"]


def test_two_problems_reported_together(stub, new_id):
    w = widget("_bad", name="n" * 300, content=g(value=7))
    err = rpc_error(put, stub, w)
    found = assert_invalid(err, "id", "name", "content.gauge.value")
    assert len(found) >= 3
    assert err.details().count(": ") >= 3


def test_error_status_details_shape(stub, new_id):
    """google.rpc.Status in grpc-status-details-bin: code, message, one BadRequest."""
    err = rpc_error(put, stub, widget("_bad", content=g(value=9)))
    status = rpc_status.from_call(err)
    assert status is not None
    assert status.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert status.message == err.details()
    bad = [d for d in status.details if d.Is(error_details_pb2.BadRequest.DESCRIPTOR)]
    assert len(bad) == 1, status.details
    request = error_details_pb2.BadRequest()
    bad[0].Unpack(request)
    assert {v.field for v in request.field_violations} == {"id", "content.gauge.value"}


def test_update_validates_merged_result(stub, new_id):
    wid = new_id()
    put(stub, widget(wid, content=g(value=2)))
    # Lowering max below the stored value makes the merged widget invalid.
    err = rpc_error(update, stub, wid, content=wpb.Content(gauge=wpb.Gauge(max_value=1)))
    assert_invalid(err, ("content.gauge.value", "content.gauge.max_value"))


def test_not_found_shape(stub, new_id):
    wid = new_id("-missing")
    err = rpc_error(get, stub, wid)
    assert err.code() == grpc.StatusCode.NOT_FOUND
    assert wid in err.details(), err.details()


def test_thousands_of_violations_are_counted_not_listed(stub, new_id):
    """A rule broken once per element of a repeated field: the status lists the
    first ten and counts the rest, so its trailers stay inside what clients
    take (they used to pass 64 KiB, and the call never ended)."""
    wid = new_id()
    put(stub, widget(wid, content=content(wpb.Value(value=1))))
    err = rpc_error(update, stub, wid, name="z", clear=["name"] * 1000)
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, (err.code(), err.details())
    assert err.details().endswith("; and 990 more"), err.details()
    assert len(violations(err)) == 10
    assert get(stub, wid).name == "e2e widget"
