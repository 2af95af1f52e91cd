// The dashboard's model of the store: widgets by id, kept in id order, as
// the event stream describes them. DOM-free, so Node tests it.

/** Widgets as the stream last described them, and their id order. */
export class Board {
  constructor() {
    /** @type {Map<string, object>} */
    this.widgets = new Map();
    /** Ids in the store's order (plain code-unit order, as the server sorts). */
    this.order = [];
    /** Ids seen since a `reset`, until `synced` ends it; null otherwise. */
    this.seenSinceReset = null;
  }

  /** Stores `widget`; whether it is new. Most calls are updates: no search then. */
  upsert(widget) {
    this.seenSinceReset?.add(widget.id);
    const created = !this.widgets.has(widget.id);
    this.widgets.set(widget.id, widget);
    if (created) this.order.splice(this.insertionIndex(widget.id), 0, widget.id);
    return created;
  }

  /**
   * A change that set only a widget's value (`event: value`): the widget
   * with its new value, revision and time, no longer stale; null when the
   * board does not have it (the server sends a widget whole first).
   */
  setValue(delta) {
    const widget = this.widgets.get(delta.id);
    if (!widget) return null;
    const updated = {
      ...widget,
      content: { ...widget.content, value: delta.value },
      revision: delta.revision,
      updated_at: delta.updated_at,
    };
    if ("stale" in widget) updated.stale = false;
    this.widgets.set(delta.id, updated);
    this.seenSinceReset?.add(delta.id);
    return updated;
  }

  /** Forgets `id`; whether it was there. */
  remove(id) {
    if (!this.widgets.delete(id)) return false;
    this.order.splice(this.insertionIndex(id), 1);
    return true;
  }

  /**
   * The stream could not resume: a snapshot follows, and whatever it does
   * not mention by `synced` is gone.
   */
  beginReset() {
    this.seenSinceReset = new Set();
  }

  /** The snapshot is complete: the ids it did not mention, removed here. */
  synced() {
    if (this.seenSinceReset === null) return [];
    const seen = this.seenSinceReset;
    this.seenSinceReset = null;
    const gone = this.order.filter((id) => !seen.has(id));
    for (const id of gone) this.remove(id);
    return gone;
  }

  /** The id that follows `id` in order, or null when it is last. */
  next(id) {
    const index = this.insertionIndex(id);
    if (this.order[index] !== id) return null;
    return index + 1 < this.order.length ? this.order[index + 1] : null;
  }

  /** Where `id` is, or would go, in `order` (binary search: pages hold thousands). */
  insertionIndex(id) {
    let low = 0;
    let high = this.order.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.order[middle] < id) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
