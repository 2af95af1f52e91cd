// Text for the drawings: numbers, units, colours and escaping. Pure, so the
// drawing module and its tests share one reading of a widget's fields.

/** Escapes text for SVG or HTML content and attribute values. */
export function escapeMarkup(text) {
  return String(text)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/**
 * A number as people read it on a gauge: at most three decimals, no
 * trailing zeros, no exponent for everyday magnitudes.
 */
export function formatNumber(value) {
  if (!Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value);
  if (magnitude !== 0 && (magnitude >= 1e15 || magnitude < 1e-3)) {
    return value.toExponential(2).replace(/\.?0+e/, "e");
  }
  const fixed = value.toFixed(magnitude >= 100 ? 1 : 3);
  return fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed;
}

/**
 * A value with its unit: `%` and degrees stick to the number ("5%",
 * "21°C"), words get a space ("120 rpm"), as the seed's MAX 5% shows.
 */
export function withUnit(value, unit) {
  const number = formatNumber(value);
  if (!unit) return number;
  return /^[%°‰′″]/.test(unit) ? `${number}${unit}` : `${number} ${unit}`;
}

// SwiftUI's system colours (light appearance), for the names the server
// accepts; hex arrives as RRGGBB or RRGGBBAA, with or without '#'.
const SYSTEM_COLORS = {
  red: "#ff3b30",
  orange: "#ff9500",
  yellow: "#ffcc00",
  green: "#34c759",
  blue: "#007aff",
  purple: "#af52de",
  pink: "#ff2d55",
  indigo: "#5856d6",
  teal: "#30b0c7",
  cyan: "#32ade6",
  mint: "#00c7be",
  brown: "#a2845e",
};

/** A colour field as CSS, or `fallback` when absent or unreadable. */
export function cssColor(color, fallback) {
  if (!color) return fallback;
  if (Object.hasOwn(SYSTEM_COLORS, color)) return SYSTEM_COLORS[color];
  const hex = color.startsWith("#") ? color.slice(1) : color;
  return /^([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/.test(hex) ? `#${hex.toLowerCase()}` : fallback;
}

/** The arrow SwiftUI widgets show for a trend; none when unspecified. */
export function trendArrow(trend) {
  switch (trend) {
    case "up":
      return "↑";
    case "down":
      return "↓";
    case "flat":
      return "→";
    default:
      return "";
  }
}

/** Where `value` sits between `min` and `max`, 0 to 1 (clamped for drawing only). */
export function fraction(value, min, max) {
  if (!(max > min) || !Number.isFinite(value)) return 0;
  return Math.min(1, Math.max(0, (value - min) / (max - min)));
}

/**
 * "updated 12 s ago", or "stale · updated 3 min ago" for a widget the server
 * marked stale; "" when the time cannot be read.
 */
export function ageText(updatedAt, nowMs, stale = false) {
  const at = Date.parse(updatedAt ?? "");
  if (Number.isNaN(at)) return stale ? "stale" : "";
  const seconds = Math.max(0, Math.round((nowMs - at) / 1000));
  let age;
  if (seconds < 60) age = `updated ${seconds} s ago`;
  else if (seconds < 3600) age = `updated ${Math.floor(seconds / 60)} min ago`;
  else if (seconds < 86400) age = `updated ${Math.floor(seconds / 3600)} h ago`;
  else age = `updated ${Math.floor(seconds / 86400)} d ago`;
  return stale ? `stale · ${age}` : age;
}
