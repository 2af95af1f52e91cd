// Following widgets through `GET /widgets/events` with EventSource: the
// dashboard and the playground share it. It resumes where it left off
// (EventSource sends Last-Event-ID itself after a drop; after a refusal it
// gives up, and this opens a new one from the last revision seen) and
// reports the connection's state for the page to show.

const STATE_TEXT = { connecting: "connecting…", live: "live", reconnecting: "reconnecting…" };

/**
 * Opens the stream for `filter` (`{ids, prefix}`, either may be empty) and
 * calls `on.upsert(widget)`, `on.removed(id)`, `on.reset()`, `on.synced()`
 * as events arrive; the page's `body[data-connection]` and the `status`
 * element follow the connection.
 */
export function followWidgets(filter, on, status) {
  let lastRevision = null;
  let source = null;
  let reopenTimer = 0;

  const setConnection = (state) => {
    document.body.dataset.connection = state;
    if (status) status.textContent = STATE_TEXT[state];
  };
  const remember = (event) => {
    if (event.lastEventId) lastRevision = event.lastEventId;
  };

  function open() {
    const query = new URLSearchParams();
    if (filter.ids) query.set("ids", filter.ids);
    if (filter.prefix) query.set("prefix", filter.prefix);
    if (lastRevision !== null) query.set("since_revision", lastRevision);
    const text = query.toString();
    source = new EventSource(`/widgets/events${text ? `?${text}` : ""}`);
    source.addEventListener("upsert", (event) => {
      remember(event);
      on.upsert(JSON.parse(event.data));
    });
    source.addEventListener("removed", (event) => {
      remember(event);
      on.removed(JSON.parse(event.data).id);
    });
    source.addEventListener("reset", (event) => {
      remember(event);
      on.reset?.();
    });
    source.addEventListener("synced", (event) => {
      remember(event);
      on.synced?.();
      setConnection("live");
    });
    source.addEventListener("error", () => {
      setConnection("reconnecting");
      if (source.readyState === EventSource.CLOSED) {
        clearTimeout(reopenTimer);
        reopenTimer = setTimeout(open, 2000);
      }
    });
  }

  // Closed before the page goes, so the browser frees the connection then
  // (a browser keeps at most six per origin over HTTP/1.1).
  addEventListener("pagehide", () => {
    clearTimeout(reopenTimer);
    source?.close();
  });
  setConnection("connecting");
  open();
}
