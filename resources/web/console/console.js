// Outbox web console: sign-in, hash routes (#/events?…, #/event/ID, …) and the views. Every
// view is a URL that can be pasted into an incident channel; data comes from /api/v1 and the live
// counts, relays and findings from the one /ws connection.
import { openAction, openGroupEdit, openLetterEdit, openPreparedAction, openRelayControl } from "./actions.js";
import {
  api, apiText, clearToken, signIn, download, el, errorBox, fill, fmtTime, get, jsonTree, live, loadLanguage, member, query, setToken,
  t, takeTokenFromFragment, tc, token, translateStatic,
} from "./lib.js";

const PAGE = 50;
let me = null; // {name, role, may_change}
// The fields each list filters by, as core names them (GET /api/v1/filters): {events: [...],
// dead_letters: [...], dead_letter_groups: [...]}, each {name, label, example, choices}. The forms
// are built from them, so the console keeps no copy of the names, nor of the statuses.
let filterFields = { events: [], dead_letters: [], dead_letter_groups: [] };
// The values a list's field takes (its choices: the statuses), as core lists them.
const choicesOf = (list, name) => (filterFields[list] || []).find((f) => f.name === name)?.choices || [];
let cleanup = []; // live subscriptions of the current view
const view = () => document.getElementById("view");
// The view is shown for this address: a click on a link changes the address at once and the view
// only once the hashchange event has run, so "ready" names the address it is ready for.
function markReady(v) {
  v.dataset.route = location.hash;
  v.dataset.ready = "1";
}


// ---- routing --------------------------------------------------------------------------------
function route() {
  const hash = location.hash.replace(/^#/, "") || "/events";
  const [path, q] = hash.split("?");
  return { parts: path.split("/").filter(Boolean), params: new URLSearchParams(q || "") };
}

export function go(path, params) {
  location.hash = `#${path}${params ? query(params) : ""}`;
}

// options.keepDialog: the view is read again behind an action's open result (actions.js), which
// stays; any other render (a new route, a refresh) closes the dialog.
async function render(options) {
  for (const fn of cleanup) fn();
  cleanup = [];
  // A dialog or result pane belongs to the view it was opened from: going to another view closes
  // it (a running job goes on on the server; the dialog stops following it) without re-rendering.
  const dialog = document.getElementById("action-dialog");
  if (!(options && options.keepDialog === true)) {
    dialog.onclose = null;
    if (dialog.open) dialog.close();
    dialog.replaceChildren();
  }
  if (!token()) return showSignIn();
  const { parts, params } = route();
  const name = parts[0] || "events";
  for (const a of document.querySelectorAll("#nav a"))
    a.classList.toggle("active", a.dataset.view === name || (name === "event" && a.dataset.view === "events") ||
      (name === "dead-letter" && a.dataset.view === "dead-letters"));
  const views = { events: eventsView, event: eventView, groups: groupsView, "dead-letters": lettersView,
                  "dead-letter": letterView, "dl-groups": letterGroupsView, audit: auditView, relays: relaysView, recovery: recoveryView,
                  blocked: blockedView };
  const fn = views[name];
  // Renders overlap (a click on "next" while the page before still loads). Each fills a view
  // element of its own: one still awaiting its data when a later render starts goes on filling the
  // element it was given, which is no longer on the page, and never says it is ready.
  const shown = view();
  const v = shown.cloneNode(false);
  shown.replaceWith(v);
  fill(v, el("p", { class: "muted" }, t("Loading…")));
  v.dataset.view = name;
  delete v.dataset.ready;
  try {
    if (!fn) throw new Error(t("there is no view %1", name));
    await fn(v, parts.slice(1), params);
  } catch (e) {
    if (e.status === 401 && signIn && signIn.enabled()) return showSignInError(e.message);
    if (e.status === 401) { clearToken(); return showSignIn(t("The token was refused; sign in again.")); }
    fill(v, errorBox(e));
  }
  if (!v.isConnected) return; // a later render owns the page now
  markReady(v);
  // From navigation start to the first rendered view (printed by the browser test).
  if (!window.outboxConsoleReadyMs) window.outboxConsoleReadyMs = performance.now();
}

// ---- sign-in --------------------------------------------------------------------------------
function showSignIn(message) {
  live.close();
  document.getElementById("nav").hidden = true;
  document.getElementById("who").replaceChildren();
  document.getElementById("counts").replaceChildren();
  const input = el("input", { id: "token", type: "password", autocomplete: "off", required: true });
  const form = el("form", { id: "signin" },
    el("h1", {}, t("Sign in")),
    message ? errorBox(message) : null,
    el("label", { for: "token" }, t("API token (viewer or operator)")), input,
    el("button", { id: "signin-submit", class: "primary", type: "submit" }, t("Sign in")));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    setToken(input.value.trim());
    await start();
  });
  view().replaceChildren(form);
  view().dataset.view = "signin";
  markReady(view());
  input.focus();
}

// /console/?member=NAME of a member the token may not open (or one the fleet does not have).
function showMemberRefused(message) {
  live.close();
  document.getElementById("nav").hidden = true;
  document.title = `${member} — ${t("Outbox Console")}`;
  view().replaceChildren(el("div", { id: "member-refused" },
    el("h1", {}, t("Database %1 cannot be opened with this token", member)),
    errorBox(message),
    el("p", {}, el("a", { href: "/" }, t("back to the wall")))));
  view().dataset.view = "refused";
  markReady(view());
}

async function start() {
  try {
    me = await get(member ? `/api/v1/me?member=${encodeURIComponent(member)}` : "/api/v1/me");
    filterFields = await get("/api/v1/filters");
  } catch (e) {
    // A member this token does not see: refused, and the token kept for the wall and its members.
    if (member && e.status === 404) return showMemberRefused(e.message);
    if (signIn && signIn.enabled()) return showSignInError(e.message);
    clearToken();
    return showSignIn(e.status === 401 ? t("The token was refused; sign in again.") : e.message);
  }
  document.body.classList.toggle("operator", me.may_change);
  document.getElementById("nav").hidden = false;
  // A fleet member's console says on every page which database it acts on.
  if (member && !document.getElementById("member-banner")) {
    document.title = `${member} — ${t("Outbox Console")}`;
    document.body.classList.add("member");
    document.getElementById("top").prepend(el("div", { id: "member-banner" }, t("Database %1 (fleet member)", member),
      " ", el("a", { href: "/" }, t("back to the wall"))));
  }
  document.getElementById("who").replaceChildren(
    el("span", { id: "who-name" }, `${me.name} (${me.may_change ? t("operator") : t("viewer")})`),
    el("button", { id: "signout", type: "button", onclick: () => {
      if (signIn && signIn.enabled()) return signIn.signOut();
      clearToken(); me = null; history.replaceState(null, "", "#/events"); showSignIn(); } }, t("Sign out")));
  live.connect();
  live.pollMember();
  await render();
}

function renderCounts() {
  const s = live.snapshot;
  if (!s) return;
  const box = document.getElementById("counts");
  const counts = [...choicesOf("events", "status").map((st) => [st, `#/events?status=${st}`, t(st), s.events[st] ?? 0, st === "FAILED" || st === "DEAD"]),
    ["DLQ", "#/dead-letters?status=NEW", t("Dead letters NEW"), s.dead_letters?.NEW ?? 0, false]];
  // The links are made once and their numbers updated in place: a link being clicked or holding
  // the keyboard focus is not replaced under the pointer on every snapshot.
  if (box.children.length !== counts.length)
    fill(box, counts.map(([key, href, label]) => el("a", { href, "data-count": key }, `${label} `, el("span", { class: "n" }))));
  for (const [key, , , n, alarming] of counts) {
    const span = box.querySelector(`[data-count="${key}"] .n`);
    span.textContent = n.toLocaleString();
    span.className = alarming && n ? "n bad" : "n";
  }
}

// ---- shared pieces --------------------------------------------------------------------------
function filterForm(id, fields, params, onSubmit) {
  const form = el("form", { id, class: "filters" });
  for (const f of fields) {
    const input = f.options
      ? el("select", { name: f.name, id: `${id}-${f.name}` }, el("option", { value: "" }, t("any")), f.options.map((o) => el("option", { value: o }, o)))
      : el("input", { name: f.name, id: `${id}-${f.name}`, placeholder: f.placeholder || "", size: f.size || 14 });
    input.value = params.get(f.name) || "";
    form.append(el("label", { for: `${id}-${f.name}` }, f.label, input));
  }
  form.append(el("button", { type: "submit", class: "primary", id: `${id}-apply` }, t("Apply")),
    el("button", { type: "button", id: `${id}-clear`, onclick: () => onSubmit({}) }, t("Clear")));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const values = {};
    for (const f of fields) { const v = form.elements[f.name].value.trim(); if (v) values[f.name] = v; }
    onSubmit(values);
  });
  return form;
}

function valuesOf(params, names) {
  const o = {};
  for (const n of names) if (params.get(n)) o[n] = params.get(n);
  return o;
}

// Keyset paging: the cursor of each page is in the URL (after=…); "Previous" walks back the
// cursors this tab has seen.
function pager(id, params, next, base) {
  const trail = (params.get("trail") || "").split(",").filter(Boolean);
  const after = params.get("after") || "";
  const nav = el("div", { class: "pager", id });
  nav.append(el("button", { type: "button", id: `${id}-first`, disabled: !after, onclick: () => go(base.path, { ...base.params }) }, t("First page")));
  nav.append(el("button", { type: "button", id: `${id}-prev`, disabled: !after, onclick: () => {
    const back = trail.slice(0, -1);
    go(base.path, { ...base.params, after: trail[trail.length - 1] || "", trail: back.join(",") });
  } }, t("Previous")));
  nav.append(el("button", { type: "button", id: `${id}-next`, disabled: !next, onclick: () =>
    go(base.path, { ...base.params, after: next, trail: [...trail, after].filter((x, i) => x || i > 0).join(",") }) }, t("Next page")));
  return nav;
}

function statusCell(s) { return el("td", { class: `status-${s}` }, t(s)); }

function selection(table) {
  return [...table.querySelectorAll("input.pick:checked")].map((c) => Number(c.value));
}

function selectAllBox(tableId) {
  return el("input", { type: "checkbox", "aria-label": t("Select all"), onchange: (e) => {
    for (const c of document.querySelectorAll(`#${tableId} input.pick`)) c.checked = e.target.checked;
  } });
}

// ---- Events ---------------------------------------------------------------------------------
// A list's search fields as core describes them (labels from core's catalogue); the page reads
// its filter from the address by their names, which are the API's query parameters.
function searchFields(list) {
  return filterFields[list].map((f) => ({
    name: f.name, label: tc(f.label), options: f.choices.length ? f.choices : null,
    placeholder: f.example, size: Math.max(14, f.example.length),
  }));
}

async function eventsView(v, _, params) {
  const fields = searchFields("events");
  const filter = valuesOf(params, fields.map((f) => f.name));
  const started = performance.now();
  // A refused filter (a malformed time, a bad header key or payload path) keeps the form with the
  // API's message, so that it can be corrected.
  let page = { events: [], next_after_id: null };
  let pageError = null;
  try {
    page = await get(`/api/v1/events${query({ ...filter, limit: PAGE, after_id: params.get("after") })}`);
  } catch (e) {
    if (e.status === 401) throw e;
    pageError = e;
  }
  const table = el("table", { id: "events" },
    el("thead", {}, el("tr", {}, el("th", {}, me.may_change ? selectAllBox("events") : ""), [t("Id"), t("Event id"), t("Type"), t("Aggregate"), t("Status"), t("Attempts"), t("Created"), t("Last error")].map((h) => el("th", {}, h)))),
    el("tbody", {}, page.events.map((e) => el("tr", { "data-id": e.id },
      el("td", {}, me.may_change ? el("input", { type: "checkbox", class: "pick", value: e.id, "aria-label": t("Select %1", e.id) }) : ""),
      el("td", { class: "num" }, el("a", { href: `#/event/${e.id}` }, e.id)),
      el("td", {}, e.event_id), el("td", {}, e.event_type), el("td", {}, `${e.aggregate_type}/${e.aggregate_id}`),
      statusCell(e.status), el("td", { class: "num" }, e.attempts), el("td", {}, fmtTime(e.created_at)),
      el("td", { class: "err", title: e.last_error || "" }, e.last_error || "")))));
  const actions = me.may_change ? el("div", { class: "toolbar", id: "event-actions" },
    el("button", { type: "button", id: "act-requeue-selected", onclick: () => actOnSelection("requeue", table) }, t("Requeue selected…")),
    el("button", { type: "button", id: "act-dead-selected", onclick: () => actOnSelection("dead", table) }, t("Mark selected DEAD…")),
    el("span", { class: "spacer" }),
    el("button", { type: "button", id: "act-requeue-filter", disabled: !Object.keys(filter).length, onclick: () => openAction({ kind: "requeue", target: { filter: filterJson(filter) }, onDone: render }) }, t("Requeue all matching…")),
    el("button", { type: "button", id: "act-dead-filter", disabled: !Object.keys(filter).length, onclick: () => openAction({ kind: "dead", target: { filter: filterJson(filter) }, onDone: render }) }, t("Mark all matching DEAD…"))) : null;
  const changed = el("div", { class: "notice", id: "events-changed", hidden: true },
    t("The counts changed since this page was loaded. "), el("button", { type: "button", onclick: render }, t("Refresh")));
  let seen = null;
  cleanup.push(live.on((kind) => {
    if (kind !== "snapshot") return;
    const key = JSON.stringify(live.snapshot.events);
    if (seen === null) seen = key;
    else if (key !== seen) changed.hidden = false;
  }));
  fill(v, el("h1", {}, t("Events")),
    filterForm("event-filter", fields, params, (values) => go("/events", values)),
    pageError ? errorBox(pageError) : null, changed, actions, table,
    page.events.length || pageError ? null : el("p", { class: "muted", id: "events-empty" }, t("No event matches.")),
    pager("events-pager", params, page.next_after_id, { path: "/events", params: filter }),
    el("p", { class: "muted", id: "events-timing" }, t("%1 events in %2 ms", page.events.length, Math.round(performance.now() - started))));
}

function filterJson(filter) {
  const f = { ...filter };
  if (f.status) f.status = f.status.split(",");
  return f;
}

function actOnSelection(kind, table) {
  const ids = selection(table);
  if (!ids.length) return alertBox(t("Select rows first (the boxes in the first column)."));
  openAction({ kind, target: { ids }, onDone: render });
}

function alertBox(message) {
  const d = document.getElementById("action-dialog");
  d.replaceChildren(el("p", { role: "alert" }, message), el("button", { type: "button", id: "action-close", onclick: () => d.close() }, t("Close")));
  d.onclose = null;
  d.showModal();
}

// ---- Event ----------------------------------------------------------------------------------
async function eventView(v, [id]) {
  const e = await get(`/api/v1/events/${encodeURIComponent(id)}`);
  const [history, trail] = await Promise.all([
    get(`/api/v1/audit${query({ target_kind: "event", target_id: e.id, limit: 100 })}`),
    get(`/api/v1/events/${encodeURIComponent(e.id)}/trace`)]);
  const fields = el("dl", { class: "fields", id: "event-fields" },
    Object.entries(e).filter(([k]) => k !== "payload" && k !== "headers").map(([k, val]) => [el("dt", {}, k), el("dd", { "data-field": k }, val === null ? "—" : String(val))]));
  const actions = me.may_change ? el("div", { class: "toolbar" },
    el("button", { type: "button", id: "act-requeue-one", onclick: () => openAction({ kind: "requeue", target: { ids: [e.id] }, onDone: render }) }, t("Requeue…")),
    el("button", { type: "button", id: "act-dead-one", onclick: () => openAction({ kind: "dead", target: { ids: [e.id] }, onDone: render }) }, t("Mark DEAD…"))) : null;
  // The other events of the same trace (the trace id is the second field of the traceparent).
  const traceId = /^[0-9a-f]{2}-([0-9a-f]{32})-/.exec(String((e.headers || {}).traceparent || ""));
  const sameTrace = traceId ? el("p", {}, el("a", { id: "event-same-trace", href: `#/events${query({ trace_id: traceId[1] })}` }, t("Events of trace %1", traceId[1]))) : null;
  fill(v, 
    el("h1", {}, t("Event %1", e.id), " ", el("span", { class: `status-${e.status}` }, t(e.status))),
    el("p", {}, el("a", { href: "#/events" }, t("← Events"))), actions, fields, sameTrace,
    el("h2", {}, t("Payload")), el("div", { class: "tree", id: "payload-tree" }, jsonTree(e.payload)),
    el("h2", {}, t("Headers")), el("div", { class: "tree", id: "headers-tree" }, jsonTree(e.headers)),
    el("details", {}, el("summary", {}, t("Raw JSON")), el("pre", { id: "event-raw" }, JSON.stringify(e, null, 2))),
    el("h2", {}, t("Trail")), trailList(trail.steps || []),
    el("h2", {}, t("Audit history")), auditTable(history.entries, "event-audit"));
}

// The event's life in time order (GET /api/v1/events/{id}/trace, as `outboxctl trace`): the kind
// and time translated, the server's one-line summary as it is, the step's details as a tree.
const TRAIL_KINDS = {
  created: () => t("Event created"), attempts: () => t("Claims and attempts"), last_error: () => t("Last error"),
  sent: () => t("Sent to the broker"), audit: () => t("Operator action"), inbox: () => t("Consumer inbox"),
  dead_letter: () => t("Dead letter"), replayed: () => t("Replayed"),
};

function trailList(steps) {
  if (!steps.length) return el("p", { class: "muted", id: "event-trail" }, t("No trail."));
  return el("ol", { class: "trail", id: "event-trail" }, steps.map((s) => {
    const d = s.details || {};
    // Each fact once: the sent step's place is said by `where` (translated) instead of the
    // summary; a dead letter's summary is its link; the inbox summary names consumer and status.
    let where = null;
    let summary = s.summary;
    if (s.kind === "sent") {
      where = t("topic %1, partition %2, offset %3", d.topic ?? "?", d.partition ?? "?", d.offset ?? "?");
      summary = null;
    } else if ((s.kind === "dead_letter" || s.kind === "replayed") && d.dead_letter_id != null) {
      summary = el("a", { href: `#/dead-letter/${d.dead_letter_id}` }, s.summary);
    }
    return el("li", { "data-kind": s.kind, "data-at": s.at || "" },
      el("span", { class: "at" }, s.at ? fmtTime(s.at) : "—"), " ",
      el("strong", { class: "kind" }, (TRAIL_KINDS[s.kind] || (() => s.kind))()), " ",
      where ? [el("span", { class: "where" }, where), " "] : null,
      summary ? el("span", { class: "summary" }, summary) : null,
      Object.keys(d).length ? el("details", {}, el("summary", {}, t("Details")), jsonTree(d)) : null);
  }));
}

function auditTable(entries, id) {
  if (!entries.length) return el("p", { class: "muted", id }, t("No audit rows."));
  return el("table", { id },
    el("thead", {}, el("tr", {}, [t("Id"), t("At"), t("Actor"), t("Action"), t("Target"), t("Affected"), t("Outcome"), t("Reason")].map((h) => el("th", {}, h)))),
    el("tbody", {}, entries.map((a) => el("tr", {}, el("td", { class: "num" }, a.id), el("td", {}, fmtTime(a.at)), el("td", { class: "actor" }, a.actor),
      el("td", { class: "action" }, a.action), el("td", {}, `${a.target_kind} ${(a.target_ids || []).slice(0, 5).join(", ")}${(a.target_ids || []).length > 5 ? "…" : ""}`),
      el("td", { class: "num" }, a.affected_count), el("td", {}, a.outcome), el("td", {}, a.reason)))));
}

// ---- Failure groups -------------------------------------------------------------------------
async function groupsView(v, _, params) {
  const status = params.get("status") || "FAILED";
  const data = await get(`/api/v1/failure-groups${query({ status })}`);
  const select = el("select", { id: "groups-status", onchange: (e) => go("/groups", { status: e.target.value }) },
    ["FAILED", "DEAD", "PENDING,SENDING,FAILED,DEAD"].map((s) => el("option", { value: s }, s)));
  select.value = status;
  const table = el("table", { id: "groups" },
    el("thead", {}, el("tr", {}, [t("Events"), t("Error class"), t("Fingerprint"), t("Example"), ""].map((h) => el("th", {}, h)))),
    el("tbody", {}, data.groups.map((g) => {
      const target = { group: { error_class: g.error_class, fingerprint: g.fingerprint } };
      return el("tr", { "data-fingerprint": g.fingerprint },
        el("td", { class: "num" }, g.count.toLocaleString()), el("td", {}, g.error_class), el("td", { class: "err", title: g.fingerprint }, g.fingerprint),
        el("td", { class: "err", title: g.example }, g.example),
        el("td", {}, el("a", { href: `#/event/${g.first_id}` }, t("first event")), " ",
          me.may_change ? [el("button", { type: "button", class: "act-requeue-group", onclick: () => openAction({ kind: "requeue", target, onDone: render }) }, t("Requeue group…")), " ",
            el("button", { type: "button", class: "act-dead-group", onclick: () => openAction({ kind: "dead", target, onDone: render }) }, t("Mark group DEAD…"))] : null));
    })));
  fill(v, el("h1", {}, t("Failure groups")), el("div", { class: "toolbar" }, el("label", { for: "groups-status" }, t("Statuses "), select)),
    data.groups.length ? table : el("p", { class: "muted", id: "groups-empty" }, t("No failure groups.")));
}

// ---- Blocked aggregates ----------------------------------------------------------------------
// In ordering mode a FAILED event holds back the later events of its aggregate
// (GET /api/v1/events/blocked, as `outboxctl events blocked` and the desktop's Blocked page); the
// runbook of the blocked-aggregates finding points here. Each row: the whole aggregate name (never
// cut), the blocking event and the operator's requeue / mark DEAD of it with their consequences.
async function blockedView(v) {
  const data = await get(`/api/v1/events/blocked${query({ limit: 200 })}`);
  const rows = data.aggregates || [];
  const table = el("table", { id: "blocked" },
    el("thead", {}, el("tr", {}, [t("Aggregate"), t("Blocking event"), t("Attempts"), t("Blocked since"), t("Waiting"), t("Error"), ""].map((h) => el("th", {}, h)))),
    el("tbody", {}, rows.map((b) => el("tr", { "data-id": b.blocking_id },
      el("td", { class: "aggregate" }, `${b.aggregate_type}/${b.aggregate_id}`),
      el("td", { class: "num" }, el("a", { class: "blocked-event", href: `#/event/${b.blocking_id}` }, b.blocking_id)),
      el("td", { class: "num" }, b.attempts), el("td", {}, fmtTime(b.since)),
      el("td", { class: "num" }, b.waiting < 0 ? t("not counted") : b.waiting.toLocaleString()),
      el("td", { class: "err", title: b.error || "" }, b.error || ""),
      el("td", {}, me.may_change ? [
        el("button", { type: "button", class: "act-requeue-blocking", onclick: () => openAction({ kind: "requeue", target: { ids: [b.blocking_id] }, onDone: render }) }, t("Requeue…")), " ",
        el("button", { type: "button", class: "act-dead-blocking", onclick: () => openAction({ kind: "dead", target: { ids: [b.blocking_id] }, onDone: render }) }, t("Mark DEAD…"))] : null)))));
  fill(v, el("h1", {}, t("Blocked aggregates")),
    el("p", { class: "muted" }, t("In ordering mode the later events of an aggregate wait for its FAILED event; requeue it or mark it DEAD to let them go.")),
    rows.length ? table : el("p", { class: "muted", id: "blocked-empty" }, t("No aggregate is blocked.")),
    rows.length ? el("p", { class: "muted", id: "blocked-total" }, data.at_least ? t("At least %1 blocked aggregate(s).", data.total) : t("%1 blocked aggregate(s).", data.total)) : null);
}

// ---- Dead letters ---------------------------------------------------------------------------
async function lettersView(v, _, params) {
  const fields = searchFields("dead_letters");
  const filter = valuesOf(params, fields.map((f) => f.name));
  const page = await get(`/api/v1/dead-letters${query({ ...filter, limit: PAGE, after_id: params.get("after") })}`);
  const table = el("table", { id: "letters" },
    el("thead", {}, el("tr", {}, el("th", {}, me.may_change ? selectAllBox("letters") : ""), [t("Id"), t("Consumer"), t("Topic"), t("Event id"), t("Status"), t("Attempts"), t("Last failed"), t("Error")].map((h) => el("th", {}, h)))),
    el("tbody", {}, page.dead_letters.map((l) => el("tr", { "data-id": l.id },
      el("td", {}, me.may_change ? el("input", { type: "checkbox", class: "pick", value: l.id, "aria-label": t("Select %1", l.id) }) : ""),
      el("td", { class: "num" }, el("a", { href: `#/dead-letter/${l.id}` }, l.id)), el("td", {}, l.consumer_name), el("td", {}, l.topic),
      el("td", {}, l.event_id || ""), statusCell(l.status), el("td", { class: "num" }, l.attempts), el("td", {}, fmtTime(l.last_failed_at)),
      el("td", { class: "err", title: l.error }, l.error)))));
  const actions = me.may_change ? el("div", { class: "toolbar", id: "letter-actions" },
    el("button", { type: "button", id: "act-replay-selected", onclick: () => { const ids = selection(table); if (!ids.length) return alertBox(t("Select rows first (the boxes in the first column).")); openAction({ kind: "replay", target: { ids }, onDone: render }); } }, t("Replay selected…")),
    el("button", { type: "button", id: "act-discard-selected", onclick: () => { const ids = selection(table); if (!ids.length) return alertBox(t("Select rows first (the boxes in the first column).")); openAction({ kind: "discard", target: { ids }, onDone: render }); } }, t("Discard selected…")),
    el("span", { class: "spacer" }),
    el("button", { type: "button", id: "act-replay-filter", disabled: !Object.keys(filter).length, onclick: () => openAction({ kind: "replay", target: { filter }, onDone: render }) }, t("Replay all matching…")),
    el("button", { type: "button", id: "act-discard-filter", disabled: !Object.keys(filter).length, onclick: () => openAction({ kind: "discard", target: { filter }, onDone: render }) }, t("Discard all matching…"))) : null;
  fill(v, el("h1", {}, t("Dead letters")),
    filterForm("letter-filter", fields, params, (values) => go("/dead-letters", values)),
    actions, table, page.dead_letters.length ? null : el("p", { class: "muted" }, t("No dead letter matches.")),
    pager("letters-pager", params, page.next_after_id, { path: "/dead-letters", params: filter }));
}

// ---- Dead-letter groups ---------------------------------------------------------------------
// GET /api/v1/dead-letters/groups (as `outboxctl dlq groups` and the desktop's Dead-letter groups):
// one row per consumer, error class and fingerprint; Replay… and Discard… act on exactly that group
// (the body's `group`, never an error substring, which would also take other groups sharing it).
async function letterGroupsView(v, _, params) {
  const status = params.get("status") || "NEW";
  const consumer = params.get("consumer") || "";
  const data = await get(`/api/v1/dead-letters/groups${query({ status, consumer })}`);
  // Each status a group is counted over, then all of them.
  const statuses = choicesOf("dead_letter_groups", "status");
  const select = el("select", { id: "dl-groups-status", onchange: (e) => go("/dl-groups", { status: e.target.value, consumer }) },
    [...statuses, statuses.join(",")].map((s) => el("option", { value: s }, s.split(",").map((x) => t(x)).join(", "))));
  select.value = status;
  const consumerInput = el("input", { id: "dl-groups-consumer", name: "consumer", size: 14, value: consumer });
  const form = el("form", { id: "dl-groups-filter", class: "filters" },
    el("label", { for: "dl-groups-status" }, t("Statuses "), select),
    el("label", { for: "dl-groups-consumer" }, t("Consumer"), consumerInput),
    el("button", { type: "submit", class: "primary", id: "dl-groups-apply" }, t("Apply")));
  form.addEventListener("submit", (e) => { e.preventDefault(); go("/dl-groups", { status, consumer: consumerInput.value.trim() }); });
  const groups = data.groups || [];
  const table = el("table", { id: "dl-groups" },
    el("thead", {}, el("tr", {}, [t("Dead letters"), t("Consumer"), t("Error class"), t("Fingerprint"), t("Example"), t("Statuses"), ""].map((h) => el("th", {}, h)))),
    el("tbody", {}, groups.map((g) => {
      const target = { group: { consumer: g.consumer, error_class: g.error_class, fingerprint: g.fingerprint, statuses: g.statuses } };
      return el("tr", { "data-consumer": g.consumer, "data-fingerprint": g.fingerprint },
        el("td", { class: "num" }, g.count.toLocaleString()), el("td", { class: "consumer" }, g.consumer), el("td", {}, g.error_class),
        el("td", { class: "err", title: g.fingerprint }, g.fingerprint), el("td", { class: "err", title: g.example }, g.example),
        el("td", {}, (g.statuses || []).map((s) => t(s)).join(", ")),
        el("td", {}, el("a", { href: `#/dead-letter/${encodeURIComponent(g.first_id)}` }, t("first dead letter")), " ",
          me.may_change ? [el("button", { type: "button", class: "act-replay-group", onclick: () => openAction({ kind: "replay", target, onDone: render }) }, t("Replay group…")), " ",
            el("button", { type: "button", class: "act-discard-group", onclick: () => openAction({ kind: "discard", target, onDone: render }) }, t("Discard group…")),
            (g.statuses || ["NEW"]).join(",") === "NEW" ? [" ", el("button", { type: "button", class: "act-edit-group", onclick: () => openGroupEdit({ group: g, onDone: render }) }, t("Edit group…"))] : null] : null));
    })));
  fill(v, el("h1", {}, t("Dead-letter groups")), form,
    groups.length ? table : el("p", { class: "muted", id: "dl-groups-empty" }, t("No dead-letter groups.")));
}

async function letterView(v, [id]) {
  const l = await get(`/api/v1/dead-letters/${encodeURIComponent(id)}`);
  const history = await get(`/api/v1/audit${query({ target_kind: "dead_letter", target_id: l.id, limit: 100 })}`);
  let payload = l.payload;
  try { payload = JSON.parse(l.payload); } catch (_) { /* shown as text */ }
  // Only a NEW dead letter with a text payload can be edited (as in the desktop and `outboxctl dlq edit`).
  const editable = l.status === "NEW" && !l.payload_is_binary && typeof l.payload === "string";
  const actions = me.may_change ? el("div", { class: "toolbar" },
    el("button", { type: "button", id: "act-replay-one", onclick: () => openAction({ kind: "replay", target: { ids: [l.id] }, onDone: render }) }, t("Replay…")),
    el("button", { type: "button", id: "act-discard-one", onclick: () => openAction({ kind: "discard", target: { ids: [l.id] }, onDone: render }) }, t("Discard…")),
    el("button", { type: "button", id: "act-edit-one", disabled: !editable, title: editable ? "" : t("Only a NEW dead letter with a text payload can be edited."),
      onclick: () => openLetterEdit({ letter: l, onDone: render }) }, t("Edit…"))) : null;
  // Live: the letter is read again (at most every 2 s, on the pushed snapshots or a 5 s timer) and
  // the page redrawn when it changed (replayed, discarded, edited elsewhere); with a dialog open it
  // says so instead of pulling the page from under the operator.
  const version = (x) => JSON.stringify([x.status, x.edit_count, x.attempts, x.replayed_at, x.last_failed_at, x.payload, x.headers]);
  const seen = version(l);
  const changed = el("div", { class: "notice", id: "letter-changed", hidden: true },
    t("This dead letter changed since the page was drawn. "), el("button", { type: "button", onclick: render }, t("Refresh")));
  let lastRead = performance.now();
  let reading = false;
  let gone = false;
  const check = async () => {
    if (gone || reading || performance.now() - lastRead < 2000) return;
    reading = true;
    try {
      const now = await get(`/api/v1/dead-letters/${encodeURIComponent(l.id)}`);
      if (!gone && version(now) !== seen) {
        if (document.getElementById("action-dialog").open) changed.hidden = false;
        else render();
      }
    } catch (_) { /* a failed read is retried on the next tick */ }
    lastRead = performance.now();
    reading = false;
  };
  const timer = setInterval(check, 5000);
  const unlisten = live.on((kind) => { if (kind === "snapshot") check(); });
  cleanup.push(() => { gone = true; clearInterval(timer); unlisten(); });
  fill(v, el("h1", {}, t("Dead letter %1", l.id), " ", el("span", { class: `status-${l.status}` }, t(l.status))),
    changed,
    el("p", {}, el("a", { href: "#/dead-letters" }, t("← Dead letters")), l.event_id ? [" · ", el("a", { href: `#/event/${encodeURIComponent(l.event_id)}` }, t("the outbox event"))] : null),
    actions,
    el("dl", { class: "fields", id: "letter-fields" }, Object.entries(l).filter(([k]) => k !== "payload" && k !== "headers").map(([k, val]) => [el("dt", {}, k), el("dd", { "data-field": k }, val === null ? "—" : String(val))])),
    el("h2", {}, t("Payload")), el("div", { class: "tree", id: "payload-tree" }, typeof payload === "string" ? el("pre", {}, payload) : jsonTree(payload)),
    el("h2", {}, t("Headers")), el("div", { class: "tree", id: "headers-tree" }, jsonTree(l.headers)),
    el("details", {}, el("summary", {}, t("Raw JSON")), el("pre", {}, JSON.stringify(l, null, 2))),
    el("h2", {}, t("Audit history")), auditTable(history.entries, "letter-audit"));
}

// ---- Audit ----------------------------------------------------------------------------------
const AUDIT_FILTERS = ["since", "action", "actor", "target_kind", "target_id"];

async function auditView(v, _, params) {
  const filter = valuesOf(params, AUDIT_FILTERS);
  const page = await get(`/api/v1/audit${query({ ...filter, limit: PAGE, after_id: params.get("after") })}`);
  const exportAll = async (format) => {
    // Every row of the filter, page by page (at most 10 pages of 1,000). The CSV comes from the
    // server (core's AuditCsv: the same cells as the desktop console's, never a formula).
    const parts = [];
    let pages = 0;
    let after = "";
    do {
      if (format === "csv") {
        const r = await apiText(`/api/v1/audit${query({ ...filter, limit: 1000, after_id: after, format: "csv" })}`);
        parts.push(r.text);
        after = r.headers.get("X-Next-After-Id") || "";
        if (after === "0") after = "";
      } else {
        const p = await get(`/api/v1/audit${query({ ...filter, limit: 1000, after_id: after })}`);
        parts.push(...p.entries);
        after = p.next_after_id || "";
      }
    } while (after && ++pages < 10);
    if (format === "csv") download("outbox-audit.csv", "text/csv", parts.join(""));
    else download("outbox-audit.json", "application/json", JSON.stringify(parts, null, 2));
  };
  fill(v, el("h1", {}, t("Audit log")),
    filterForm("audit-filter", [
      { name: "since", label: t("Since"), placeholder: "2026-01-31T00:00:00Z", size: 20 }, { name: "action", label: t("Action"), placeholder: "events.requeue" },
      { name: "actor", label: t("Actor") }, { name: "target_kind", label: t("Target kind"), options: ["event", "dead_letter", "relay"] },
      { name: "target_id", label: t("Target id"), size: 8 }], params, (values) => go("/audit", values)),
    el("div", { class: "toolbar" }, el("button", { type: "button", id: "audit-csv", onclick: () => exportAll("csv") }, t("Export CSV")),
      el("button", { type: "button", id: "audit-json", onclick: () => exportAll("json") }, t("Export JSON"))),
    auditTable(page.entries, "audit"),
    pager("audit-pager", params, page.next_after_id, { path: "/audit", params: filter }));
}

// ---- Relays ---------------------------------------------------------------------------------
const FORGET_AFTER_S = 60;

async function relaysView(v) {
  const box = el("div", { id: "relays-box" }, el("p", { class: "muted" }, t("Waiting for the first sample…")));
  // Rows are kept per worker and their cells updated in place: snapshots come every few seconds,
  // and a row rebuilt between the press and the release of a click swallowed the click (a
  // checkbox, a Forget… button), as the fleet wall's tiles and the Recovery cards once did.
  const rows = new Map(); // worker id -> { tr, cells, forget }
  let table = null;
  let tbody = null;
  const none = el("p", { class: "muted", id: "relays-none" }, t("No relay is registered."));
  const sampled = el("p", { class: "muted", id: "relays-sampled" });
  const setText = (cell, text) => { const s = String(text); if (cell.textContent !== s) cell.textContent = s; };
  const row = (r) => {
    let kept = rows.get(r.worker_id);
    if (kept) return kept;
    const cells = {};
    const td = (name, cls) => (cells[name] = el("td", cls ? { class: cls } : {}));
    const tr = el("tr", { "data-worker": r.worker_id },
      el("td", {}, me.may_change ? el("input", { type: "checkbox", class: "pick", value: r.worker_id, "aria-label": t("Select %1", r.worker_id) }) : ""),
      el("td", {}, r.worker_id), td("state", "relay-state"), td("desired"), td("broker", "relay-broker"), td("wakeup"),
      td("heartbeat"), td("age", "num"), td("sending", "num"), td("expired", "num"), td("sent", "num"), td("failed", "num"),
      td("forget"));
    kept = { tr, cells, forget: null };
    rows.set(r.worker_id, kept);
    return kept;
  };
  const draw = () => {
    const s = live.snapshot;
    if (!s) return;
    const leases = new Map((s.lease_holders || []).map((h) => [h.worker_id, h]));
    if (!table) {
      tbody = el("tbody");
      table = el("table", { id: "relays" },
        el("thead", {}, el("tr", {}, el("th", {}, ""), [t("Worker"), t("State"), t("Desired"), t("Broker"), t("Wake-up"), t("Last heartbeat"), t("Heartbeat age"), t("Leases (SENDING)"), t("Expired leases"), t("Sent"), t("Failed"), ""].map((h) => el("th", {}, h)))),
        tbody);
      fill(box, table, none, sampled);
    }
    const relays = s.relays || [];
    relays.forEach((r, i) => {
      const kept = row(r);
      const c = kept.cells;
      const h = leases.get(r.worker_id) || {};
      const age = r.heartbeat_age_ms === undefined ? null : r.heartbeat_age_ms / 1000;
      setText(c.state, r.state || "");
      setText(c.desired, r.desired_state || "");
      setText(c.broker, r.broker || "");
      setText(c.wakeup, r.wakeup || "");
      setText(c.heartbeat, fmtTime(r.heartbeat_at));
      setText(c.age, age === null ? "" : `${age.toFixed(0)} s`);
      setText(c.sending, h.sending ?? 0);
      setText(c.expired, h.expired ?? 0);
      setText(c.sent, r.sent_total ?? "");
      setText(c.failed, r.failed_total ?? "");
      // A relay silent for longer than forgetting needs (60 s, as `outboxctl relays forget`)
      // can be forgotten from its row; the server refuses a relay that is alive after all.
      const forgettable = me.may_change && age !== null && age > FORGET_AFTER_S;
      if (forgettable && !kept.forget) {
        kept.forget = el("button", { type: "button", class: "relay-forget-one", onclick: () => openRelayControl("forget", [r.worker_id]) }, t("Forget…"));
        c.forget.append(kept.forget);
      } else if (!forgettable && kept.forget) {
        kept.forget.remove();
        kept.forget = null;
      }
      if (tbody.children[i] !== kept.tr) tbody.insertBefore(kept.tr, tbody.children[i] || null);
    });
    const shown = new Set(relays.map((r) => r.worker_id));
    for (const [worker, kept] of rows)
      if (!shown.has(worker)) { kept.tr.remove(); rows.delete(worker); }
    none.hidden = relays.length > 0;
    setText(sampled, t("Sampled at %1", fmtTime(s.taken_at)));
    box.dataset.draws = String(Number(box.dataset.draws || 0) + 1);
  };
  const picked = () => [...box.querySelectorAll("input.pick:checked")].map((c) => c.value);
  const command = (c) => { const w = picked(); if (!w.length) return alertBox(t("Select relays first.")); openRelayControl(c, w); };
  fill(v, el("h1", {}, t("Relays")),
    me.may_change ? el("div", { class: "toolbar" }, ["pause", "resume", "drain", "forget"].map((c) =>
      el("button", { type: "button", id: `relay-${c}`, onclick: () => command(c) }, { pause: t("Pause…"), resume: t("Resume…"), drain: t("Drain…"), forget: t("Forget…") }[c]))) : null,
    box);
  draw();
  cleanup.push(live.on((kind) => { if (kind === "snapshot") draw(); }));
}

// ---- Recovery -------------------------------------------------------------------------------
async function recoveryView(v) {
  const box = el("div", { id: "findings", class: "cards" });
  // A card whose finding did not change between two doctor runs stays the same element: runs
  // come every few seconds, and a card rebuilt between the press and the release of a click
  // swallowed the click (and an operator's text selection with it).
  let cards = new Map(); // finding id and key -> { sig, node }
  const draw = (report) => {
    const findings = report.findings || [];
    if (!findings.length) {
      cards = new Map();
      fill(box, el("p", { class: "muted", id: "findings-none" }, t("The doctor found nothing to do.")));
      return;
    }
    const next = new Map();
    const nodes = findings.map((f) => {
      const key = `${f.id}\u0000${f.key}`;
      const sig = JSON.stringify(f);
      const old = cards.get(key);
      const node = old && old.sig === sig ? old.node : findingCard(f);
      next.set(key, { sig, node });
      return node;
    });
    cards = next;
    nodes.forEach((node, i) => { if (box.children[i] !== node) box.insertBefore(node, box.children[i] || null); });
    while (box.children.length > nodes.length) box.lastElementChild.remove();
  };
  const load = async () => {
    try {
      draw(await get("/api/v1/findings"));
    } catch (e) {
      if (e.status !== 503) throw e;
      fill(box, el("p", { class: "muted" }, e.message)); // the first run is under way
    }
  };
  await load();
  // The server pushes a note after every doctor run; the full findings (masked for this token) follow.
  cleanup.push(live.on((kind) => { if (kind === "findings") load().catch((e) => fill(box, errorBox(e))); }));
  fill(v, el("h1", {}, t("Recovery")), el("p", { class: "muted" }, t("The doctor's findings, newest run; each with its runbook and prepared actions.")), box);
}

// The finding's sample rows, each a link to its view (events, dead letters; relays on the Relays view).
function sampleLinks(f) {
  const e = f.evidence || {};
  const samples = e.samples || [];
  const href = { event: (id) => `#/event/${encodeURIComponent(id)}`, dead_letter: (id) => `#/dead-letter/${encodeURIComponent(id)}`,
                 relay: () => "#/relays" }[e.sample_kind];
  if (!samples.length || !href) return null;
  const label = { event: t("Sample events:"), dead_letter: t("Sample dead letters:"), relay: t("Sample relays:") }[e.sample_kind];
  return el("p", { class: "samples" }, label, " ",
    samples.map((id, i) => [i ? ", " : "", el("a", { class: "finding-sample", "data-sample": String(id), href: href(id) }, String(id))]));
}

function findingCard(f) {
  // Every audited action is previewed and run by the server (core's PreparedActionRunner); a
  // command line is shown to copy.
  const actions = (f.actions || []).map((a, index) => {
    // A dead-letter group's payload repair (a command for the CLI) opens the group edit, as the
    // Dead-letter groups view's Edit group… does.
    const repair = a.operation === "command" && a.target && a.target.failure_group && a.target.failure_group.consumer;
    const button = !me.may_change ? null
      : repair ? el("button", { type: "button", class: "act-repair-group", onclick: () => openGroupEdit({ group: { ...a.target.failure_group, count: f.evidence ? f.evidence.count : "" }, onDone: render }) }, `${tc(a.label)}…`)
      : a.operation !== "command" ? el("button", { type: "button", class: "act-prepared", onclick: () => openPreparedAction({ finding: f, index, action: a, onDone: render }) }, `${tc(a.label)}…`)
      : null;
    return el("li", {}, button || el("strong", {}, tc(a.label)), a.consequence ? ` — ${tc(a.consequence)}` : "", a.command ? [" ", el("code", {}, a.command)] : null);
  });
  const runbook = f.runbook || [];
  return el("div", { class: "card", "data-id": f.id, "data-key": f.key },
    el("h3", {}, el("span", { class: `sev-${f.severity}` }, t(f.severity)), " ", tc(f.title)),
    (f.causes || []).length ? el("p", {}, f.causes.map((c) => tc(c)).join(" ")) : null,
    f.evidence ? el("p", { class: "muted" }, t("%1 %2", f.evidence.count ?? "", tc(f.evidence.unit ?? "")), f.evidence.oldest ? ` · ${t("oldest %1", fmtTime(f.evidence.oldest))}` : "", f.evidence.payload ? ` · ${tc(f.evidence.payload)}` : "") : null,
    sampleLinks(f),
    f.id === "blocked-aggregates" ? el("p", {}, el("a", { class: "finding-blocked", href: "#/blocked" }, t("Open the Blocked view"))) : null,
    runbook.length ? [el("h4", {}, t("Runbook")), el("ol", {}, runbook.map((step) => el("li", {}, tc(step))))] : null,
    actions.length ? [el("h4", {}, t("Prepared actions")), el("ul", {}, actions)] : null);
}

// ---- start ----------------------------------------------------------------------------------
async function main() {
  // First of all: a token in the address is taken and the page reloads itself without it.
  if (takeTokenFromFragment()) return;
  if (!location.hash) history.replaceState(null, "", location.pathname + location.search + "#/events");
  await loadLanguage();
  translateStatic(document);
  document.title = t("Outbox Console");
  live.on((kind) => { if (kind === "snapshot") renderCounts(); });
  window.addEventListener("hashchange", () => {
    if (takeTokenFromFragment()) return;
    if (me) render();
  });
  // Keyboard: "/" jumps to the first filter field of the view, Escape leaves it.
  document.addEventListener("keydown", (e) => {
    if (e.key === "/" && !/INPUT|TEXTAREA|SELECT/.test(document.activeElement.tagName)) {
      const f = document.querySelector("#view form.filters input, #view form.filters select");
      if (f) { e.preventDefault(); f.focus(); }
    }
  });
  // With an identity provider: its sign-in (a redirect there and back when this page has no token).
  try {
    if (signIn && (await signIn.begin()).oidc) return await start();
  } catch (e) {
    return showSignInError(e.message);
  }
  if (!token()) return showSignIn();
  await start();
}

// The identity provider's sign-in failed: say why, offer to try again.
function showSignInError(message) {
  live.close();
  document.getElementById("nav").hidden = true;
  view().replaceChildren(el("div", { id: "signin" },
    el("h1", {}, t("Sign in")), errorBox(message),
    el("button", { id: "signin-again", class: "primary", type: "button", onclick: () => location.reload() },
       t("Sign in again"))));
  view().dataset.view = "signin";
  markReady(view());
}

main();
