// The playground at `/playground/{id}`: a form for every field of a widget,
// the widget drawn in every family beside it. The drawings show what the
// server accepted, never what the pointer asked for: a drag or an arrow key
// sends a merge patch (at most one per 50 ms) and the answer is drawn; a
// refusal is shown beside its field and the drawing stays where it was.

import { FAMILIES, drawWidget, fractionAt } from "./draw.mjs";
import { followWidgets } from "./live.mjs";

const form = document.querySelector(".fields");
const view = document.querySelector(".stored");
const status = document.querySelector(".connection");

const PATCH_INTERVAL_MS = 50;
const TEMPLATE_FIELDS = {
  gauge: ["value", "min_value", "max_value", "style", "gradient", "marks", "current_value_label",
    "min_label", "max_label"],
  progress: ["value"],
  value: ["value", "min_value", "max_value"],
};
const SHARED_FIELDS = ["label", "subtitle", "icon", "unit", "trend", "accent_color",
  "background_color", "text_color"];
const NUMBER_FIELDS = new Set(["value", "min_value", "max_value"]);

/** The widget as the server last accepted it; null while it is not stored. */
let stored = null;

// ---- Form ⇄ widget ----

function widgetId() {
  return form.elements.id.value.trim();
}

/** The form as a widget body, `{name, content}`, with empty fields left out. */
function bodyFromForm() {
  const template = form.elements.template.value;
  const content = { template };
  for (const name of [...TEMPLATE_FIELDS[template], ...SHARED_FIELDS]) {
    const raw = form.elements[name].value.trim();
    if (raw === "") continue;
    if (NUMBER_FIELDS.has(name)) content[name] = Number(raw);
    else if (name === "gradient") content.gradient = raw.split(/[\s,]+/).filter(Boolean);
    else if (name === "marks") {
      content.marks = raw.split("\n").filter((line) => line.trim()).map((line) => {
        const [value, ...label] = line.trim().split(/\s+/);
        return label.length > 0 ? { value: Number(value), label: label.join(" ") } : { value: Number(value) };
      });
    } else content[name] = raw;
  }
  const body = { content };
  const name = form.elements.name.value.trim();
  if (name) body.name = name;
  return body;
}

function fillForm(widget) {
  const content = widget.content ?? {};
  form.elements.id.value = widget.id;
  form.elements.name.value = widget.name ?? "";
  form.elements.template.value = content.template ?? "gauge";
  for (const name of [...TEMPLATE_FIELDS.gauge, ...SHARED_FIELDS]) {
    const value = content[name];
    let text = "";
    if (name === "gradient") text = (value ?? []).join(", ");
    else if (name === "marks") text = (value ?? []).map((m) => `${m.value}${m.label ? ` ${m.label}` : ""}`).join("\n");
    else if (value !== undefined) text = String(value);
    form.elements[name].value = text;
  }
  if (!content.style) form.elements.style.value = "automatic";
  showTemplateFields();
}

function showTemplateFields() {
  const template = form.elements.template.value;
  for (const element of form.querySelectorAll("[data-templates]")) {
    const shown = element.dataset.templates.split(" ").includes(template);
    element.hidden = !shown;
    // The output after a label holds that field's error.
    const next = element.nextElementSibling;
    if (next?.classList.contains("field-error")) next.hidden = !shown;
  }
}

// ---- Drawing ----

const FAMILY_NAMES = {
  small: "small",
  medium: "medium",
  large: "large",
  accessory_circular: "Lock Screen circular",
  accessory_rectangular: "Lock Screen rectangular",
  accessory_inline: "Lock Screen inline",
};

/** Draws `widget` in every family; `state` says whether it is stored. */
function draw(widget, state) {
  view.dataset.state = state;
  view.dataset.widgetId = widget.id;
  view.innerHTML = FAMILIES.map(
    (family) =>
      `<figure data-family="${family}">${drawWidget(widget, family)}<figcaption>${FAMILY_NAMES[family]}${state === "stored" ? "" : " · draft, not stored"}</figcaption></figure>`,
  ).join("");
  for (const svg of view.querySelectorAll("svg")) svg.setAttribute("tabindex", "0");
}

function drawCurrent() {
  if (stored) draw(stored, "stored");
  else draw({ id: widgetId() || "playground", ...bodyFromForm() }, "draft");
  updateCommands();
}

// ---- Talking to the server ----

function widgetURL(id, draft) {
  return `/widgets/${encodeURIComponent(id)}${draft ? "?dry_run=true" : ""}`;
}

async function request(method, id, body, contentType) {
  const draft = form.elements.draft.checked;
  const response = await fetch(widgetURL(id, draft), {
    method,
    headers: { "content-type": contentType, accept: "application/json, application/problem+json" },
    body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({}));
  return { ok: response.ok, status: response.status, answer, draft };
}

/** Shows a problem's field errors beside their fields; the rest at the form's end. */
function showProblem(problem) {
  clearErrors();
  const outputs = [...form.querySelectorAll(".field-error")];
  const errors = problem.errors ?? [];
  const unplaced = [];
  for (const error of errors) {
    // `content.marks[1].value` belongs beside marks: the longest field that prefixes it.
    const output = outputs
      .filter((o) => error.field === o.dataset.field || error.field.startsWith(`${o.dataset.field}.`) || error.field.startsWith(`${o.dataset.field}[`))
      .sort((a, b) => b.dataset.field.length - a.dataset.field.length)[0];
    if (output) output.textContent = [output.textContent, error.detail].filter(Boolean).join("; ");
    else unplaced.push(`${error.field}: ${error.detail}`);
  }
  if (errors.length === 0) unplaced.push(problem.detail ?? `refused (${problem.status})`);
  form.querySelector(".form-error").textContent = unplaced.join("; ");
}

function clearErrors() {
  for (const output of form.querySelectorAll(".field-error, .form-error")) output.textContent = "";
}

function accepted(result) {
  clearErrors();
  if (result.draft) {
    form.querySelector(".form-error").textContent = "";
    draw(result.answer, "draft");
    return;
  }
  stored = result.answer;
  form.elements.value.value = String(stored.content.value);
  drawCurrent();
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const id = widgetId();
  if (!id) {
    showProblem({ errors: [{ field: "id", detail: "is required" }] });
    return;
  }
  history.replaceState(null, "", `/playground/${encodeURIComponent(id)}`);
  const result = await request("PUT", id, bodyFromForm(), "application/json");
  if (result.ok) accepted(result);
  else {
    showProblem(result.answer);
    drawCurrent();
  }
});

// ---- Moving the value: drag and arrow keys ----

let wantedValue = null;
let inFlight = false;
let lastSentAt = 0;
let sendTimer = 0;

/** Asks for `value`; sends at most one patch per 50 ms, always the latest. */
function moveTo(value) {
  if (!stored) return;
  wantedValue = value;
  pump();
}

function pump() {
  if (inFlight || wantedValue === null) return;
  const wait = lastSentAt + PATCH_INTERVAL_MS - performance.now();
  if (wait > 0) {
    clearTimeout(sendTimer);
    sendTimer = setTimeout(pump, wait);
    return;
  }
  const value = wantedValue;
  wantedValue = null;
  inFlight = true;
  lastSentAt = performance.now();
  request("PATCH", stored.id, { content: { value } }, "application/merge-patch+json")
    .then((result) => {
      if (result.ok) accepted(result);
      else {
        showProblem(result.answer);
        drawCurrent();
      }
    })
    .finally(() => {
      inFlight = false;
      pump();
    });
}

function boundsOf(widget) {
  const content = widget.content;
  if (content.template === "progress") return { min: 0, max: 1 };
  if (Number.isFinite(content.min_value) && Number.isFinite(content.max_value)) {
    return { min: content.min_value, max: content.max_value };
  }
  return null;
}

/** A value with as many decimals as the range deserves (a thousandth of it). */
function rounded(value, bounds) {
  const step = 10 ** Math.floor(Math.log10((bounds.max - bounds.min) / 1000));
  return Math.round(value / step) * step;
}

function valueAtPointer(svg, event) {
  const track = svg.querySelector(".track");
  const bounds = stored && boundsOf(stored);
  if (!track || !bounds) return null;
  const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
  const geometry =
    track.tagName === "rect"
      ? { x: Number(track.getAttribute("x")), width: Number(track.getAttribute("width")) }
      : {
          cx: Number(track.dataset.cx),
          cy: Number(track.dataset.cy),
          from: Number(track.dataset.from),
          sweep: Number(track.dataset.sweep),
        };
  const f = fractionAt(geometry, point.x, point.y);
  return Number(rounded(bounds.min + f * (bounds.max - bounds.min), bounds).toPrecision(12));
}

let dragging = null;

view.addEventListener("pointerdown", (event) => {
  const svg = event.target.closest("svg");
  if (!svg || !stored) return;
  const figure = svg.closest("figure");
  dragging = figure.dataset.family;
  view.setPointerCapture(event.pointerId);
  // Grabbing the needle moves nothing yet; pressing elsewhere on the
  // drawing moves the value there at once.
  if (event.target.closest(".needle")) return;
  const value = valueAtPointer(svg, event);
  if (value !== null) moveTo(value);
});

view.addEventListener("pointermove", (event) => {
  if (dragging === null) return;
  // The drawing is redrawn under the pointer: find this family's again.
  const svg = view.querySelector(`figure[data-family="${dragging}"] svg`);
  const value = svg && valueAtPointer(svg, event);
  if (value !== null) moveTo(value);
});

for (const type of ["pointerup", "pointercancel"]) {
  view.addEventListener(type, () => {
    dragging = null;
  });
}

view.addEventListener("keydown", (event) => {
  const bounds = stored && boundsOf(stored);
  if (!bounds || !event.target.closest("svg")) return;
  const step = (bounds.max - bounds.min) / 100;
  const current = wantedValue ?? stored.content.value;
  const next = {
    ArrowUp: current + step,
    ArrowRight: current + step,
    ArrowDown: current - step,
    ArrowLeft: current - step,
    Home: bounds.min,
    End: bounds.max,
  }[event.key];
  if (next === undefined) return;
  event.preventDefault();
  moveTo(Number(rounded(next, bounds).toPrecision(12)));
});

// ---- Equivalent commands ----

function shellQuote(text) {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function commands() {
  const id = widgetId() || "playground";
  const json = JSON.stringify(bodyFromForm());
  return {
    curl: `curl -X PUT ${shellQuote(`${location.origin}/widgets/${encodeURIComponent(id)}`)} -H 'content-type: application/json' -d ${shellQuote(json)}`,
    gaugectl: `printf '%s' ${shellQuote(json)} | gaugectl --server ${shellQuote(location.host)} put ${shellQuote(id)} -f -`,
  };
}

function updateCommands() {
  const text = commands();
  for (const pre of form.querySelectorAll(".command")) pre.textContent = text[pre.dataset.command];
}

for (const button of form.querySelectorAll(".copy")) {
  button.addEventListener("click", () => {
    const text = commands()[button.dataset.copy];
    // The clipboard needs a secure context (localhost is one); elsewhere the
    // command stays selected below for copying by hand.
    const pre = form.querySelector(`.command[data-command="${button.dataset.copy}"]`);
    const select = () => getSelection().selectAllChildren(pre);
    if (navigator.clipboard) navigator.clipboard.writeText(text).catch(select);
    else select();
  });
}

form.addEventListener("input", (event) => {
  if (event.target.name === "template") showTemplateFields();
  if (!stored) drawCurrent();
  else updateCommands();
});

// ---- Start ----

async function start() {
  const fromPath = decodeURIComponent(location.pathname.replace(/^\/playground\/?/, ""));
  fillForm({
    id: fromPath || "playground",
    name: "",
    content: { template: "gauge", value: 2.4, min_value: 0, max_value: 5, unit: "%", label: "Errors", style: "circular" },
  });
  const id = widgetId();
  const response = await fetch(widgetURL(id, false), { headers: { accept: "application/json" } });
  if (response.ok) {
    stored = await response.json();
    fillForm(stored);
  }
  drawCurrent();
  // Others may write the widget too: follow it, without touching the form
  // while someone types in it.
  followWidgets(
    { ids: id },
    {
      upsert(widget) {
        stored = widget;
        if (document.activeElement !== form.elements.value) form.elements.value.value = String(widget.content.value);
        drawCurrent();
      },
      removed() {
        stored = null;
        drawCurrent();
      },
    },
    status,
  );
}

start();
