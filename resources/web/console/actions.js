// The one path of every change made from the web console, as in the desktop console:
// target → preview (a dry run through the API: count and sample) → reason (required) → typed
// confirmation for bulk work → the action (a job with live progress and cancel when it takes more
// than one chunk) → the result with its conflicts. The server audits each chunk under the
// token's owner.
import { api, el, errorBox, fill, live, t, tc } from "./lib.js";

const MAX_DIFF_CELLS = 4000000; // lines × lines compared exactly; beyond that the changed middle as a whole

const ENDPOINTS = {
  requeue: "/api/v1/events/requeue",
  dead: "/api/v1/events/dead",
  replay: "/api/v1/dead-letters/replay",
  discard: "/api/v1/dead-letters/discard",
};

function titleOf(kind) {
  return { requeue: t("Requeue events"), dead: t("Mark events DEAD"), replay: t("Replay dead letters"),
           discard: t("Discard dead letters") }[kind];
}

function targetText(target) {
  if (target.ids) return t("%1 selected row(s)", target.ids.length);
  if (target.group && target.group.consumer !== undefined)
    return t("dead-letter group of %1: %2 / %3", target.group.consumer, target.group.error_class || "-", target.group.fingerprint || "-");
  if (target.group) return t("failure group %1 / %2", target.group.error_class || "-", target.group.fingerprint || "-");
  return t("every row matching the filter %1", JSON.stringify(target.filter));
}

function sampleTable(rows) {
  if (!rows || !rows.length) return el("p", { class: "muted" }, t("no sample rows"));
  return el("div", { class: "sample" }, el("table", { id: "action-sample" },
    el("thead", {}, el("tr", {}, [t("Id"), t("Status"), t("Type / consumer"), t("Aggregate / topic"), t("Error")].map((h) => el("th", {}, h)))),
    el("tbody", {}, rows.map((r) => el("tr", {},
      el("td", { class: "num" }, r.id), el("td", { class: `status-${r.status}` }, r.status),
      el("td", {}, r.event_type || r.consumer_name || ""), el("td", {}, r.aggregate_id || r.topic || ""),
      el("td", { class: "err" }, r.last_error || r.error || ""))))));
}

// What the action means for ordering (the preview's `ordering`, as the desktop's preview says it):
// the later PENDING events of each aggregate wait for the targeted event until it is sent again or
// made DEAD. The aggregate ids are the database's text (text nodes only).
function consequencesView(preview) {
  const markDead = preview.action === "events.dead";
  const ordering = preview.ordering || [];
  const sentences = ordering.length
    ? ordering.map((c) => markDead
      ? t("Event #%1 will never be sent: %2 later event(s) of %3 will be sent without it (in ordering mode they wait for it until then).", c.id, c.waiting, `${c.aggregate_type}/${c.aggregate_id}`)
      : t("Event #%1 is sent again first: %2 later event(s) of %3 will be sent after it (in ordering mode they wait for it until then).", c.id, c.waiting, `${c.aggregate_type}/${c.aggregate_id}`))
    : (preview.consequences || []).map(String);
  if (!sentences.length) return null;
  const shown = sentences.slice(0, 20);
  return el("div", { id: "action-consequences", class: "notice" }, el("strong", {}, t("Ordering consequences")),
    el("ul", {}, shown.map((line) => el("li", {}, line))),
    sentences.length > shown.length ? el("p", { class: "muted" }, t("… and %1 more.", sentences.length - shown.length)) : null);
}

function resultView(result) {
  const conflicts = result.conflicts || [];
  return el("div", { id: "action-result" },
    el("p", {}, el("strong", { id: "action-affected" }, t("%1 row(s) changed", result.affected ?? 0)),
      result.cancelled ? ` — ${t("cancelled: the rows after the last chunk were left untouched")}` : ""),
    el("p", {}, t("%1 conflict(s): rows another relay or operator changed first, left alone.", result.conflict_count ?? conflicts.length)),
    conflicts.length ? el("table", { id: "action-conflicts" }, el("thead", {}, el("tr", {}, el("th", {}, t("Id")), el("th", {}, t("Status")), el("th", {}, t("Why")))),
      el("tbody", {}, conflicts.slice(0, 100).map((c) => el("tr", {}, el("td", {}, c.id), el("td", {}, c.status ?? ""), el("td", {}, c.reason))))) : null,
    result.replay_token ? el("p", {}, t("Replay token: %1", result.replay_token)) : null,
    el("p", { class: "muted" }, t("Audit rows: %1", (result.audit_ids || (result.audit_id ? [result.audit_id] : [])).join(", ") || "-")));
}

// The page behind an action's dialog reads its rows again as soon as the action has finished, with
// the result left open: it showed the old rows behind the result until the dialog was closed (issue
// 36). now() refreshes once; a dialog closed after a finish without one (a 409) refreshes then.
function pageBehind(onDone) {
  let refreshed = false;
  return { now() { if (!refreshed && onDone) { refreshed = true; onDone({ keepDialog: true }); } } };
}

// spec: {kind, target: {ids}|{group}|{filter}, toTopic, onDone}
export async function openAction(spec) {
  const dialog = document.getElementById("action-dialog");
  const body = el("div", { id: "action-body" }, el("p", {}, t("Previewing…")));
  const closeButton = el("button", { id: "action-close", type: "button", onclick: () => dialog.close() }, t("Close"));
  fill(dialog, el("h2", { id: "action-title" }, titleOf(spec.kind)), el("p", { class: "muted" }, targetText(spec.target)), body,
    el("div", { class: "toolbar" }, el("span", { class: "spacer" }), closeButton));
  let finished = false;
  const behind = pageBehind(spec.onDone);
  dialog.onclose = () => { if (finished) behind.now(); };
  if (!dialog.open) dialog.showModal();

  const request = (extra) => {
    const b = { ...spec.target, ...extra };
    if (spec.kind === "replay" && topicInput && topicInput.value.trim()) b.to_topic = topicInput.value.trim();
    return api("POST", ENDPOINTS[spec.kind], b);
  };
  let topicInput = null;
  let preview;
  try {
    preview = (await request({ dry_run: true })).data;
  } catch (e) {
    fill(body, errorBox(e));
    return;
  }

  // Core decides the phrase to type (empty: none) and whether the run is a job; the page shows them.
  const matched = preview.matched ?? 0;
  const phrase = preview.confirmation || "";
  const skipped = Object.entries(preview.skipped || {}).map(([s, n]) => t("%1 %2 row(s) match but are not eligible.", n, s)).join(" ");
  const reason = el("textarea", { id: "action-reason", required: true, maxlength: 2000, "aria-required": "true" });
  const confirm = phrase ? el("input", { id: "action-confirm", autocomplete: "off", placeholder: phrase }) : null;
  if (spec.kind === "replay")
    topicInput = el("input", { id: "action-topic", value: spec.toTopic || "", pattern: "[A-Za-z0-9._-]*", placeholder: t("the original topic") });
  const run = el("button", { id: "action-run", class: "danger", type: "button", disabled: true }, t("Run"));
  const update = () => {
    run.disabled = matched === 0 || !reason.value.trim() || (confirm && confirm.value.trim() !== phrase) ||
      (topicInput && !topicInput.checkValidity());
  };
  for (const i of [reason, confirm, topicInput]) if (i) i.addEventListener("input", update);
  fill(body, 
    el("p", { id: "action-summary" }, el("strong", { id: "action-count" }, t("%1 row(s) will be changed.", matched)), " ",
      preview.conflict_count ? t("%1 targeted row(s) are in another state and will be left alone.", preview.conflict_count) : "", " ", skipped,
      preview.job ? ` ${t("It runs in chunks of %1 rows, each its own audited transaction; Cancel stops it between chunks.", 1000)}` : ""),
    consequencesView(preview),
    sampleTable(preview.sample),
    topicInput ? el("div", { class: "row" }, el("label", { for: "action-topic" }, t("Replay to topic (empty: the original topic)")), topicInput) : null,
    el("div", { class: "row" }, el("label", { for: "action-reason" }, t("Reason (required, kept in the audit log)")), reason),
    confirm ? el("div", { class: "row" }, el("label", { for: "action-confirm" }, t("Type \"%1\" to confirm:", phrase)), confirm) : null,
    el("div", { class: "toolbar" }, run));
  reason.focus();

  run.addEventListener("click", async () => {
    run.disabled = true;
    reason.disabled = true;
    if (confirm) confirm.disabled = true;
    let reply;
    try {
      reply = await request({ reason: reason.value.trim() });
    } catch (e) {
      body.append(errorBox(e));
      return;
    }
    finished = true;
    if (reply.status === 202 && reply.data && reply.data.href) await followJob(reply.data, body, spec.kind);
    else fill(body, resultView(reply.data, spec.kind));
    behind.now();
    closeButton.focus();
  });
}

// A doctor finding's prepared action: previewed and run by the server through core (the same
// runner as the desktop's Recovery), taken by finding id, key and the action's index — the page
// never maps an operation to an action of its own. Preview → reason → the typed confirmation the
// preview asks for (bulk work, or when the doctor asks for it) → the audited run with the previewed count → the result.
// spec: {finding: {id, key}, index, action, onDone}
export async function openPreparedAction(spec) {
  const dialog = document.getElementById("action-dialog");
  const path = `/api/v1/findings/${encodeURIComponent(spec.finding.id)}/actions/${spec.index}`;
  const body = el("div", { id: "action-body" }, el("p", {}, t("Previewing…")));
  const closeButton = el("button", { id: "action-close", type: "button", onclick: () => dialog.close() }, t("Close"));
  fill(dialog, el("h2", { id: "action-title" }, tc(spec.action.label)), spec.action.consequence ? el("p", { class: "muted" }, tc(spec.action.consequence)) : null, body,
    el("div", { class: "toolbar" }, el("span", { class: "spacer" }), closeButton));
  let finished = false;
  const behind = pageBehind(spec.onDone);
  dialog.onclose = () => { if (finished) behind.now(); };
  if (!dialog.open) dialog.showModal();
  let preview;
  try {
    preview = (await api("POST", path, { key: spec.finding.key, dry_run: true })).data;
  } catch (e) {
    fill(body, errorBox(e));
    return;
  }
  const matched = preview.matched ?? 0;
  const phrase = preview.confirmation || "";
  const reason = el("textarea", { id: "action-reason", required: true, maxlength: 2000, "aria-required": "true" });
  const confirm = phrase ? el("input", { id: "action-confirm", autocomplete: "off", placeholder: phrase }) : null;
  const run = el("button", { id: "action-run", class: "danger", type: "button", disabled: true }, t("Run"));
  const update = () => { run.disabled = matched === 0 || !reason.value.trim() || (confirm && confirm.value.trim() !== phrase); };
  for (const i of [reason, confirm]) if (i) i.addEventListener("input", update);
  fill(body,
    el("p", { id: "action-summary" }, el("strong", { id: "action-count" }, t("%1 row(s) will be changed.", matched))),
    consequencesView(preview),
    sampleTable(preview.sample),
    el("div", { class: "row" }, el("label", { for: "action-reason" }, t("Reason (required, kept in the audit log)")), reason),
    confirm ? el("div", { class: "row" }, el("label", { for: "action-confirm" }, t("Type \"%1\" to confirm:", phrase)), confirm) : null,
    el("div", { class: "toolbar" }, run));
  reason.focus();
  run.addEventListener("click", async () => {
    run.disabled = true;
    reason.disabled = true;
    if (confirm) confirm.disabled = true;
    try {
      const reply = await api("POST", path, { key: spec.finding.key, reason: reason.value.trim(), expected: matched });
      finished = true;
      if (reply.status === 202 && reply.data && reply.data.href) await followJob(reply.data, body);
      else fill(body, resultView(reply.data));
      behind.now();
    } catch (e) {
      body.append(errorBox(e));
      return;
    }
    closeButton.focus();
  });
}

// A job: progress pushed over /ws while the dialog shows it (live.followJob), read once with
// GET /api/v1/jobs/{id} when the dialog opens and after the socket reconnects, in case a push was
// missed; Cancel → DELETE.
function followJob(job, body, kind) {
  const bar = el("progress", { id: "job-progress", max: Math.max(1, job.progress.expected), value: 0 });
  const text = el("span", { id: "job-text" }, t("starting…"));
  const cancel = el("button", { id: "job-cancel", type: "button" }, t("Cancel job"));
  cancel.addEventListener("click", async () => {
    cancel.disabled = true;
    try { await api("DELETE", job.href); } catch (e) { body.append(errorBox(e)); }
  });
  fill(body, el("p", {}, t("Job %1", job.id)), bar, el("p", {}, text), el("div", { class: "toolbar" }, cancel));
  return new Promise((resolve) => {
    let ended = false;
    let seen = -1; // chunks shown: a late answer never moves the bar back
    const show = (j) => {
      if (ended) return;
      const p = j.progress || {};
      if (j.state === "running" && (p.chunks ?? 0) < seen) return;
      seen = p.chunks ?? 0;
      bar.max = Math.max(1, p.expected || 0, p.processed || 0);
      bar.value = p.processed || 0;
      text.textContent = t("%1 of %2 processed, %3 changed, %4 conflicts, %5 chunks", p.processed, p.expected, p.affected, p.conflicts, p.chunks);
      body.dataset.jobState = j.state;
      if (j.state !== "running") {
        ended = true;
        unfollow();
        cancel.remove();
        if (j.state === "failed") body.append(errorBox(j.error || t("the job failed")));
        body.append(el("p", { id: "job-state" }, t("Job state: %1", j.state)), resultView(j.result || p, kind));
        resolve();
      }
    };
    const fail = (e) => {
      if (ended) return;
      ended = true;
      unfollow();
      body.append(errorBox(e));
      resolve();
    };
    const read = () => api("GET", job.href).then((r) => show(r.data), fail);
    const unfollow = live.followJob(job.id, (j) => {
      if (j.reconnected) read();
      else if (j.error) fail(j.error);
      else show(j);
    });
    // Closed before the end: the job goes on on the server, the page stops following it.
    document.getElementById("action-dialog").addEventListener("close", () => { if (!ended) { ended = true; unfollow(); resolve(); } }, { once: true });
    read();
  });
}

// Relays: pause, resume, drain (the relays obey on their next heartbeat), forget (the
// registration of relays that are gone is deleted; the server refuses one that is alive).
export async function openRelayControl(command, workers, onDone) {
  const dialog = document.getElementById("action-dialog");
  const path = `/api/v1/relays/${command}`;
  const reason = el("textarea", { id: "action-reason", required: true, maxlength: 2000 });
  const run = el("button", { id: "action-run", class: "danger", type: "button", disabled: true }, t("Run"));
  const body = el("div", { id: "action-body" }, el("p", {}, t("Previewing…")));
  let finished = false;
  const behind = pageBehind(onDone);
  dialog.onclose = () => { if (finished) behind.now(); };
  fill(dialog, el("h2", { id: "action-title" }, { pause: t("Pause relays"), resume: t("Resume relays"), drain: t("Drain relays"), forget: t("Forget relays") }[command]),
    command === "forget" ? el("p", { class: "muted" }, t("Deletes the registration of relays whose last heartbeat is older than %1 s; a relay that is alive is refused.", 60)) : null, body,
    el("div", { class: "toolbar" }, el("span", { class: "spacer" }), el("button", { id: "action-close", type: "button", onclick: () => dialog.close() }, t("Close"))));
  if (!dialog.open) dialog.showModal();
  // Core decides the phrase to type (stopping relays, several of them); the page shows it.
  let preview;
  try {
    preview = (await api("POST", path, { workers, dry_run: true })).data;
  } catch (e) {
    fill(body, errorBox(e));
    return;
  }
  const phrase = preview.confirmation || "";
  const confirm = phrase ? el("input", { id: "action-confirm", autocomplete: "off", placeholder: phrase }) : null;
  fill(body,
    el("p", {}, t("Relays: %1", workers.join(", "))),
    el("div", { class: "row" }, el("label", { for: "action-reason" }, t("Reason (required, kept in the audit log)")), reason),
    confirm ? el("div", { class: "row" }, el("label", { for: "action-confirm" }, t("Type \"%1\" to confirm:", phrase)), confirm) : null,
    el("div", { class: "toolbar" }, run));
  const update = () => { run.disabled = !reason.value.trim() || (confirm && confirm.value.trim() !== phrase); };
  reason.addEventListener("input", update);
  if (confirm) confirm.addEventListener("input", update);
  reason.focus();
  run.addEventListener("click", async () => {
    run.disabled = true;
    try {
      const r = (await api("POST", path, { workers, reason: reason.value.trim() })).data;
      finished = true;
      fill(body, el("div", { id: "action-result" },
        el("p", { id: "action-changed" }, command === "forget" ? t("Forgotten: %1", r.changed.join(", ") || "-") : t("Changed: %1", r.changed.join(", ") || "-")),
        r.missing.length ? el("p", {}, t("Not registered: %1", r.missing.join(", "))) : null,
        el("p", { class: "muted" }, t("Audit row: %1", r.audit_id))));
      behind.now();
    } catch (e) {
      body.append(errorBox(e));
    }
  });
}

// The lines of `before` and `after` as a diff: common lines kept, removed ones "-", added ones
// "+" (common prefix and suffix first, then the longest common subsequence of the middle when it
// is small enough; a huge middle is shown removed and added whole).
export function lineDiff(before, after) {
  const a = before.split("\n");
  const b = after.split("\n");
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) { endA--; endB--; }
  const out = a.slice(0, start).map((line) => [" ", line]);
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  if (midA.length * midB.length <= MAX_DIFF_CELLS) {
    const n = midA.length;
    const m = midB.length;
    const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        lcs[i][j] = midA[i] === midB[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && midA[i] === midB[j]) { out.push([" ", midA[i]]); i++; j++; }
      else if (j < m && (i === n || lcs[i][j + 1] >= lcs[i + 1][j])) out.push(["+", midB[j++]]);
      else out.push(["-", midA[i++]]);
    }
  } else {
    for (const line of midA) out.push(["-", line]);
    for (const line of midB) out.push(["+", line]);
  }
  for (const line of a.slice(endA)) out.push([" ", line]);
  return out;
}

function diffView(id, rows) {
  const changed = rows.filter(([k]) => k !== " ").length;
  // Unchanged lines far from a change are folded, so that a one-line fix in a big payload is
  // seen at once.
  const near = new Set();
  rows.forEach(([k], i) => { if (k !== " ") for (let d = -3; d <= 3; d++) near.add(i + d); });
  const lines = [];
  let skipped = 0;
  rows.forEach(([k, line], i) => {
    if (k === " " && !near.has(i)) { skipped++; return; }
    if (skipped) { lines.push(el("div", { class: "diff-skip" }, t("… %1 unchanged line(s)", skipped))); skipped = 0; }
    lines.push(el("div", { class: k === "+" ? "diff-add" : k === "-" ? "diff-del" : "diff-same" }, `${k} ${line}`));
  });
  if (skipped) lines.push(el("div", { class: "diff-skip" }, t("… %1 unchanged line(s)", skipped)));
  return el("div", { id, class: "diff", "data-changed": String(changed) }, changed ? lines : el("p", { class: "muted" }, t("No change.")));
}

// A payload as the editor shows it: a JSON document indented (so that a diff is by line), other
// text as it is.
function editableText(text) {
  try { return JSON.stringify(JSON.parse(text), null, 2); } catch (_) { return text; }
}

// Dead letter Edit…: the payload and headers as read (with the letter's edit_count), the operator
// changes them, Review shows the diff of old and new, then reason → save (PATCH, the same
// DeadLetterEditor as the desktop and `outboxctl dlq edit`). An edit made meanwhile by someone else
// is a 409: nothing is saved, the page offers to read the letter again.
// spec: {letter, onDone}
export function openLetterEdit(spec) {
  const l = spec.letter;
  const dialog = document.getElementById("action-dialog");
  const originalText = editableText(l.payload ?? "");
  const originalHeaders = JSON.stringify(l.headers || {}, null, 2);
  const payload = el("textarea", { id: "edit-payload", class: "code", spellcheck: "false", rows: 14 });
  payload.value = originalText;
  const headers = el("textarea", { id: "edit-headers", class: "code", spellcheck: "false", rows: 4 });
  headers.value = originalHeaders;
  const body = el("div", { id: "action-body" });
  const closeButton = el("button", { id: "action-close", type: "button", onclick: () => dialog.close() }, t("Close"));
  let finished = false;
  const behind = pageBehind(spec.onDone);
  dialog.onclose = () => { if (finished) behind.now(); };
  fill(dialog, el("h2", { id: "action-title" }, t("Edit dead letter %1", l.id)),
    el("p", { class: "muted" }, t("Consumer %1, topic %2, edit %3. The message as it came is kept; a replay sends the edited one.", l.consumer_name, l.topic, l.edit_count ?? 0)),
    body, el("div", { class: "toolbar" }, el("span", { class: "spacer" }), closeButton));
  const review = el("button", { id: "edit-review", class: "primary", type: "button" }, t("Review changes…"));
  const editing = () => fill(body,
    el("div", { class: "row" }, el("label", { for: "edit-payload" }, t("Payload")), payload),
    el("div", { class: "row" }, el("label", { for: "edit-headers" }, t("Headers (a JSON object of strings)")), headers),
    el("div", { class: "toolbar" }, review));
  editing();
  if (!dialog.open) dialog.showModal();
  payload.focus();

  review.onclick = () => {
    let newHeaders = null;
    if (headers.value.trim() !== originalHeaders.trim()) {
      try { newHeaders = JSON.parse(headers.value); } catch (e) { newHeaders = undefined; }
      if (!newHeaders || typeof newHeaders !== "object" || Array.isArray(newHeaders))
        return body.append(errorBox(t("The headers are not a JSON object.")));
    }
    const payloadChanged = payload.value !== originalText;
    const wasJson = isJson(l.payload);
    let newPayload = payload.value;
    if (payloadChanged && wasJson) {
      // A JSON payload stays JSON (a typo is refused here and by the server: json_payload), sent
      // compact as text so that its keys keep the operator's order.
      try { newPayload = JSON.stringify(JSON.parse(payload.value)); } catch (e) { return body.append(errorBox(t("The payload is not JSON any more: %1", e.message))); }
    }
    const reason = el("textarea", { id: "action-reason", required: true, maxlength: 2000, "aria-required": "true" });
    const save = el("button", { id: "action-run", class: "danger", type: "button", disabled: true }, t("Save"));
    reason.addEventListener("input", () => { save.disabled = !reason.value.trim() || (!payloadChanged && !newHeaders); });
    fill(body,
      el("h3", {}, t("Payload")), diffView("edit-diff", lineDiff(originalText, payload.value)),
      newHeaders ? [el("h3", {}, t("Headers")), diffView("edit-headers-diff", lineDiff(originalHeaders, JSON.stringify(newHeaders, null, 2)))] : null,
      !payloadChanged && !newHeaders ? el("p", { class: "notice" }, t("Nothing changed.")) : null,
      el("div", { class: "row" }, el("label", { for: "action-reason" }, t("Reason (required, kept in the audit log)")), reason),
      el("div", { class: "toolbar" }, el("button", { id: "edit-back", type: "button", onclick: editing }, t("Back to editing")), save));
    reason.focus();
    save.onclick = async () => {
      save.disabled = true;
      reason.disabled = true;
      const request = { reason: reason.value.trim(), edit_count: l.edit_count ?? 0 };
      if (payloadChanged) { request.payload = newPayload; request.json_payload = wasJson; }
      if (newHeaders) request.headers = newHeaders;
      try {
        const r = (await api("PATCH", `/api/v1/dead-letters/${encodeURIComponent(l.id)}`, request)).data;
        finished = true;
        fill(body, el("div", { id: "action-result" },
          el("p", {}, el("strong", { id: "action-affected" }, t("Saved: dead letter %1 is at edit %2.", l.id, r.edit_count))),
          el("p", { class: "muted" }, t("Audit row: %1", r && r.audit_id))));
        behind.now();
        closeButton.focus();
      } catch (e) {
        body.append(errorBox(e));
        if (e.status === 409) {
          // Someone else changed it: nothing was saved; read it again (the dialog closes, the page reloads the letter).
          finished = true;
          body.append(el("button", { id: "edit-reload", type: "button", onclick: () => dialog.close() }, t("Read the dead letter again")));
        }
      }
    };
  };
}

function isJson(text) {
  if (typeof text !== "string") return false;
  try { const v = JSON.parse(text); return v !== null && typeof v === "object"; } catch (_) { return false; }
}

// Dead-letter group Edit group…: one JSON change for every NEW letter of the group (set a member,
// or replace a value) → Preview (every letter's diff, through the same DeadLetterGroupEditor as the
// desktop and `outboxctl dlq edit-group`) → reason → core's phrase typed to confirm → the edit in
// audited chunks, each letter locked to the edit it was previewed at.
// spec: {group: {consumer, error_class, fingerprint, count}, onDone}
export function openGroupEdit(spec) {
  const g = spec.group;
  const dialog = document.getElementById("action-dialog");
  const body = el("div", { id: "action-body" });
  const closeButton = el("button", { id: "action-close", type: "button", onclick: () => dialog.close() }, t("Close"));
  let finished = false;
  const behind = pageBehind(spec.onDone);
  dialog.onclose = () => { if (finished) behind.now(); };
  fill(dialog, el("h2", { id: "action-title" }, t("Edit the payloads of a dead-letter group")),
    el("p", { class: "muted" }, t("Consumer %1, %2 dead letter(s): %3", g.consumer, g.count, g.fingerprint)),
    body, el("div", { class: "toolbar" }, el("span", { class: "spacer" }), closeButton));
  const kind = el("select", { id: "group-edit-kind" },
    el("option", { value: "set" }, t("Set a member")), el("option", { value: "replace" }, t("Replace a value")));
  const path = el("input", { id: "group-edit-path", size: 30, placeholder: "customer.email" });
  const from = el("input", { id: "group-edit-from", size: 30 });
  const to = el("input", { id: "group-edit-to", size: 30 });
  const fromRow = el("div", { class: "row", hidden: true }, el("label", { for: "group-edit-from" }, t("Value to replace (JSON; other text is a string)")), from);
  kind.onchange = () => { fromRow.hidden = kind.value !== "replace"; };
  const previewButton = el("button", { id: "group-edit-preview", class: "primary", type: "button" }, t("Preview…"));
  const editing = () => fill(body,
    el("div", { class: "row" }, el("label", { for: "group-edit-kind" }, t("Change")), kind),
    el("div", { class: "row" }, el("label", { for: "group-edit-path" }, t("Path (members separated by dots; empty: anywhere, for Replace)")), path),
    fromRow,
    el("div", { class: "row" }, el("label", { for: "group-edit-to" }, t("New value (JSON; other text is a string)")), to),
    el("div", { class: "toolbar" }, previewButton));
  editing();
  if (!dialog.open) dialog.showModal();
  path.focus();
  const jsonOf = (text) => { try { return JSON.parse(text); } catch (_) { return text; } };
  const groupBody = { consumer: g.consumer, error_class: g.error_class, fingerprint: g.fingerprint };

  previewButton.onclick = async () => {
    const change = kind.value === "set" ? { set: path.value.trim(), value: jsonOf(to.value) }
      : { replace: path.value.trim(), from: jsonOf(from.value), to: jsonOf(to.value) };
    let preview;
    try {
      preview = (await api("POST", "/api/v1/dead-letters/groups/edit/preview", { group: groupBody, change })).data;
    } catch (e) { return body.append(errorBox(e)); }
    const letters = preview.dead_letters || [];
    const changing = letters.filter((l) => l.changes);
    const list = el("ul", { id: "group-edit-diffs", class: "diff" }, letters.map((l) => el("li", { "data-id": String(l.id), class: l.changes ? "diff-add" : "diff-same" },
      el("strong", {}, t("Dead letter %1 (edit %2)", l.id, l.edit_count)), " ",
      l.changes ? el("div", {}, (l.differences || []).map((d) => el("div", { class: "difference" }, d)))
        : el("span", { class: "muted" }, t("unchanged: %1", l.skipped || "")))));
    const reason = el("textarea", { id: "action-reason", required: true, maxlength: 2000, "aria-required": "true" });
    // Core decides the phrase to type ("edit 25"); the dialog asks for what it is given.
    const phrase = preview.confirmation || "";
    const confirm = phrase ? el("input", { id: "action-confirm", autocomplete: "off", placeholder: phrase }) : null;
    const run = el("button", { id: "action-run", class: "danger", type: "button", disabled: true }, t("Edit %1 dead letter(s)", changing.length));
    const check = () => { run.disabled = !reason.value.trim() || (confirm && confirm.value.trim() !== phrase) || changing.length === 0; };
    for (const i of [reason, confirm]) if (i) i.addEventListener("input", check);
    fill(body,
      el("p", { id: "group-edit-summary" }, t("%1 of %2 dead letter(s) change: %3", changing.length, letters.length, preview.description)),
      list,
      el("div", { class: "row" }, el("label", { for: "action-reason" }, t("Reason (required, kept in the audit log)")), reason),
      confirm ? el("div", { class: "row" }, el("label", { for: "action-confirm" }, t("Type \"%1\" to confirm:", phrase)), confirm) : null,
      el("div", { class: "toolbar" }, el("button", { id: "edit-back", type: "button", onclick: editing }, t("Back to editing")), run));
    reason.focus();
    run.onclick = async () => {
      run.disabled = true;
      reason.disabled = true;
      if (confirm) confirm.disabled = true;
      const versions = changing.map((l) => ({ id: l.id, edit_count: l.edit_count }));
      try {
        const r = (await api("POST", "/api/v1/dead-letters/groups/edit", { group: groupBody, change, reason: reason.value.trim(), versions })).data;
        finished = true;
        fill(body, el("div", { id: "action-result" },
          el("p", {}, el("strong", { id: "action-affected" }, t("Edited %1 dead letter(s) in %2 audited chunk(s).", r.edited, r.chunks))),
          r.conflicts ? el("p", { class: "notice", id: "action-conflicts" }, t("%1 conflict(s): changed by someone else since the preview, left as they are.", r.conflicts)) : null,
          el("p", { class: "muted" }, t("The originals are kept; a replay of the group sends the edited messages."))));
        behind.now();
        closeButton.focus();
      } catch (e) { body.append(errorBox(e)); }
    };
  };
}
