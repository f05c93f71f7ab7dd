// Outbox web console: what every view shares — translations, the token, the JSON API, the live
// WebSocket and small DOM helpers. Plain ES module, no build step.

// ---- translations -------------------------------------------------------------------------
// English is the source text; the browser's preferred languages pick a catalogue (zh, zh-CN,
// zh-SG and zh-Hans get Simplified Chinese, served as /console/zh_CN.json).
let catalogue = {};
export let language = "en";

export function chooseLanguage(languages) {
  for (const tag of languages) {
    const t = String(tag).toLowerCase();
    if (t === "zh" || t === "zh-cn" || t === "zh-sg" || t.startsWith("zh-hans")) return "zh_CN";
    if (t === "en" || t.startsWith("en-")) return "en";
  }
  return "en";
}

export async function loadLanguage() {
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  language = chooseLanguage(wanted);
  if (language === "en") return;
  try {
    const [own, core] = await Promise.all([fetch(`/console/${language}.json`), fetch(`/console/core_${language}.json`)]);
    if (own.ok) catalogue = await own.json();
    if (core.ok) readCoreCatalogue(await core.json());
    document.documentElement.lang = "zh-CN";
  } catch (_) {
    catalogue = {};
  }
}

// Texts the server's core wrote in its own language, English under a service: the doctor's
// finding titles, causes, runbook steps, action labels and consequences. core_zh_CN.json is
// generated from core's Qt catalogue (translations/ts-to-json.py); a source with %1 … %n matches
// the English text and its arguments go into the translation, themselves translated. A title that
// core extended with a suffix of its own ("… (3 of them created before the 15 min window)") is
// translated piece by piece. What matches nothing stays as the server wrote it.
const coreExact = new Map();
let corePatterns = [];
const PLACEHOLDER = /%(?:L?\d+|n)/g;

function readCoreCatalogue(pairs) {
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  corePatterns = [];
  for (const [source, translation] of pairs) {
    const names = source.match(PLACEHOLDER) || [];
    if (!names.length) { coreExact.set(source, translation); continue; }
    const literal = source.replace(PLACEHOLDER, "").trim();
    if (!literal) continue; // "%1 %2" would match anything
    // A short unit ("%1 s", "%1 h") takes a number only, never any text that ends in it.
    const arg = literal.length < 3 ? "(\\d+(?:\\.\\d+)?)" : "([\\s\\S]+?)";
    const body = source.split(PLACEHOLDER).map(escape).join(arg);
    corePatterns.push({ names, translation, literal: literal.length, whole: new RegExp(`^${body}$`),
                        suffix: /^\W/.test(source) ? new RegExp(`^([\\s\\S]+?)${body}$`) : null });
  }
  corePatterns.sort((a, b) => b.literal - a.literal); // the most specific source first
}

function fillCore(p, args) {
  let s = p.translation;
  p.names.forEach((name, i) => { s = s.split(name).join(tc(args[i])); });
  return s;
}

export function tc(text, depth = 0) {
  if (typeof text !== "string" || !text || language === "en" || depth > 4) return text;
  if (coreExact.has(text)) return coreExact.get(text);
  for (const p of corePatterns) {
    const m = p.whole.exec(text);
    if (m) return fillCore(p, m.slice(1).map((a) => tc(a, depth + 1)));
  }
  for (const p of corePatterns) {
    const m = p.suffix && p.suffix.exec(text);
    if (m) return tc(m[1], depth + 1) + fillCore(p, m.slice(2).map((a) => tc(a, depth + 1)));
  }
  return text;
}

// t("%1 events", 5): the translation of the English text with %1, %2, … filled in.
export function t(text, ...args) {
  let s = Object.prototype.hasOwnProperty.call(catalogue, text) ? catalogue[text] : text;
  args.forEach((a, i) => { s = s.split(`%${i + 1}`).join(String(a)); });
  return s;
}

export function translateStatic(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.textContent.trim());
}

// ---- the token ------------------------------------------------------------------------------
// Kept in sessionStorage only (gone with the tab); a #token=… fragment is taken and removed from
// the address bar and the history at once. history.replaceState alone cleans the address bar but
// not the history entry: Chromium keeps the address as typed (its userTypedURL, what session
// restore and the history list use) for the entry's whole life. So the page then replaces itself
// with a fresh load of the console's own address: a new entry that never saw the token.
const TOKEN_KEY = "outbox-console-token";

export function takeTokenFromFragment() {
  const hash = location.hash.startsWith("#") ? location.hash.slice(1) : "";
  const params = new URLSearchParams(hash.startsWith("/") ? "" : hash);
  const token = params.get("token");
  if (!token) return false;
  sessionStorage.setItem(TOKEN_KEY, token);
  history.replaceState(null, "", location.pathname + location.search);
  location.replace(location.pathname + location.search);
  return true;
}

// A tile of the fleet wall opens the console in the same tab: the wall's token (the dashboard's
// key) signs it in; signing out forgets both.
const WALL_TOKEN_KEY = "outbox-token";
// Signed in with the identity provider (resources/web/signin.js): its access token, in memory only.
export const signIn = window.OutboxSignIn;
export function token() {
  if (signIn && signIn.enabled()) return signIn.token();
  return sessionStorage.getItem(TOKEN_KEY) || sessionStorage.getItem(WALL_TOKEN_KEY) || "";
}
export function setToken(value) { sessionStorage.setItem(TOKEN_KEY, value); }
export function clearToken() { sessionStorage.removeItem(TOKEN_KEY); sessionStorage.removeItem(WALL_TOKEN_KEY); }

// ---- the member of a fleet ------------------------------------------------------------------
// /console/?member=orders (a tile of the fleet wall): every API path of the console goes to
// /api/v1/members/orders/…, the counts and findings come from that member's summary (polled), not
// from the server's own snapshot on /ws, and the page says in its title and header which database
// it acts on.
export const member = new URLSearchParams(location.search).get("member") || "";
const SERVER_PATHS = ["/api/v1/me", "/api/v1/fleet"];

export function scoped(path) {
  if (!member || !path.startsWith("/api/v1/") || SERVER_PATHS.some((p) => path === p || path.startsWith(p + "?")))
    return path;
  return `/api/v1/members/${encodeURIComponent(member)}/${path.slice("/api/v1/".length)}`;
}

// ---- the JSON API ---------------------------------------------------------------------------
export class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

export async function api(method, path, body) {
  const init = { method, headers: { Authorization: `Bearer ${token()}` }, cache: "no-store" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let r;
  try {
    r = await fetch(scoped(path), init);
  } catch (e) {
    throw new ApiError(0, t("the server cannot be reached (%1)", e.message));
  }
  let data = null;
  try { data = await r.json(); } catch (_) { data = null; }
  // An access token that expired: off to the provider, back to this view with a new one.
  if (r.status === 401 && signIn && signIn.enabled() && signIn.reauthenticate()) return new Promise(() => {});
  if (!r.ok) throw new ApiError(r.status, (data && data.error) || `HTTP ${r.status}`);
  return { status: r.status, data };
}

export const get = (path) => api("GET", path).then((r) => r.data);

// A GET whose answer is not JSON (the audit CSV): its text and headers.
export async function apiText(path) {
  let r;
  try {
    r = await fetch(scoped(path), { headers: { Authorization: `Bearer ${token()}` }, cache: "no-store" });
  } catch (e) {
    throw new ApiError(0, t("the server cannot be reached (%1)", e.message));
  }
  if (!r.ok) {
    let data = null;
    try { data = await r.json(); } catch (_) { data = null; }
    throw new ApiError(r.status, (data && data.error) || `HTTP ${r.status}`);
  }
  return { text: await r.text(), headers: r.headers };
}

// Percent-encoded (a space as %20, not "+": the server reads "+" as a plus sign, so a header or
// payload value with a space or a plus would otherwise search for something else).
export function query(params) {
  const parts = [];
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== null && v !== "") parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  return parts.length ? `?${parts.join("&")}` : "";
}

// ---- live updates over /ws ------------------------------------------------------------------
// One socket for the whole console: snapshots (counts, relays, lease holders), the doctor's
// findings and the progress of followed jobs are pushed by the server; views subscribe instead of
// polling.
export const live = {
  snapshot: null,
  findings: null,
  listeners: new Set(),
  jobs: new Map(), // job id → callback(job or {id, error}), re-subscribed on every (re)connect
  socket: null,
  connected: false,
  retryMs: 1000,
  on(fn) { this.listeners.add(fn); return () => this.listeners.delete(fn); },
  emit(kind) { for (const fn of [...this.listeners]) fn(kind); },
  // Follows a job: the server sends its state now and after every chunk until it ends. The
  // callback also gets {reconnected: true} after the socket came back (the page reads the job once).
  followJob(id, fn) {
    this.jobs.set(id, fn);
    if (member) { this.pollJob(id); return () => this.jobs.delete(id); }
    if (this.connected) this.socket.send(JSON.stringify({ type: "subscribe_job", id }));
    return () => this.jobs.delete(id);
  },
  connect() {
    if (this.socket) return;
    // A token renewed before it expires goes to the open socket, which then stays open.
    if (signIn && signIn.enabled() && !this.renewing)
      this.renewing = signIn.onRenewed((t) => {
        if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ type: "auth", token: t }));
      });
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
    this.socket = ws;
    ws.onopen = () => ws.send(JSON.stringify({ type: "auth", token: token() }));
    ws.onmessage = (m) => {
      let msg;
      try { msg = JSON.parse(m.data); } catch (_) { return; }
      if (msg.type === "welcome") {
        const again = this.everConnected;
        this.retryMs = 1000;
        this.connected = true;
        this.everConnected = true;
        for (const [id, fn] of this.jobs) {
          ws.send(JSON.stringify({ type: "subscribe_job", id }));
          if (again) fn({ id, reconnected: true });
        }
        this.emit("connected");
      }
      // A member's console: the server's own snapshot and findings are another database's.
      // The access token expired under the socket: sign in again (back to this view).
      if (msg.type === "error" && signIn && signIn.enabled()) signIn.reauthenticate();
      if (msg.type === "snapshot" && !member) { this.snapshot = msg.snapshot; this.emit("snapshot"); }
      if (msg.type === "findings" && !member) { this.findings = msg; this.emit("findings"); }
      if (msg.type === "job") {
        const id = msg.job ? msg.job.id : msg.id;
        const fn = this.jobs.get(id);
        if (fn) fn(msg.job || { id, error: msg.error });
      }
    };
    ws.onclose = () => {
      this.socket = null;
      this.connected = false;
      this.emit("disconnected");
      if (!token()) return;
      setTimeout(() => this.connect(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, 15000);
    };
  },
  // A member's jobs are that member's (not the server's /ws): read every second until they end.
  pollJob(id) {
    const fn = this.jobs.get(id);
    if (!fn) return;
    get(`/api/v1/jobs/${encodeURIComponent(id)}`).then((job) => {
      if (!this.jobs.has(id)) return;
      fn(job);
      if (job.state === "running") setTimeout(() => this.pollJob(id), 1000);
      else this.jobs.delete(id);
    }, (e) => { if (this.jobs.has(id)) fn({ id, error: e.message }); });
  },
  // A member's counts and findings: its summary every few seconds (the fleet's interval).
  pollMember() {
    if (!member || this.memberTimer) return;
    const once = async () => {
      try {
        this.snapshot = await get("/api/v1/summary");
        this.emit("snapshot");
        const findings = await get("/api/v1/findings");
        if (!this.findings || this.findings.taken_at !== findings.taken_at) {
          this.findings = findings;
          this.emit("findings");
        }
      } catch (_) { /* shown by the views that need the data */ }
    };
    once();
    this.memberTimer = setInterval(once, 5000);
  },
  close() {
    if (this.memberTimer) { clearInterval(this.memberTimer); this.memberTimer = null; }
    if (this.socket) { const s = this.socket; this.socket = null; s.onclose = null; s.close(); }
    this.connected = false;
    this.everConnected = false;
    this.jobs.clear();
  },
};

// ---- DOM helpers ----------------------------------------------------------------------------
// el("button", {class: "primary", onclick: fn}, "text", child…). Text is always text, never HTML.
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "value") e.value = v;
    else if (k === "checked") e.checked = !!v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

// replaceChildren without the absent parts (null, false, undefined) of conditional markup.
export function fill(node, ...children) {
  node.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
}

export function fmtTime(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  return isNaN(d) ? iso : d.toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z");
}

export function errorBox(e) {
  return el("div", { class: "error", role: "alert" }, e instanceof Error ? e.message : String(e));
}

// A collapsible tree of a JSON value: objects and arrays fold (<details>), scalars coloured.
export function jsonTree(value, depth = 0) {
  if (value === null) return el("span", { class: "z" }, "null");
  if (Array.isArray(value) || typeof value === "object") {
    const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
    const open = depth < 2;
    const label = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
    const d = el("details", { open }, el("summary", {}, label));
    d.append(el("ul", {}, entries.map(([k, v]) => el("li", {}, el("span", { class: "k" }, String(k)), ": ", jsonTree(v, depth + 1)))));
    return d;
  }
  if (typeof value === "string") return el("span", { class: "s" }, JSON.stringify(value));
  if (typeof value === "number") return el("span", { class: "n" }, String(value));
  return el("span", { class: "b" }, String(value));
}

export function download(name, type, text) {
  const a = el("a", { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  document.body.append(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

