// The dashboard's model: id order, removal, and reset followed by a snapshot.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Board } from "../../web/assets/board.mjs";

const widget = (id, value = 1) => ({ id, content: { template: "value", value } });

test("widgets stay in id order whatever order they arrive in", () => {
  const board = new Board();
  for (const id of ["m", "a", "z", "b"]) board.upsert(widget(id));
  assert.deepEqual(board.order, ["a", "b", "m", "z"]);
  assert.equal(board.upsert(widget("b", 2)), false);
  assert.equal(board.upsert(widget("c")), true);
  board.remove("c");
  assert.equal(board.widgets.get("b").content.value, 2);
  assert.equal(board.next("b"), "m");
  assert.equal(board.next("z"), null);
});

test("a removed widget leaves the order", () => {
  const board = new Board();
  board.upsert(widget("a"));
  board.upsert(widget("b"));
  assert.equal(board.remove("a"), true);
  assert.equal(board.remove("a"), false);
  assert.deepEqual(board.order, ["b"]);
});

test("after a reset, what the snapshot does not mention is gone at synced", () => {
  const board = new Board();
  for (const id of ["a", "b", "c"]) board.upsert(widget(id));
  board.beginReset();
  board.upsert(widget("b"));
  board.upsert(widget("d"));
  assert.deepEqual(board.synced(), ["a", "c"]);
  assert.deepEqual(board.order, ["b", "d"]);
  assert.deepEqual(board.synced(), [], "a synced without a reset removes nothing");
});

test("a value delta changes the value, revision and time of a widget it has", () => {
  const board = new Board();
  board.upsert({
    id: "cpu", revision: 3, updated_at: "t0", stale: true,
    content: { template: "gauge", value: 1, label: "CPU" },
  });
  const updated = board.setValue({ id: "cpu", value: 7, revision: 9, updated_at: "t1" });
  assert.deepEqual(updated, {
    id: "cpu", revision: 9, updated_at: "t1", stale: false,
    content: { template: "gauge", value: 7, label: "CPU" },
  });
  assert.equal(board.widgets.get("cpu").content.value, 7);
  assert.equal(board.setValue({ id: "unknown", value: 1, revision: 10 }), null);
  assert.equal(board.widgets.has("unknown"), false);
});
