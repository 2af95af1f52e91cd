// Following widgets through `GET /widgets/events` with EventSource: the
// dashboard and the playground share it. It resumes where it left off
// (EventSource sends Last-Event-ID itself after a drop; after a refusal it
// gives up, and this opens a new one from the last revision seen) and
// reports the connection's state for the page to show. When gauged asks for
// a token (401), the page asks for one and trades it at `POST /login` for a
// cookie, which EventSource, unable to set headers, then sends.

const STATE_TEXT = {
  connecting: "connecting…",
  live: "live",
  reconnecting: "reconnecting…",
  "signing-in": "needs a token",
};

/**
 * Resolves once `url` is served to this page: at once on an open server,
 * after the user has given a token that `POST /login` accepts otherwise.
 * A HEAD request says which, since EventSource hides its answer's status.
 */
async function signedIn(url, setConnection) {
  for (;;) {
    let probe;
    try {
      probe = await fetch(url, { method: "HEAD", headers: { accept: "text/event-stream" } });
    } catch {
      return; // unreachable: EventSource retries and says so
    }
    if (probe.status !== 401) return;
    setConnection("signing-in");
    await askForToken();
  }
}

/** Shows the sign-in dialog until POST /login takes the token given. */
function askForToken() {
  const dialog = document.createElement("dialog");
  dialog.className = "login";
  const form = document.createElement("form");
  const label = document.createElement("label");
  label.textContent = "This gauged needs a token (gd_…)";
  const input = document.createElement("input");
  input.type = "password";
  input.name = "token";
  input.autocomplete = "off";
  input.required = true;
  label.append(input);
  const button = document.createElement("button");
  button.textContent = "Sign in";
  const problem = document.createElement("p");
  problem.className = "problem";
  form.append(label, button, problem);
  dialog.append(form);
  document.body.append(dialog);
  dialog.showModal();
  return new Promise((resolve) => {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const response = await fetch("/login", {
        method: "POST",
        headers: { authorization: `Bearer ${input.value.trim()}` },
      });
      if (response.ok) {
        dialog.close();
        dialog.remove();
        resolve();
        return;
      }
      const detail = await response.json().catch(() => null);
      problem.textContent = detail?.detail ?? `refused (${response.status})`;
    });
  });
}

/**
 * Opens the stream for `filter` (`{ids, prefix}`, either may be empty) and
 * calls `on.upsert(widget)`, `on.value(delta)` (when given, value-only
 * changes come as `{id, value, revision, updated_at}`), `on.removed(id)`,
 * `on.reset()`, `on.synced()`
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

  async function open() {
    const query = new URLSearchParams();
    if (filter.ids) query.set("ids", filter.ids);
    if (filter.prefix) query.set("prefix", filter.prefix);
    // A value-only change then comes as its value: a fraction of the bytes.
    if (on.value) query.set("deltas", "1");
    if (lastRevision !== null) query.set("since_revision", lastRevision);
    const text = query.toString();
    const url = `/widgets/events${text ? `?${text}` : ""}`;
    await signedIn(url, setConnection);
    source = new EventSource(url);
    source.addEventListener("upsert", (event) => {
      remember(event);
      on.upsert(JSON.parse(event.data));
    });
    source.addEventListener("value", (event) => {
      remember(event);
      on.value(JSON.parse(event.data));
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
