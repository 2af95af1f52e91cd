// The age line under each card, and what it says of a stale widget.

import assert from "node:assert/strict";
import { test } from "node:test";

import { ageText } from "../../web/assets/format.mjs";

const updated = "2026-01-01T00:00:00.000Z";
const at = Date.parse(updated);

test("the age is counted in the largest unit that fits", () => {
  assert.equal(ageText(updated, at + 12_400), "updated 12 s ago");
  assert.equal(ageText(updated, at + 3 * 60_000), "updated 3 min ago");
  assert.equal(ageText(updated, at + 5 * 3_600_000), "updated 5 h ago");
  assert.equal(ageText(updated, at + 2 * 86_400_000), "updated 2 d ago");
});

test("a stale widget says so before its age", () => {
  assert.equal(ageText(updated, at + 90_000, true), "stale · updated 1 min ago");
  assert.equal(ageText(undefined, at, true), "stale");
  assert.equal(ageText(undefined, at, false), "");
});
