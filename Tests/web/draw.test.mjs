// The drawing module on its own: each style's elements, the needle's place,
// accessibility attributes, escaping. Run with `node --test Tests/web`.

import assert from "node:assert/strict";
import { test } from "node:test";

import { FAMILIES, FAMILY_SIZES, GAUGE_STYLES, accessibilityOf, drawWidget } from "../../web/assets/draw.mjs";

function gauge(fields = {}) {
  return {
    id: "error-rate",
    name: "Error rate",
    revision: 7,
    content: {
      template: "gauge",
      value: 2.4,
      min_value: 0,
      max_value: 5,
      style: "automatic",
      unit: "%",
      label: "Errors",
      ...fields,
    },
  };
}

/** The attribute `name` of the first element carrying class `klass`. */
function attributeOf(svg, klass, name) {
  const element = svg.match(new RegExp(`<[a-z]+[^>]*class="${token(klass)}"[^>]*>`));
  assert.ok(element, `no .${klass} in ${svg}`);
  const value = element[0].match(new RegExp(`\\b${name}="([^"]*)"`));
  return value?.[1];
}

function has(svg, klass) {
  return new RegExp(`class="${token(klass)}"`).test(svg);
}

/** A class attribute's value holding `klass` as one of its names. */
function token(klass) {
  return `(?:[^"]* )?${klass}(?: [^"]*)?`;
}

test("every style draws in every family as one well-formed svg", () => {
  for (const style of GAUGE_STYLES) {
    for (const family of FAMILIES) {
      const svg = drawWidget(gauge({ style, marks: [{ value: 1, label: "SLO" }] }), family);
      assert.match(svg, /^<svg [^>]*>.*<\/svg>$/s);
      const { width, height } = FAMILY_SIZES[family];
      assert.ok(svg.includes(`viewBox="0 0 ${width} ${height}"`), `${style} ${family}`);
      assert.ok(!/\sstyle=/.test(svg), "inline styles are refused by the page's CSP");
      assert.ok(!/NaN|undefined/.test(svg), `${style} ${family}: ${svg}`);
      const opened = (svg.match(/<(g|svg|text|defs|linearGradient)\b/g) ?? []).length;
      const closed = (svg.match(/<\/(g|svg|text|defs|linearGradient)>/g) ?? []).length;
      assert.equal(opened, closed, `${style} ${family}`);
    }
  }
});

test("linear styles have a bar with an indicator; capacity styles a fill", () => {
  for (const style of ["automatic", "linear", "accessory_linear"]) {
    const svg = drawWidget(gauge({ style }), "small");
    assert.ok(has(svg, "track") && has(svg, "needle") && !has(svg, "fill"), style);
    assert.equal(attributeOf(svg, "needle", "data-position"), "0.48");
  }
  for (const style of ["linear_capacity", "accessory_linear_capacity"]) {
    const svg = drawWidget(gauge({ style }), "small");
    assert.ok(has(svg, "track") && has(svg, "fill") && !has(svg, "needle"), style);
    const track = Number(attributeOf(svg, "track", "width"));
    const fill = Number(attributeOf(svg, "fill", "width"));
    assert.ok(Math.abs(fill - track * 0.48) < 0.02, `${fill} of ${track}`);
  }
});

test("the circular needle turns with the value over a 270° arc", () => {
  const angles = [0, 2.5, 5].map((value) =>
    Number(attributeOf(drawWidget(gauge({ style: "circular", value }), "small"), "needle", "data-angle")),
  );
  assert.deepEqual(angles, [135, 270, 405]);
  const svg = drawWidget(gauge({ style: "circular", value: 2.5 }), "small");
  assert.match(attributeOf(svg, "needle", "transform"), /^rotate\(270 /);
});

test("circular capacity fills a ring instead of pointing", () => {
  const svg = drawWidget(gauge({ style: "accessory_circular_capacity", value: 5 }), "small");
  assert.ok(has(svg, "fill") && !has(svg, "needle") && !has(svg, "min-label"));
  assert.equal(attributeOf(svg, "fill", "data-position"), "1");
});

test("end labels carry the unit; their own labels win", () => {
  const svg = drawWidget(gauge({ style: "linear" }), "medium");
  assert.match(svg, /class="min-label[^"]*"[^>]*>0%</);
  assert.match(svg, /class="max-label[^"]*"[^>]*>5%</);
  assert.match(svg, /class="current-label[^"]*"[^>]*>2\.4%</);
  const own = drawWidget(gauge({ min_label: "low", max_label: "high", current_value_label: "ok" }), "medium");
  assert.match(own, />low</);
  assert.match(own, />high</);
  assert.match(own, />ok</);
  const words = drawWidget(gauge({ unit: "rpm", max_value: 5000, value: 1200 }), "medium");
  assert.match(words, />5000 rpm</);
});

test("marks are drawn with their labels, those outside the bounds left out", () => {
  const svg = drawWidget(
    gauge({ marks: [{ value: 1, label: "SLO" }, { value: 9, label: "never" }] }),
    "large",
  );
  assert.equal((svg.match(/class="mark /g) ?? []).length, 1);
  assert.match(svg, />SLO</);
  assert.ok(!svg.includes("never"));
});

test("a gradient's stops become the tint; colours are attributes", () => {
  const svg = drawWidget(
    gauge({ gradient: ["green", "#FF000080"], text_color: "blue", background_color: "102030" }),
    "small",
  );
  assert.match(svg, /<linearGradient id="tint-small-error-rate"/);
  assert.match(svg, /<stop offset="0" stop-color="#34c759"\/><stop offset="1" stop-color="#ff000080"\/>/);
  assert.match(svg, /class="track" fill="url\(#tint-small-error-rate\)"/);
  assert.match(svg, /class="card" [^>]*fill="#102030"/);
  assert.match(svg, /class="label" fill="#007aff"/);
  const accent = drawWidget(gauge({ accent_color: "red", style: "linear_capacity" }), "small");
  assert.match(accent, /class="fill" fill="#ff3b30"/);
});

test("Lock Screen families are monochrome", () => {
  const svg = drawWidget(gauge({ gradient: ["green", "red"], accent_color: "red" }), "accessory_rectangular");
  assert.ok(!svg.includes("linearGradient") && !svg.includes("#ff3b30"));
});

test("gauges are meters with bounds, value and spoken text", () => {
  const svg = drawWidget(gauge(), "small");
  assert.match(svg, /role="meter"/);
  assert.match(svg, /aria-valuemin="0"/);
  assert.match(svg, /aria-valuemax="5"/);
  assert.match(svg, /aria-valuenow="2.4"/);
  assert.match(svg, /aria-valuetext="2.4%, Errors"/);
  assert.deepEqual(accessibilityOf({ content: { template: "progress", value: 0.25 } }), {
    role: "progressbar",
    min: 0,
    max: 1,
    now: 0.25,
    text: "25%",
  });
  assert.equal(accessibilityOf({ content: { template: "value", value: 3 } }).role, "img");
});

test("progress draws SwiftUI's linear bar with its fraction", () => {
  const svg = drawWidget({ id: "p", content: { template: "progress", value: 0.4, label: "Upload" } }, "small");
  assert.match(svg, />40%</);
  assert.equal(attributeOf(svg, "fill", "data-position"), "0.4");
});

test("a value is a large number with its unit, and a range line when bounded", () => {
  const plain = drawWidget({ id: "v", content: { template: "value", value: 1234.5, unit: "rpm" } }, "small");
  assert.match(plain, /class="value[^"]*"[^>]*>1234.5<tspan[^>]*>rpm</);
  assert.ok(!has(plain, "range"));
  const bounded = drawWidget(
    { id: "v", content: { template: "value", value: 5, min_value: 0, max_value: 10 } },
    "small",
  );
  assert.ok(has(bounded, "range"));
  assert.equal(attributeOf(bounded, "needle", "data-position"), "0.5");
});

test("the trend shows as an arrow", () => {
  assert.match(drawWidget(gauge({ trend: "up" }), "small"), /data-trend="up">↑</);
  assert.match(drawWidget(gauge({ trend: "down" }), "accessory_inline"), /↓ Errors 2.4%/);
});

test("text from the widget is escaped", () => {
  const svg = drawWidget(gauge({ label: `<script>"&'`, subtitle: "a<b" }), "large");
  assert.ok(!svg.includes("<script>"));
  assert.match(svg, /&lt;script&gt;&quot;&amp;&#39;/);
  const odd = drawWidget({ ...gauge({ gradient: ["red", "blue"] }), id: "a.b/c" }, "small");
  assert.match(odd, /id="tint-small-a_2eb_2fc"/);
});

test("a point on a track is a fraction of it, unclamped past the ends", async () => {
  const { fractionAt } = await import("../../web/assets/draw.mjs");
  const bar = { x: 10, width: 100 };
  assert.equal(fractionAt(bar, 60, 0), 0.5);
  assert.equal(fractionAt(bar, 130, 0), 1.2);
  const arc = { cx: 0, cy: 0, from: 135, sweep: 270 };
  const at = (degrees) => {
    const radians = (degrees * Math.PI) / 180;
    return fractionAt(arc, Math.cos(radians), Math.sin(radians));
  };
  assert.ok(Math.abs(at(270) - 0.5) < 1e-9, "straight up is the middle");
  assert.ok(Math.abs(at(135)) < 1e-9);
  assert.ok(at(60) > 1, "just past the end, in the gap");
  assert.ok(at(120) < 0, "just before the start, in the gap");
  const ring = { cx: 0, cy: 0, from: -90, sweep: 360 };
  assert.ok(Math.abs(fractionAt(ring, 1, 0) - 0.25) < 1e-9);
});
