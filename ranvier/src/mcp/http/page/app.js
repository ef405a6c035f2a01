// ranvier's live page: values, messages, dispatch forms, approvals and the graph, fed by server-sent events.
// Plain JavaScript, no framework. Everything a client sent is put in the page as text (textContent, attributes),
// never parsed as HTML.
"use strict";

const csrf = document.querySelector('meta[name="ranvier-csrf"]').content;
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

/** An element with attributes and children (strings become text nodes). */
function el(tag, attrs, ...children) {
  const node = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

const compact = (value) => (typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value));
const time = (ms) => new Date(ms).toLocaleTimeString();

const state = { version: null, lastSeq: 0, firstSeq: 1, keep: 200, sender: "person", traced: false, rows: new Map(),
  interrupts: new Map(), errorSeq: 0, timelineAsk: 0 };

function setStatus(text) { $("status").textContent = text; }

// ---- values ----------------------------------------------------------------------------------------------------

function setValue(name, value, version, changed) {
  let row = state.rows.get(name);
  if (!row) {
    row = el("tr", { "data-name": name },
      el("th", { scope: "row", text: name }), el("td", { class: "v" }), el("td", { class: "at" }));
    state.rows.set(name, row);
    document.querySelector("#values tbody").append(row);
  }
  row.children[1].replaceChildren(shownValue(value));
  row.children[2].textContent = "v" + version;
  if (changed) {
    row.classList.remove("changed");
    void row.offsetWidth; // restart the highlight
    row.classList.add("changed");
  }
}

/** The most rows of a collection the values table shows; the rest are counted. */
const ROWS_SHOWN = 50;

/** Whether `value` is what an exposed collection publishes: a non-empty array of objects, each with a "key". */
function isKeyedRows(value) {
  return Array.isArray(value) && value.length > 0
    && value.every((row) => row !== null && typeof row === "object" && !Array.isArray(row) && "key" in row);
}

/** A value as the values table shows it: a collection as a table of its rows (key first), anything else as JSON. */
function shownValue(value) {
  if (!isKeyedRows(value)) return document.createTextNode(JSON.stringify(value, null, 1).replace(/\n\s*/g, " "));
  const columns = [];
  for (const row of value.slice(0, ROWS_SHOWN)) {
    for (const column of Object.keys(row)) if (column !== "key" && !columns.includes(column)) columns.push(column);
  }
  const cell = (v) => (typeof v === "string" ? v : JSON.stringify(v));
  const table = el("table", { class: "rows" },
    el("thead", null, el("tr", null, el("th", { text: "key" }), ...columns.map((c) => el("th", { text: c })))),
    el("tbody", null, ...value.slice(0, ROWS_SHOWN).map((row) =>
      el("tr", { "data-key": cell(row.key) }, el("th", { scope: "row", text: cell(row.key) }),
        ...columns.map((c) => el("td", { text: c in row ? cell(row[c]) : "" }))))));
  if (value.length <= ROWS_SHOWN) return table;
  return el("div", null, table, el("p", { class: "more", text: `+${value.length - ROWS_SHOWN} more rows` }));
}

function setVersion(version) {
  state.version = version;
  $("version").textContent = String(version);
}

// ---- the message log -------------------------------------------------------------------------------------------

function senderKind(sender) {
  if (sender === "app") return "app";
  if (sender === state.sender) return "person";
  return "agent";
}

/** One log entry's list item. */
function logItem(entry, fresh) {
  const kind = senderKind(entry.sender);
  let line = entry.line;
  if (entry.approval) {
    const a = entry.approval;
    line += a.refused ? " (refused: no answer, still open)" : a.expired ? " (expired unanswered)" : ` (${a.approved ? "approved" : "denied"} by ${a.by}` +
      (a.reason ? `: ${a.reason}` : "") + ")";
  }
  return el("li", { class: fresh ? "fresh" : null, "data-seq": entry.seq, "data-sender": entry.sender },
    el("span", { class: "who " + kind, title: kind, text: entry.sender }),
    el("span", { class: "line", text: line }));
}

function addLog(entry, fresh) {
  if (entry.seq <= state.lastSeq) return;
  state.lastSeq = entry.seq;
  $("log").prepend(logItem(entry, fresh));
  $("no-log").hidden = true;
  while ($("log").children.length > state.keep) $("log").lastElementChild.remove();
}

/** The stream opens with the newest messages only: the older ones, a page at a time, on request. */
async function olderLog() {
  const button = $("older");
  button.disabled = true;
  try {
    const response = await fetch("page/log?before=" + state.firstSeq, { credentials: "same-origin" });
    if (!response.ok) throw new Error(response.status + " " + (await response.text()));
    const older = await response.json();
    // newest first, as the log shows them
    for (const entry of older.log.slice().reverse()) $("log").append(logItem(entry, false));
    state.keep += older.log.length;
    state.firstSeq = older.firstSeq;
    button.hidden = state.firstSeq <= 1;
    button.textContent = "Older messages";
  } catch (error) {
    button.textContent = "older messages failed: " + error.message + " (retry)";
  } finally {
    button.disabled = false;
  }
}

// ---- approvals -------------------------------------------------------------------------------------------------

function showInterrupt(interrupt) {
  if (state.interrupts.has(interrupt.id)) return;
  const reasonId = "reason-" + interrupt.id;
  const result = el("p", { class: "result", role: "status" });
  const answer = async (approve, buttons) => {
    buttons.forEach((b) => (b.disabled = true));
    const reason = $(reasonId).value;
    const reply = await post("page/answer", { id: interrupt.id, approve, reason: reason || null });
    result.className = "result " + (reply.ok ? "ok" : "error");
    result.textContent = reply.text;
    if (!reply.ok) buttons.forEach((b) => (b.disabled = false));
  };
  const approveButton = el("button", { type: "button", class: "approve", text: "Approve" });
  const denyButton = el("button", { type: "button", class: "deny secondary", text: "Deny" });
  const buttons = [approveButton, denyButton];
  approveButton.addEventListener("click", () => answer(true, buttons));
  denyButton.addEventListener("click", () => answer(false, buttons));
  const item = el("li", { "data-id": interrupt.id },
    el("p", { class: "prompt", text: interrupt.prompt }),
    el("p", { class: "meta", text: `${interrupt.message} ${compact(interrupt.args)} · asked by ${interrupt.sender}` +
      ` at ${time(interrupt.openedAt)} · expires in ${Math.ceil(interrupt.expiresInMs / 1000)} s` +
      (interrupt.notRun ? ` · ${interrupt.notRun} more messages wait behind it` : "") }),
    el("div", { class: "field" },
      el("label", { for: reasonId, text: "Reason (optional)" }),
      el("input", { type: "text", id: reasonId, autocomplete: "off" })),
    el("div", { class: "buttons" }, approveButton, denyButton),
    result);
  state.interrupts.set(interrupt.id, item);
  $("approvals").append(item);
  $("no-approvals").hidden = true;
}

function closeInterrupt(interrupt, record) {
  const item = state.interrupts.get(interrupt.id);
  if (!item) return;
  state.interrupts.delete(interrupt.id);
  item.remove();
  $("no-approvals").hidden = state.interrupts.size > 0;
  setStatus(record ? `“${interrupt.prompt}” ${record.approved ? "approved" : "denied"} by ${record.by}`
    : `“${interrupt.prompt}” expired unanswered`);
}

// ---- dispatch forms --------------------------------------------------------------------------------------------

async function post(path, body) {
  try {
    const response = await fetch(path, {
      method: "POST", credentials: "same-origin",
      headers: { "content-type": "application/json", "x-ranvier-csrf": csrf },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) return { ok: false, text };
    return JSON.parse(text);
  } catch (error) {
    return { ok: false, text: "the request failed: " + error };
  }
}

/** The first non-null type of a property schema. */
function typeOf(property) {
  const type = Array.isArray(property.type) ? property.type.find((t) => t !== "null") : property.type;
  return type || (property.enum ? "enum" : "json");
}

function rangeText(property) {
  const low = property.minimum ?? property.exclusiveMinimum;
  const high = property.maximum ?? property.exclusiveMaximum;
  if (low !== undefined && high !== undefined) return `${low} to ${high}`;
  if (low !== undefined) return `at least ${low}`;
  if (high !== undefined) return `at most ${high}`;
  return "";
}

function field(message, name, property, required) {
  const id = `f-${message}-${name}`;
  const type = typeOf(property);
  let input;
  if (property.enum) {
    input = el("select", { id, name }, ...(required ? [] : [el("option", { value: "", text: "(none)" })]),
      ...property.enum.map((v) => el("option", { value: JSON.stringify(v), text: String(v) })));
  } else if (type === "boolean") {
    input = el("input", { id, name, type: "checkbox" });
  } else if (type === "integer" || type === "number") {
    input = el("input", { id, name, type: "number", step: type === "integer" ? 1 : "any", inputmode: "numeric",
      min: property.minimum, max: property.maximum });
  } else if (type === "string") {
    input = el("input", { id, name, type: "text", autocomplete: "off", minlength: property.minLength,
      maxlength: property.maxLength });
  } else {
    input = el("textarea", { id, name, rows: 2, placeholder: "JSON" });
  }
  input.dataset.kind = property.enum ? "enum" : type;
  if (required) input.setAttribute("aria-required", "true");
  const hint = [type === "json" ? "JSON" : type, rangeText(property), property.description].filter(Boolean).join(" · ");
  const hintId = id + "-hint";
  input.setAttribute("aria-describedby", hintId);
  return el("div", { class: "field" },
    el("label", { for: id }, name, required ? el("span", { class: "req", title: "required", text: " *" }) : null),
    input, el("span", { class: "hint", id: hintId, text: hint }));
}

/** The arguments as JSON text (numbers written as typed, so integers past 2^53 survive). */
function argsText(form) {
  const parts = [];
  for (const input of form.querySelectorAll("[data-kind]")) {
    const key = JSON.stringify(input.name);
    const kind = input.dataset.kind;
    if (kind === "boolean") { parts.push(`${key}:${input.checked}`); continue; }
    const raw = input.value.trim();
    if (raw === "" && kind !== "string") continue;
    if (raw === "" && !input.hasAttribute("aria-required")) continue;
    if (kind === "string") parts.push(`${key}:${JSON.stringify(input.value)}`);
    else if (kind === "enum") parts.push(`${key}:${raw}`);
    else if ((kind === "integer" || kind === "number") && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(raw)) parts.push(`${key}:${raw}`);
    else if (kind === "integer" || kind === "number") parts.push(`${key}:${JSON.stringify(raw)}`);
    else {
      try { JSON.parse(raw); } catch (error) { throw new Error(`${input.name} is not JSON: ${error.message}`); }
      parts.push(`${key}:${raw}`);
    }
  }
  return "{" + parts.join(",") + "}";
}

function buildForm(message) {
  const schema = message.schema || {};
  const properties = schema.properties || {};
  const required = new Set(schema.required || []);
  const result = el("p", { class: "result", role: "status", "aria-live": "polite" });
  const form = el("form", { novalidate: true, "data-message": message.name, "aria-label": "dispatch " + message.name },
    el("fieldset", {},
      el("legend", {}, message.name + " ", message.shape ? el("small", { text: message.shape }) : null,
        message.gated ? el("small", { text: " · asks a person first" }) : null),
      ...Object.entries(properties).map(([name, property]) => field(message.name, name, property, required.has(name))),
      el("div", { class: "buttons" }, el("button", { type: "submit", text: "Dispatch " + message.name })),
      result));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    let args;
    try { args = argsText(form); } catch (error) {
      result.className = "result error";
      result.textContent = error.message;
      return;
    }
    const button = form.querySelector("button");
    button.disabled = true;
    const reply = await post("page/dispatch", `{"message":${JSON.stringify(message.name)},"args":${args}}`);
    button.disabled = false;
    result.className = "result " + (reply.ok || reply.paused ? "ok" : "error");
    result.textContent = reply.paused ? "paused: it waits for a person's approval (see Approvals)" : reply.text;
  });
  return form;
}

// ---- the graph -------------------------------------------------------------------------------------------------

let graphTimer = null;
let selected = null;

function refreshGraph() {
  if (!state.traced) return;
  clearTimeout(graphTimer);
  graphTimer = setTimeout(async () => {
    try {
      const response = await fetch("page/graph", { credentials: "same-origin" });
      if (response.ok) drawGraph(await response.json());
    } catch (error) { $("graph-note").textContent = "the graph could not be read: " + error; }
  }, 30);
}

/** Layers by longest path from the nodes that read nothing; within a layer, by the mean row of their sources. */
function layout(nodes) {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const layer = new Map();
  const visiting = new Set();
  const depth = (node) => {
    if (layer.has(node.id)) return layer.get(node.id);
    if (visiting.has(node.id)) return 0;
    visiting.add(node.id);
    let d = 0;
    for (const s of node.sources) if (byId.has(s) && s !== node.id) d = Math.max(d, depth(byId.get(s)) + 1);
    visiting.delete(node.id);
    layer.set(node.id, d);
    return d;
  };
  nodes.forEach(depth);
  const layers = [];
  for (const node of nodes) (layers[layer.get(node.id)] ||= []).push(node);
  const row = new Map();
  for (const nodesInLayer of layers) {
    if (!nodesInLayer) continue;
    const key = (n) => {
      const rows = n.sources.filter((s) => row.has(s)).map((s) => row.get(s));
      return rows.length ? rows.reduce((a, b) => a + b, 0) / rows.length : n.id / 1e6;
    };
    nodesInLayer.sort((a, b) => key(a) - key(b) || a.id - b.id);
    nodesInLayer.forEach((n, i) => row.set(n.id, i));
  }
  return { layers, layer, row };
}

function shape(kind, w, h) {
  if (kind === "Signal") return el("svg:rect", { class: "shape", width: w, height: h, rx: h / 2 });
  if (kind === "Effect") {
    const c = 10;
    return el("svg:polygon", { class: "shape",
      points: `${c},0 ${w - c},0 ${w},${h / 2} ${w - c},${h} ${c},${h} 0,${h / 2}` });
  }
  return el("svg:rect", { class: "shape", width: w, height: h, rx: 6 });
}

function drawGraph(graph) {
  const svg = $("graph");
  if (!graph.traced) { $("graph-section").hidden = true; return; }
  $("graph-section").hidden = false;
  const { layers, layer, row } = layout(graph.nodes);
  const W = 150, H = 40, GX = 44, GY = 14, PAD = 8;
  const moved = new Set(graph.moved);
  const tallest = Math.max(1, ...layers.map((l) => (l ? l.length : 0)));
  const width = PAD * 2 + layers.length * (W + GX) - GX, height = PAD * 2 + tallest * (H + GY) - GY;
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  // fit the panel's width when that keeps the text readable (at least 3/4 size); scroll otherwise
  const shown = Math.min(width, Math.max($("graph-wrap").clientWidth - 2, width * 0.75));
  svg.setAttribute("width", shown);
  svg.setAttribute("height", (height * shown) / width);
  const at = (id) => ({ x: PAD + layer.get(id) * (W + GX), y: PAD + row.get(id) * (H + GY) });
  const edges = el("svg:g", {});
  for (const node of graph.nodes) {
    const to = at(node.id);
    for (const source of node.sources) {
      if (!layer.has(source) || source === node.id) continue;
      const from = at(source);
      const x1 = from.x + W, y1 = from.y + H / 2, x2 = to.x, y2 = to.y + H / 2, mx = (x1 + x2) / 2;
      edges.append(el("svg:path", { class: "edge" + (moved.has(source) && moved.has(node.id) ? " moved" : ""),
        d: `M${x1},${y1} C${mx},${y1} ${mx},${y2} ${x2},${y2}` }));
    }
  }
  svg.append(edges);
  for (const node of graph.nodes) {
    const { x, y } = at(node.id);
    const value = node.error ? "panicked" : node.value ?? "";
    const label = `${node.exposed && !node.name.startsWith(node.exposed + "#") ? node.exposed + " = " : ""}${node.name}`;
    const g = el("svg:g", { class: `node ${node.kind}${moved.has(node.id) ? " moved" : ""}${selected === node.id ? " selected" : ""}`,
      transform: `translate(${x},${y})`, tabindex: 0, role: "button", "data-id": node.id, "data-name": node.name,
      "aria-label": `${label}, ${node.kind}${value ? " = " + value : ""}${moved.has(node.id) ? ", moved by the last message" : ""}, made at ${node.site}` },
      el("svg:title", { text: `${node.name} ${node.kind} at ${node.site}` }),
      shape(node.kind, W, H),
      el("svg:text", { x: 14, y: 16, text: clipText(label, 21) }),
      el("svg:text", { x: 14, y: 31, class: "val", text: clipText(value, 21) }));
    const explain = () => explainNode(node, g);
    g.addEventListener("click", explain);
    g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); explain(); } });
    const where = () => { $("graph-note").textContent = `${node.name} (${node.kind}) made at ${node.site}, ${node.runs} runs`; };
    g.addEventListener("mouseenter", where);
    g.addEventListener("focus", where);
    svg.append(g);
  }
  const part = graph.nodes.length < graph.total ? ` (the first ${graph.nodes.length} of ${graph.total})` : "";
  $("graph-note").textContent = `${graph.nodes.length} nodes${part}` +
    (graph.lastMessage ? ` · last message: ${graph.lastMessage}` : "");
}

function clipText(text, max) { return text.length > max ? text.slice(0, max - 1) + "…" : text; }

async function explainNode(node, g) {
  selected = node.id;
  document.querySelectorAll("g.node.selected").forEach((n) => n.classList.remove("selected"));
  g.classList.add("selected");
  const box = $("explain");
  box.textContent = `explaining ${node.name}…`;
  try {
    const response = await fetch("page/explain?node=" + encodeURIComponent(node.id), { credentials: "same-origin" });
    box.textContent = await response.text();
  } catch (error) {
    box.textContent = "explain failed: " + error;
  }
}

// ---- timeline ----------------------------------------------------------------------------------------------------

/** The slider spans the kept versions; it follows the newest version unless a person moved it back. */
function setTimelineRange(oldest, current) {
  const slider = $("timeline");
  const following = slider.dataset.touched !== "1" || Number(slider.value) === Number(slider.max);
  slider.min = oldest;
  slider.max = current;
  $("diff-to").max = current;
  $("diff-from").max = current;
  if (following) {
    slider.value = current;
    $("diff-to").value = current;
    showVersion(current);
  }
}

/** Shows version `v`: its values and the message that made it. */
async function showVersion(v) {
  const ask = ++state.timelineAsk;
  $("at-version").textContent = "v" + v;
  // until the answer comes, nothing of the version shown before may pass for this one's
  $("at-message").textContent = "reading v" + v + "…";
  $("at-values").setAttribute("aria-busy", "true");
  try {
    const response = await fetch("page/version?v=" + v, { credentials: "same-origin" });
    const text = await response.text();
    if (ask !== state.timelineAsk) return;
    if (!response.ok) { $("at-message").textContent = text; $("at-values").tBodies[0].replaceChildren(); return; }
    const at = JSON.parse(text);
    $("at-message").textContent = at.message ? "made by " + at.message.line : at.version === 0 ? "the first version" : "made by the app on its own";
    $("at-values").tBodies[0].replaceChildren(...at.values.map(([name, value]) =>
      el("tr", { "data-name": name }, el("th", { scope: "row", text: name }), el("td", { class: "v" }, shownValue(value)))));
  } catch (error) {
    if (ask === state.timelineAsk) $("at-message").textContent = "could not read version " + v + ": " + error.message;
  } finally {
    if (ask === state.timelineAsk) $("at-values").removeAttribute("aria-busy");
  }
}

async function showDiff(event) {
  event.preventDefault();
  const from = $("diff-from").value, to = $("diff-to").value;
  try {
    const response = await fetch(`page/diff?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`, { credentials: "same-origin" });
    $("diff").textContent = await response.text();
  } catch (error) {
    $("diff").textContent = "diff failed: " + error.message;
  }
}

// ---- errors ------------------------------------------------------------------------------------------------------

/** Adds errors (oldest first) at the top of the list, newest first; a hello replaces the list. */
function showErrors(data, replace) {
  if (replace) { $("errors").replaceChildren(); state.errorSeq = 0; }
  for (const error of data.errors) {
    if (error.seq <= state.errorSeq) continue;
    state.errorSeq = error.seq;
    $("errors").prepend(el("li", { class: replace ? null : "fresh", "data-seq": error.seq, "data-kind": error.kind },
      el("span", { class: "line", text: error.summary })));
  }
  while ($("errors").children.length > 200) $("errors").lastElementChild.remove();
  $("no-errors").hidden = $("errors").children.length > 0;
}

// ---- the event stream ------------------------------------------------------------------------------------------

function hello(data) {
  state.sender = data.sender;
  state.traced = data.traced;
  state.lastSeq = 0;
  $("me").textContent = data.sender;
  state.rows.clear();
  document.querySelector("#values tbody").replaceChildren();
  for (const [name, value] of data.values) setValue(name, value, data.version, false);
  setVersion(data.version);
  $("forms").replaceChildren(...data.messages.map(buildForm));
  if (!data.messages.length) $("forms").append(el("p", { class: "quiet", text: "This app exposes no messages." }));
  state.interrupts.clear();
  $("approvals").replaceChildren();
  $("no-approvals").hidden = data.interrupts.length > 0;
  data.interrupts.forEach(showInterrupt);
  showErrors(data.errors, true);
  $("timeline").dataset.touched = "";
  setTimelineRange(data.kept[0], data.version);
  $("log").replaceChildren();
  $("no-log").hidden = data.log.length > 0;
  data.log.forEach((entry) => addLog(entry, false));
  state.lastSeq = Math.max(state.lastSeq, data.lastSeq);
  state.firstSeq = data.firstSeq;
  state.keep = 200;
  $("older").hidden = data.firstSeq <= 1;
  $("graph-section").hidden = !data.traced;
  refreshGraph();
  setStatus("live");
}

function connect() {
  const source = new EventSource("page/events", { withCredentials: true });
  const on = (name, handler) => source.addEventListener(name, (event) => handler(JSON.parse(event.data)));
  on("hello", hello);
  on("values", (data) => {
    if (state.version !== null && data.version <= state.version) return;
    for (const [name, value] of Object.entries(data.changed)) setValue(name, value, data.version, true);
    setVersion(data.version);
    setTimelineRange(Number($("timeline").min), data.version);
    refreshGraph();
  });
  on("log", (entry) => { addLog(entry, true); refreshGraph(); });
  on("errors", (data) => showErrors(data, false));
  on("interrupt", (data) => {
    if (data.event === "opened") showInterrupt(data.interrupt);
    else closeInterrupt(data.interrupt, data.record);
  });
  source.addEventListener("error", () => setStatus(source.readyState === EventSource.CLOSED ? "disconnected: reload the page" : "reconnecting…"));
}

$("older").addEventListener("click", olderLog);
$("timeline").addEventListener("input", () => { $("timeline").dataset.touched = "1"; showVersion(Number($("timeline").value)); });
$("diff-form").addEventListener("submit", showDiff);
connect();
