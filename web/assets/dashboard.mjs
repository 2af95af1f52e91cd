// The dashboard at `/`: every widget of the store (or of `?prefix=` or
// `?ids=`), live through the event stream, drawn by draw.mjs in the chosen
// family. Events are applied to the model as they come and drawn once per
// animation frame, so a widget updated many times within a frame is drawn
// once, with its latest value.

import { Board } from "./board.mjs";
import { FAMILIES, drawWidget } from "./draw.mjs";
import { ageText } from "./format.mjs";
import { followWidgets } from "./live.mjs";

const params = new URLSearchParams(location.search);
let family = FAMILIES.includes(params.get("family")) ? params.get("family") : "small";

const board = new Board();
const list = document.querySelector(".widgets");
const status = document.querySelector(".connection");
const empty = document.querySelector(".empty");
const inspector = document.querySelector(".inspector");

/** Widgets changed since the last frame: id → widget, or null when removed. */
const pending = new Map();
let frameRequested = false;

// ---- The event stream ----

function follow() {
  followWidgets(
    { ids: params.get("ids"), prefix: params.get("prefix") },
    {
      upsert(widget) {
        board.upsert(widget);
        schedule(widget.id, widget);
      },
      value(delta) {
        const widget = board.setValue(delta);
        if (widget) schedule(widget.id, widget);
      },
      removed(id) {
        if (board.remove(id)) schedule(id, null);
      },
      // What was drawn may be gone: the snapshot that follows says.
      reset: () => board.beginReset(),
      synced() {
        for (const id of board.synced()) schedule(id, null);
      },
    },
    status,
  );
}

// ---- Drawing, once per frame ----
//
// Cards off screen are not redrawn as their widgets change: they are marked
// outdated and drawn when they scroll into view. A page of 1,000 widgets
// updated 10 times a second then parses a screenful of SVG per frame, not
// every widget's.

/** id → its card element. */
const cards = new Map();
/** Ids whose card is on screen (or nearly). */
const onScreen = new Set();
/** Ids whose card shows an older version than the board holds. */
const outdated = new Set();

const visibility = new IntersectionObserver(
  (entries) => {
    for (const entry of entries) {
      const id = entry.target.dataset.widgetId;
      if (entry.isIntersecting) {
        onScreen.add(id);
        if (outdated.has(id) && board.widgets.has(id)) fillCard(entry.target, board.widgets.get(id));
      } else {
        onScreen.delete(id);
      }
    }
  },
  { rootMargin: "200px" },
);

function schedule(id, widget) {
  pending.set(id, widget);
  if (!frameRequested) {
    frameRequested = true;
    requestAnimationFrame(drawPending);
  }
}

function drawPending() {
  frameRequested = false;
  const created = [];
  for (const id of pending.keys()) {
    const card = cards.get(id);
    if (!board.widgets.has(id)) {
      if (card) {
        visibility.unobserve(card);
        card.remove();
        cards.delete(id);
        onScreen.delete(id);
        outdated.delete(id);
      }
    } else if (!card) {
      created.push(id);
    } else if (onScreen.has(id)) {
      fillCard(card, board.widgets.get(id));
    } else {
      outdated.add(id);
    }
  }
  pending.clear();
  // Last first: the card after each new one is then already in place.
  created.sort();
  for (let index = created.length - 1; index >= 0; index--) insertCard(created[index]);
  empty.hidden = board.order.length > 0;
}

function insertCard(id) {
  const card = document.createElement("article");
  card.className = "widget";
  card.dataset.widgetId = id;
  card.tabIndex = 0;
  card.innerHTML =
    '<header><span class="name"></span> <code class="id"></code></header>' +
    '<div class="drawing-slot"></div>' +
    '<footer><time class="age"></time></footer>';
  // Drawn when it comes into view; its slot keeps the drawing's size meanwhile.
  outdated.add(id);
  cards.set(id, card);
  const next = board.next(id);
  list.insertBefore(card, next === null ? null : (cards.get(next) ?? null));
  visibility.observe(card);
}

function fillCard(card, widget) {
  outdated.delete(widget.id);
  card.querySelector(".name").textContent = widget.name || widget.id;
  card.querySelector(".id").textContent = widget.id;
  card.querySelector(".drawing-slot").innerHTML = drawWidget(widget, family);
  card.title = `revision ${widget.revision}`;
  card.dataset.revision = widget.revision;
  // Marked by the server when no write came within stale_after_ms.
  card.classList.toggle("stale", widget.stale === true);
  const age = card.querySelector(".age");
  age.dateTime = widget.updated_at ?? "";
  age.textContent = ageText(widget.updated_at, Date.now(), widget.stale === true);
}

function redrawAll() {
  for (const [id, card] of cards) {
    if (onScreen.has(id)) fillCard(card, board.widgets.get(id));
    else outdated.add(id);
  }
}

// ---- "updated N s ago" ----

setInterval(() => {
  for (const id of onScreen) {
    const card = cards.get(id);
    const age = card?.querySelector(".age");
    if (age) age.textContent = ageText(age.dateTime, Date.now(), card.classList.contains("stale"));
  }
}, 1000);

// ---- Families ----

const familyNames = {
  small: "Small",
  medium: "Medium",
  large: "Large",
  accessory_circular: "Lock Screen circular",
  accessory_rectangular: "Lock Screen rectangular",
  accessory_inline: "Lock Screen inline",
};

const nav = document.querySelector(".families");
for (const name of FAMILIES) {
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.family = name;
  button.textContent = familyNames[name];
  button.setAttribute("aria-pressed", String(name === family));
  button.addEventListener("click", () => chooseFamily(name));
  nav.append(button);
}

function chooseFamily(name) {
  family = name;
  for (const button of nav.querySelectorAll("button")) {
    button.setAttribute("aria-pressed", String(button.dataset.family === name));
  }
  params.set("family", name);
  history.replaceState(null, "", `?${params}`);
  document.body.dataset.family = name;
  redrawAll();
}
document.body.dataset.family = family;

// ---- The widget's JSON, on click ----

function inspect(card) {
  const widget = board.widgets.get(card.dataset.widgetId);
  if (!widget) return;
  inspector.querySelector("h2").textContent = widget.id;
  inspector.querySelector("pre").textContent = JSON.stringify(widget, null, 2);
  inspector.showModal();
}

list.addEventListener("click", (event) => {
  const card = event.target.closest(".widget");
  if (card) inspect(card);
});
list.addEventListener("keydown", (event) => {
  const card = event.target.closest(".widget");
  if (card && (event.key === "Enter" || event.key === " ")) {
    event.preventDefault();
    inspect(card);
  }
});

follow();
