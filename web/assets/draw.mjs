// Drawing: a widget (the REST JSON shape) and a family in, an SVG string
// out. Pure and DOM-free, so Node tests it without a browser and the
// dashboard and the playground draw alike.
//
// Only presentation attributes, never `style=`: the page's
// Content-Security-Policy refuses inline styles. Colours the widget does not
// set are left to the stylesheet through classes (`ink`, `tint`, `card`),
// which is how light and dark follow the viewer's preference.

import { cssColor, escapeMarkup, formatNumber, fraction, trendArrow, withUnit } from "./format.mjs";

/** The WidgetKit families, in the switch's order. */
export const FAMILIES = [
  "small",
  "medium",
  "large",
  "accessory_circular",
  "accessory_rectangular",
  "accessory_inline",
];

/** Each family's size in points, as WidgetKit lays them out on a phone. */
export const FAMILY_SIZES = {
  small: { width: 170, height: 170 },
  medium: { width: 364, height: 170 },
  large: { width: 364, height: 382 },
  accessory_circular: { width: 76, height: 76 },
  accessory_rectangular: { width: 172, height: 76 },
  accessory_inline: { width: 257, height: 26 },
};

/** Gauge styles the server knows (GaugeStyle's schema names). */
export const GAUGE_STYLES = [
  "automatic",
  "linear",
  "linear_capacity",
  "accessory_linear",
  "accessory_linear_capacity",
  "circular",
  "accessory_circular",
  "accessory_circular_capacity",
];

// The circular styles open at the bottom: from 135° to 405° (SVG angles,
// clockwise from the positive x axis), a quarter left open for the bounds.
const ARC_START = 135;
const ARC_SWEEP = 270;

/** Two decimals are finer than any screen's pixel at these sizes. */
const n = (x) => Math.round(x * 100) / 100;

/**
 * What assistive technology hears, as SwiftUI gives it: role, bounds, value
 * and the spoken value (value with unit, then label).
 */
export function accessibilityOf(widget) {
  const content = widget.content ?? {};
  const label = content.label ? `, ${content.label}` : "";
  switch (content.template) {
    case "gauge":
      return {
        role: "meter",
        min: content.min_value,
        max: content.max_value,
        now: content.value,
        text: `${withUnit(content.value, content.unit)}${label}`,
      };
    case "progress":
      return {
        role: "progressbar",
        min: 0,
        max: 1,
        now: content.value,
        text: `${formatNumber(content.value * 100)}%${label}`,
      };
    default: {
      const bounded = Number.isFinite(content.min_value) && Number.isFinite(content.max_value);
      return {
        role: bounded ? "meter" : "img",
        min: bounded ? content.min_value : undefined,
        max: bounded ? content.max_value : undefined,
        now: bounded ? content.value : undefined,
        text: `${withUnit(content.value, content.unit)}${label}`,
      };
    }
  }
}

/** The widget drawn for `family` as one `<svg>` element's markup. */
export function drawWidget(widget, family) {
  const size = FAMILY_SIZES[family] ?? FAMILY_SIZES.small;
  const content = widget.content ?? {};
  const style = content.template === "gauge" ? content.style ?? "automatic" : content.template;
  const paint = paintOf(widget, family);
  const a11y = accessibilityOf(widget);
  const aria = [`role="${a11y.role}"`, `aria-valuetext="${escapeMarkup(a11y.text)}"`];
  if (a11y.role === "img") {
    aria.push(`aria-label="${escapeMarkup(a11y.text)}"`);
  } else {
    aria.push(
      `aria-valuemin="${a11y.min}"`,
      `aria-valuemax="${a11y.max}"`,
      `aria-valuenow="${a11y.now}"`,
    );
    if (content.label) aria.push(`aria-label="${escapeMarkup(content.label)}"`);
  }
  const body = drawBody(widget, family, size, paint);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size.width} ${size.height}" ` +
    `width="${size.width}" height="${size.height}" ` +
    `class="drawing family-${family} style-${escapeMarkup(style)}" ` +
    `data-family="${family}" data-style="${escapeMarkup(style)}" ${aria.join(" ")}>` +
    body +
    `</svg>`
  );
}

/**
 * Colours as attributes when the widget sets them, as classes for the
 * stylesheet when it does not. Lock Screen families are monochrome, as
 * WidgetKit renders them: the widget's colours do not apply there.
 */
function paintOf(widget, family) {
  const content = widget.content ?? {};
  const accessory = family.startsWith("accessory_");
  const gradient = accessory ? [] : (content.gradient ?? []).map((c) => cssColor(c, null));
  const accent = accessory ? null : cssColor(content.accent_color, null);
  const ink = accessory ? null : cssColor(content.text_color, null);
  const background = accessory ? null : cssColor(content.background_color, null);
  const gradientId = `tint-${family}-${safeId(widget.id ?? "")}`;
  const usesGradient = gradient.length > 0 && gradient.every((c) => c !== null);
  return {
    accessory,
    gradientId,
    gradient: usesGradient ? gradient : [],
    // Attribute strings, each with a leading space, ready to splice in.
    fill: (klass) => tintAttr("fill", klass, usesGradient, gradientId, accent),
    stroke: (klass) => tintAttr("stroke", klass, usesGradient, gradientId, accent),
    solidFill: (klass) =>
      accent ? ` class="${klass}" fill="${accent}"` : ` class="${klass} tint-fill"`,
    text: (klass) => (ink ? ` class="${klass}" fill="${ink}"` : ` class="${klass} ink"`),
    background,
  };
}

function tintAttr(property, klass, usesGradient, gradientId, accent) {
  if (usesGradient) return ` class="${klass}" ${property}="url(#${gradientId})"`;
  if (accent) return ` class="${klass}" ${property}="${accent}"`;
  return ` class="${klass} tint-${property}"`;
}

/** An id usable in `url(#...)`: widget ids may hold `.`, `:`, `/`. */
function safeId(id) {
  return id.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`);
}

function gradientDefs(paint) {
  if (paint.gradient.length === 0) return "";
  const last = Math.max(1, paint.gradient.length - 1);
  const stops = paint.gradient
    .map((color, i) => `<stop offset="${n(i / last)}" stop-color="${color}"/>`)
    .join("");
  return `<defs><linearGradient id="${paint.gradientId}" x1="0" y1="0" x2="1" y2="0">${stops}</linearGradient></defs>`;
}

function drawBody(widget, family, size, paint) {
  const content = widget.content ?? {};
  const card = paint.background
    ? `<rect class="card" width="${size.width}" height="${size.height}" rx="${cornerOf(family)}" fill="${paint.background}"/>`
    : `<rect class="card card-default" width="${size.width}" height="${size.height}" rx="${cornerOf(family)}"/>`;
  if (family === "accessory_inline") return card + inlineText(content, size, paint);
  const defs = gradientDefs(paint);
  if (family === "accessory_circular") return defs + card + accessoryCircular(content, size, paint);
  if (family === "accessory_rectangular") {
    return defs + card + accessoryRectangular(content, size, paint);
  }
  const big = family === "large";
  const pad = big ? 20 : 16;
  const header = headerText(content, pad, big, size, paint);
  const top = pad + (content.label || content.trend ? (big ? 24 : 20) : 0) +
    (content.subtitle ? (big ? 20 : 16) : 0) + 6;
  const box = { x: pad, y: top, w: size.width - 2 * pad, h: size.height - top - pad };
  return defs + card + header + drawContent(content, box, big, paint);
}

function cornerOf(family) {
  if (family === "accessory_circular") return 38;
  if (family === "accessory_inline") return 4;
  return family.startsWith("accessory_") ? 10 : 22;
}

function drawContent(content, box, big, paint) {
  switch (content.template) {
    case "gauge":
      return circularStyle(content.style)
        ? circularGauge(content, box, paint, { capacity: capacityStyle(content.style), big })
        : linearGauge(content, box, paint, {
            capacity: capacityStyle(content.style),
            compact: (content.style ?? "").startsWith("accessory_"),
            big,
          });
    case "progress":
      return progressBar(content, box, paint, big);
    default:
      return plainValue(content, box, paint, big);
  }
}

function circularStyle(style) {
  return style === "circular" || style === "accessory_circular" || style === "accessory_circular_capacity";
}

function capacityStyle(style) {
  return style === "linear_capacity" || style === "accessory_linear_capacity" ||
    style === "accessory_circular_capacity";
}

/** Label (with the trend's arrow) and subtitle, top left. */
function headerText(content, pad, big, size, paint) {
  let out = "";
  let y = pad;
  const arrow = trendArrow(content.trend);
  if (content.label || arrow) {
    y += big ? 18 : 15;
    out += `<text x="${pad}" y="${y}" font-size="${big ? 18 : 15}" font-weight="600"${paint.text("label")}>${escapeMarkup(content.label ?? "")}</text>`;
    if (arrow) {
      out += `<text x="${size.width - pad}" y="${y}" font-size="${big ? 18 : 15}" text-anchor="end"${paint.text("trend")} data-trend="${escapeMarkup(content.trend)}">${arrow}</text>`;
    }
  }
  if (content.subtitle) {
    y += big ? 20 : 16;
    out += `<text x="${pad}" y="${y}" font-size="${big ? 14 : 12}"${paint.text("subtitle secondary")}>${escapeMarkup(content.subtitle)}</text>`;
  }
  return out;
}

/** The current value's text: its own label, or the value with its unit. */
function currentText(content) {
  return content.current_value_label ?? withUnit(content.value, content.unit);
}

/** The end labels: their own, or the bounds with the unit (the seed's "MAX 5%"). */
function boundTexts(content) {
  return {
    min: content.min_label ?? withUnit(content.min_value, content.unit),
    max: content.max_label ?? withUnit(content.max_value, content.unit),
  };
}

function marksWithin(content) {
  return (content.marks ?? []).filter(
    (mark) => mark.value >= content.min_value && mark.value <= content.max_value,
  );
}

/**
 * SwiftUI's linear gauges: a bar with an indicator (linear, automatic), or
 * filled to the value (capacity); the accessory ones thinner, smaller text.
 */
function linearGauge(content, box, paint, { capacity, compact, big }) {
  const f = fraction(content.value, content.min_value, content.max_value);
  const valueSize = compact ? 16 : big ? 34 : 26;
  const barHeight = capacity ? (compact ? 6 : 10) : compact ? 4 : 6;
  const labelSize = compact ? 10 : big ? 13 : 11;
  const marks = marksWithin(content);
  const barY = box.y + valueSize + 10;
  let out = `<text x="${n(box.x)}" y="${n(box.y + valueSize)}" font-size="${valueSize}" font-weight="600"${paint.text("current-label")}>${escapeMarkup(currentText(content))}</text>`;
  out += `<rect${paint.fill("track")} x="${n(box.x)}" y="${n(barY)}" width="${n(box.w)}" height="${barHeight}" rx="${barHeight / 2}"${capacity ? ' opacity="0.3"' : ""}/>`;
  if (capacity) {
    out += `<rect${paint.fill("fill")} x="${n(box.x)}" y="${n(barY)}" width="${n(box.w * f)}" height="${barHeight}" rx="${barHeight / 2}" data-position="${n4(f)}"/>`;
  } else {
    const r = barHeight + 1;
    out += `<circle class="needle" cx="${n(box.x + box.w * f)}" cy="${n(barY + barHeight / 2)}" r="${r}" stroke-width="2" data-position="${n4(f)}"/>`;
  }
  let belowY = barY + barHeight + labelSize + 4;
  if (marks.length > 0) {
    out += `<g class="marks">`;
    for (const mark of marks) {
      const x = box.x + box.w * fraction(mark.value, content.min_value, content.max_value);
      out += `<line class="mark ink-stroke" x1="${n(x)}" y1="${n(barY + barHeight + 2)}" x2="${n(x)}" y2="${n(barY + barHeight + 6)}" stroke-width="1"/>`;
      // A Lock Screen rectangle has no room for a row of mark labels.
      if (!compact) {
        out += `<text class="mark-label secondary ink" x="${n(x)}" y="${n(belowY + 2)}" font-size="${labelSize}" text-anchor="middle">${escapeMarkup(mark.label ?? formatNumber(mark.value))}</text>`;
      }
    }
    out += `</g>`;
    if (!compact) belowY += labelSize + 4;
  }
  const bounds = boundTexts(content);
  out += `<text x="${n(box.x)}" y="${n(belowY)}" font-size="${labelSize}"${paint.text("min-label secondary")}>${escapeMarkup(bounds.min)}</text>`;
  out += `<text x="${n(box.x + box.w)}" y="${n(belowY)}" font-size="${labelSize}" text-anchor="end"${paint.text("max-label secondary")}>${escapeMarkup(bounds.max)}</text>`;
  return out;
}

/**
 * SwiftUI's circular gauges: an arc open at the bottom with an indicator
 * at the value and the bounds in the gap (circular, accessory_circular),
 * or a closed ring filled to the value (accessory_circular_capacity).
 */
function circularGauge(content, box, paint, { capacity, big }) {
  const f = fraction(content.value, content.min_value, content.max_value);
  const cx = box.x + box.w / 2;
  const r = Math.max(8, Math.min(box.w, box.h) / 2 - 6);
  const width = Math.max(3, r * 0.16);
  const cy = box.y + box.h / 2 + (capacity ? 0 : r * 0.08);
  const valueSize = fitText(Math.max(10, r * (big ? 0.42 : 0.4)), currentText(content), r * 1.4);
  let out = "";
  if (capacity) {
    out += `<circle${paint.stroke("track")} cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}" fill="none" stroke-width="${n(width)}" opacity="0.3" data-cx="${n(cx)}" data-cy="${n(cy)}" data-from="-90" data-sweep="360"/>`;
    out += `<path${paint.stroke("fill")} d="${arcPath(cx, cy, r, -90, -90 + 360 * f)}" fill="none" stroke-width="${n(width)}" stroke-linecap="round" data-position="${n4(f)}"/>`;
  } else {
    const angle = ARC_START + ARC_SWEEP * f;
    out += `<path${paint.stroke("track")} d="${arcPath(cx, cy, r, ARC_START, ARC_START + ARC_SWEEP)}" fill="none" stroke-width="${n(width)}" stroke-linecap="round" data-cx="${n(cx)}" data-cy="${n(cy)}" data-from="${ARC_START}" data-sweep="${ARC_SWEEP}"/>`;
    out += marksOnArc(content, cx, cy, r, width, paint);
    out += `<g class="needle" transform="rotate(${n(angle)} ${n(cx)} ${n(cy)})" data-position="${n4(f)}" data-angle="${n(angle)}">`;
    out += `<circle cx="${n(cx + r)}" cy="${n(cy)}" r="${n(width * 0.75)}" stroke-width="${n(Math.max(1.5, width * 0.3))}"/></g>`;
    const bounds = boundTexts(content);
    const labelSize = n(Math.max(8, r * 0.2));
    const [minX, minY] = polar(cx, cy, r, ARC_START);
    const [maxX, maxY] = polar(cx, cy, r, ARC_START + ARC_SWEEP);
    out += `<text x="${n(minX)}" y="${n(minY + labelSize * 0.9)}" font-size="${labelSize}" text-anchor="middle"${paint.text("min-label secondary")}>${escapeMarkup(bounds.min)}</text>`;
    out += `<text x="${n(maxX)}" y="${n(maxY + labelSize * 0.9)}" font-size="${labelSize}" text-anchor="middle"${paint.text("max-label secondary")}>${escapeMarkup(bounds.max)}</text>`;
  }
  out += `<text x="${n(cx)}" y="${n(cy + valueSize * 0.35)}" font-size="${valueSize}" font-weight="600" text-anchor="middle"${paint.text("current-label")}>${escapeMarkup(currentText(content))}</text>`;
  return out;
}

function marksOnArc(content, cx, cy, r, width, paint) {
  const marks = marksWithin(content);
  if (marks.length === 0) return "";
  const labelSize = n(Math.max(7, r * 0.14));
  // Inside a small ring, labels would run into the current value: ticks only.
  const labelled = r >= 60;
  let out = `<g class="marks">`;
  for (const mark of marks) {
    const angle = ARC_START + ARC_SWEEP * fraction(mark.value, content.min_value, content.max_value);
    const [x1, y1] = polar(cx, cy, r - width / 2 - 1, angle);
    const [x2, y2] = polar(cx, cy, r - width / 2 - 5, angle);
    const [lx, ly] = polar(cx, cy, r - width / 2 - 6 - labelSize, angle);
    out += `<line class="mark ink-stroke" x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}" stroke-width="1"/>`;
    if (labelled) {
      out += `<text class="mark-label secondary ink" x="${n(lx)}" y="${n(ly + labelSize * 0.35)}" font-size="${labelSize}" text-anchor="middle">${escapeMarkup(mark.label ?? formatNumber(mark.value))}</text>`;
    }
  }
  return `${out}</g>`;
}

/** SwiftUI's linear ProgressView: the bar filled to the fraction, the percentage. */
function progressBar(content, box, paint, big) {
  const f = fraction(content.value, 0, 1);
  const valueSize = big ? 34 : 26;
  const barY = box.y + valueSize + 12;
  let out = `<text x="${n(box.x)}" y="${n(box.y + valueSize)}" font-size="${valueSize}" font-weight="600"${paint.text("current-label")}>${formatNumber(content.value * 100)}%</text>`;
  out += `<rect class="track ink" x="${n(box.x)}" y="${n(barY)}" width="${n(box.w)}" height="4" rx="2" opacity="0.2"/>`;
  out += `<rect${paint.fill("fill")} x="${n(box.x)}" y="${n(barY)}" width="${n(box.w * f)}" height="4" rx="2" data-position="${n4(f)}"/>`;
  return out;
}

/** A large number with its unit; when bounded, a range line with a marker. */
function plainValue(content, box, paint, big) {
  const valueSize = big ? 56 : 34;
  let out = `<text x="${n(box.x)}" y="${n(box.y + valueSize)}" font-size="${valueSize}" font-weight="600"${paint.text("value current-label")}>${escapeMarkup(formatNumber(content.value))}`;
  if (content.unit) {
    out += `<tspan class="unit" font-size="${n(valueSize * 0.45)}" dx="4">${escapeMarkup(content.unit)}</tspan>`;
  }
  out += `</text>`;
  if (Number.isFinite(content.min_value) && Number.isFinite(content.max_value)) {
    const f = fraction(content.value, content.min_value, content.max_value);
    const y = box.y + valueSize + 18;
    out += `<line class="range ink-stroke" x1="${n(box.x)}" y1="${n(y)}" x2="${n(box.x + box.w)}" y2="${n(y)}" stroke-width="2" opacity="0.3"/>`;
    out += `<circle${paint.solidFill("needle")} cx="${n(box.x + box.w * f)}" cy="${n(y)}" r="4" data-position="${n4(f)}"/>`;
    out += `<text x="${n(box.x)}" y="${n(y + 16)}" font-size="11"${paint.text("min-label secondary")}>${escapeMarkup(withUnit(content.min_value, content.unit))}</text>`;
    out += `<text x="${n(box.x + box.w)}" y="${n(y + 16)}" font-size="11" text-anchor="end"${paint.text("max-label secondary")}>${escapeMarkup(withUnit(content.max_value, content.unit))}</text>`;
  }
  return out;
}

/** Lock Screen circular: every template as a small gauge. */
function accessoryCircular(content, size, paint) {
  const box = { x: 2, y: 2, w: size.width - 4, h: size.height - 4 };
  switch (content.template) {
    case "gauge":
      return circularGauge(content, box, paint, {
        capacity: capacityStyle(content.style),
        big: false,
      });
    case "progress":
      return circularGauge(
        { ...content, min_value: 0, max_value: 1, current_value_label: `${formatNumber(content.value * 100)}%` },
        box,
        paint,
        { capacity: true, big: false },
      );
    default:
      return `<text x="${size.width / 2}" y="${size.height / 2 + 6}" font-size="${fitText(18, withUnit(content.value, content.unit), size.width - 12)}" font-weight="600" text-anchor="middle"${paint.text("value current-label")}>${escapeMarkup(withUnit(content.value, content.unit))}</text>`;
  }
}

/** Lock Screen rectangular: the label on top, the gauge or bar under it. */
function accessoryRectangular(content, size, paint) {
  const arrow = trendArrow(content.trend);
  let out = `<text x="6" y="16" font-size="13" font-weight="600"${paint.text("label")}>${escapeMarkup(content.label ?? "")}</text>`;
  if (arrow) {
    out += `<text x="${size.width - 6}" y="16" font-size="13" text-anchor="end"${paint.text("trend")} data-trend="${escapeMarkup(content.trend)}">${arrow}</text>`;
  }
  const box = { x: 6, y: 20, w: size.width - 12, h: size.height - 24 };
  switch (content.template) {
    case "gauge":
      return out + linearGauge(content, box, paint, {
        capacity: capacityStyle(content.style),
        compact: true,
        big: false,
      });
    case "progress":
      return out + linearGauge(
        { ...content, min_value: 0, max_value: 1, current_value_label: `${formatNumber(content.value * 100)}%`, min_label: "", max_label: "" },
        box,
        paint,
        { capacity: true, compact: true, big: false },
      );
    default:
      return out + `<text x="6" y="${size.height - 14}" font-size="24" font-weight="600"${paint.text("value current-label")}>${escapeMarkup(withUnit(content.value, content.unit))}</text>`;
  }
}

/** Lock Screen inline: one line of text, as WidgetKit allows there. */
function inlineText(content, size, paint) {
  const arrow = trendArrow(content.trend);
  const value =
    content.template === "progress"
      ? `${formatNumber(content.value * 100)}%`
      : content.template === "gauge"
        ? currentText(content)
        : withUnit(content.value, content.unit);
  const line = [arrow, content.label, value].filter(Boolean).join(" ");
  return `<text x="4" y="${size.height / 2 + 5}" font-size="14"${paint.text("current-label")}>${escapeMarkup(line)}</text>`;
}

/**
 * Where a point (in the drawing's coordinates) falls along a track, as a
 * fraction of it, NOT clamped: past either end it is below 0 or above 1, so
 * a drag past the maximum asks the server for a value it will refuse.
 * `track` is the track's geometry: `{x, width}` for a bar, `{cx, cy, from,
 * sweep}` (degrees) for an arc or ring.
 */
export function fractionAt(track, x, y) {
  if (track.width !== undefined) return (x - track.x) / track.width;
  let angle = (Math.atan2(y - track.cy, x - track.cx) * 180) / Math.PI;
  // Measured from the arc's start, clockwise, into [0, 360).
  let along = (((angle - track.from) % 360) + 360) % 360;
  if (track.sweep < 360 && along > track.sweep) {
    // In the gap: past the end when nearer the end, before the start otherwise.
    const gap = 360 - track.sweep;
    along = along - track.sweep < gap / 2 ? along : along - 360;
  }
  return along / track.sweep;
}

/**
 * A font size at most `size` at which `text` fits in `width`: a character
 * of the system font is about 0.6 of its size wide (there is no measuring
 * without a DOM, and this must draw the same in Node).
 */
function fitText(size, text, width) {
  return n(Math.min(size, width / (0.6 * Math.max(1, String(text).length))));
}

function polar(cx, cy, r, degrees) {
  const radians = (degrees * Math.PI) / 180;
  return [cx + r * Math.cos(radians), cy + r * Math.sin(radians)];
}

/** A clockwise arc; a whole turn is drawn as two halves (one arc cannot close). */
function arcPath(cx, cy, r, from, to) {
  const sweep = to - from;
  if (sweep <= 0) {
    const [x, y] = polar(cx, cy, r, from);
    return `M${n(x)} ${n(y)}`;
  }
  if (sweep >= 359.99) {
    return arcPath(cx, cy, r, from, from + 180) + " " + arcPath(cx, cy, r, from + 180, from + 359.99).replace(/^M[^A]*/, "");
  }
  const [x0, y0] = polar(cx, cy, r, from);
  const [x1, y1] = polar(cx, cy, r, to);
  return `M${n(x0)} ${n(y0)}A${n(r)} ${n(r)} 0 ${sweep > 180 ? 1 : 0} 1 ${n(x1)} ${n(y1)}`;
}

function n4(x) {
  return Math.round(x * 10000) / 10000;
}
