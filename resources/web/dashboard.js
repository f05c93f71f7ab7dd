// NOC dashboard: one WebSocket to /ws, snapshots pushed by the server's single sampler.
// Reconnects by itself and says loudly when its numbers are stale.
(function () {
  "use strict";
  // Points kept per chart: the server's history window (15 minutes), at most MAX_POINTS of them.
  const MAX_POINTS = 1000;
  let historyWindowMs = 15 * 60 * 1000;
  const COLORS = ["#4ea1ff", "#3ddc84", "#ffb020", "#ff4d4f", "#c77dff", "#2ec4b6", "#f15bb5", "#9ef01a"];

  // A #token=… in the address goes to sessionStorage and the page reloads itself without it:
  // replaceState cleans the address bar, but the browser keeps the address as typed in the
  // history entry; a fresh load of the bare address is an entry that never saw the token.
  const fromAddress = new URLSearchParams(location.hash.slice(1)).get("token");
  if (fromAddress) {
    sessionStorage.setItem("outbox-token", fromAddress);
    history.replaceState(null, "", location.pathname + location.search);
    location.replace(location.pathname + location.search);
    return;
  }
  // A new #token=… typed into the address of an open wall (only the fragment changes, nothing
  // reloads by itself): the same as at load, so the wall follows the new token.
  window.addEventListener("hashchange", () => {
    const typed = new URLSearchParams(location.hash.slice(1)).get("token");
    if (!typed) return;
    sessionStorage.setItem("outbox-token", typed);
    history.replaceState(null, "", location.pathname + location.search);
    location.replace(location.pathname + location.search);
  });
  let token = sessionStorage.getItem("outbox-token") || "";
  let socket = null;
  let retryMs = 1000;
  let intervalMs = 2000;
  let relayStaleAfterMs = 30000;
  let lastSnapshotAt = 0;
  let lastSamplerError = "";
  let previous = null; // {t, sent}
  let lastChartT = 0; // time of the newest point drawn: history and live snapshots never repeat one
  let tokenRejected = false;

  // Message catalogues by language; English is the source text. The browser's preferred
  // languages pick one (zh, zh-CN, zh-SG and zh-Hans get Simplified Chinese).
  const CATALOGUES = {
    "zh-CN": {
      "Outbox — NOC": "Outbox — 监控大屏",
      "connecting…": "连接中…",
      "live": "实时",
      "reconnecting…": "重新连接中…",
      "token needed": "需要令牌",
      "sign-in failed": "登录失败",
      "no data yet": "尚无数据",
      "updated %1s ago": "%1 秒前更新",
      "DATA STALE": "数据过期",
      "no update": "没有更新",
      "the server cannot read the database: %1": "服务器无法读取数据库：%1",
      "not connected to the server": "未连接到服务器",
      "no update for %1s": "%1 秒没有更新",
      " (last data %1s ago)": "（最近数据为 %1 秒前）",
      "This dashboard needs a viewer token:": "此看板需要查看者令牌：",
      "Connect": "连接",
      "PENDING": "待发送",
      "SENDING": "发送中",
      "SENT": "已发送",
      "FAILED": "失败",
      "DEAD": "死亡",
      "OLDEST PENDING": "最早待发送",
      "DEAD LETTERS NEW": "新死信",
      "RELAYS UP": "在线中继",
      "Backlog": "积压",
      "Throughput (sent/s)": "吞吐量（条/秒）",
      "Lease holders (SENDING per relay)": "租约持有者（各中继发送中）",
      "Attempts of unsent events": "未发送事件的尝试次数",
      "events": "事件",
      "attempts": "尝试次数",
      "sent/s": "条/秒",
      "%1 databases, %2 need attention": "%1 个数据库，%2 个需要处理",
      "1 database, %2 needs attention": "1 个数据库，%2 个需要处理",
      "1 database, %2 need attention": "1 个数据库，%2 个需要处理",
      "%1 databases, 1 needs attention": "%1 个数据库，1 个需要处理",
      "slow": "缓慢",
      "slow: last answer %1 ago (%2)": "缓慢：最近一次应答在 %1 前（%2）",
      "next attempt in %1 s": "%1 秒后再次尝试",
      "tag %1": "标签 %1",
      "ok": "正常",
      "warning": "警告",
      "critical": "严重",
      "unreachable": "无法连接",
      "unmigrated": "未迁移",
      "backlog": "积压",
      "oldest": "最早",
      "dead letters": "死信",
      "relays": "中继"
    }
  };
  function chooseLanguage() {
    const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
    for (const tag of wanted) {
      const t = String(tag).toLowerCase();
      if (t === "zh" || t === "zh-cn" || t === "zh-sg" || t.startsWith("zh-hans")) return "zh-CN";
      if (t === "en" || t.startsWith("en-")) return "en";
    }
    return "en";
  }
  const LANGUAGE = chooseLanguage();
  const MESSAGES = CATALOGUES[LANGUAGE] || {};
  // tr("no update for %1s", 5) → the catalogue's text with %1, %2… filled in.
  function tr(text, ...args) {
    const message = Object.prototype.hasOwnProperty.call(MESSAGES, text) ? MESSAGES[text] : text;
    return message.replace(/%(\d)/g, (m, i) => (args[i - 1] === undefined ? m : String(args[i - 1])));
  }
  document.documentElement.lang = LANGUAGE;
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = tr(el.textContent.trim()); });
  document.title = tr("Outbox — NOC");

  Chart.defaults.color = "#c8d3df";
  Chart.defaults.font.size = 16;
  Chart.defaults.borderColor = "#263241";

  function lineChart(id, datasets) {
    return new Chart(document.getElementById(id), {
      type: "line",
      data: { labels: [], datasets: datasets },
      options: {
        animation: false, responsive: true, maintainAspectRatio: false,
        elements: { point: { radius: 0 }, line: { borderWidth: 3, tension: 0.2 } },
        scales: { y: { beginAtZero: true } },
        plugins: { legend: { position: "bottom" } }
      }
    });
  }
  const dataset = (label, i) => ({ label: label, data: [], borderColor: COLORS[i % COLORS.length], backgroundColor: COLORS[i % COLORS.length] });
  const backlog = lineChart("chart-backlog", [dataset(tr("PENDING"), 0), dataset(tr("SENDING"), 1), dataset(tr("FAILED"), 2)]);
  const throughput = lineChart("chart-throughput", [dataset(tr("sent/s"), 1)]);
  const leases = lineChart("chart-leases", []);
  // Attempts of the unsent events (PENDING, SENDING, FAILED) in the latest snapshot.
  const attempts = new Chart(document.getElementById("chart-attempts"), {
    type: "bar",
    data: { labels: [], datasets: [{ label: tr("events"), data: [], backgroundColor: COLORS[2] }] },
    options: {
      animation: false, responsive: true, maintainAspectRatio: false,
      scales: { x: { title: { display: true, text: tr("attempts") } }, y: { beginAtZero: true, ticks: { precision: 0 } } },
      plugins: { legend: { display: false } }
    }
  });

  // Appends one point (time t, label) to a line chart; drops what is older than the window.
  function push(chart, t, label, values) {
    chart.$times = chart.$times || [];
    chart.$times.push(t);
    chart.data.labels.push(label);
    while (chart.data.labels.length > MAX_POINTS || (chart.$times.length > 1 && t - chart.$times[0] > historyWindowMs)) {
      chart.data.labels.shift();
      chart.$times.shift();
    }
    chart.data.datasets.forEach((ds, i) => {
      ds.data.push(values[i] === undefined ? null : values[i]);
      while (ds.data.length > chart.data.labels.length) ds.data.shift();
      while (ds.data.length < chart.data.labels.length) ds.data.unshift(null);
    });
  }

  function formatAge(seconds) {
    if (seconds === null || seconds === undefined) return "–";
    if (seconds < 120) return Math.round(seconds) + "s";
    if (seconds < 7200) return Math.floor(seconds / 60) + "m";
    if (seconds < 172800) return Math.floor(seconds / 3600) + "h";
    return Math.floor(seconds / 86400) + "d";
  }
  const formatCount = (n) => Number(n || 0).toLocaleString("en-US");

  function setTile(metric, text, alert) {
    const el = document.querySelector('[data-metric="' + metric + '"]');
    el.textContent = text;
    const tile = el.parentElement;
    if (tile.classList.contains("alert-when-nonzero")) tile.classList.toggle("alert", !!alert);
  }

  function render(s) {
    const ev = s.events || {};
    ["PENDING", "SENDING", "FAILED", "DEAD"].forEach((k) => setTile(k, formatCount(ev[k]), (ev[k] || 0) > 0));
    setTile("SENT", (s.sent_is_estimate ? "≈" : "") + formatCount(ev.SENT), false);
    setTile("oldest", formatAge(s.oldest_pending_age_seconds), false);
    const dlqNew = (s.dead_letters || {}).NEW || 0;
    setTile("dlq_new", formatCount(dlqNew), dlqNew > 0);
    const relays = s.relays || [];
    const up = relays.filter((r) => r.heartbeat_age_ms === undefined || r.heartbeat_age_ms <= relayStaleAfterMs).length;
    setTile("relays_up", up + " / " + relays.length, false);

    const entries = Object.entries(s.attempts_of_unsent || {}).map(([k, v]) => [Number(k), v]).sort((a, b) => a[0] - b[0]);
    attempts.data.labels = entries.map((e) => String(e[0]));
    attempts.data.datasets[0].data = entries.map((e) => e[1]);
    attempts.update("none");

    drawPoint(s);
    [backlog, throughput, leases].forEach((c) => c.update("none"));
  }

  // One point of the line charts, from a live snapshot or from the server's history (the same
  // fields); a point not newer than the last one drawn is skipped.
  function drawPoint(s) {
    const ev = s.events || {};
    const t = Date.parse(s.taken_at) || Date.now();
    if (t <= lastChartT) return false;
    lastChartT = t;
    const label = new Date(t).toLocaleTimeString("en-GB");
    push(backlog, t, label, [ev.PENDING || 0, ev.SENDING || 0, ev.FAILED || 0]);
    let rate = null;
    if (previous && t > previous.t) rate = Math.max(0, (s.relay_sent_total - previous.sent) * 1000 / (t - previous.t));
    previous = { t: t, sent: s.relay_sent_total || 0 };
    push(throughput, t, label, [rate === null ? 0 : Math.round(rate * 10) / 10]);
    const holders = s.lease_holders || [];
    holders.forEach((h) => {
      if (!leases.data.datasets.some((d) => d.label === h.worker_id))
        leases.data.datasets.push(dataset(h.worker_id, leases.data.datasets.length));
    });
    push(leases, t, label, leases.data.datasets.map((d) => {
      const h = holders.find((x) => x.worker_id === d.label);
      return h ? h.sending : 0;
    }));
    return true;
  }

  // {"type":"history"}: the server's last minutes, drawn before the first live snapshot.
  function renderHistory(msg) {
    if (msg.window_seconds) historyWindowMs = msg.window_seconds * 1000;
    let drawn = 0;
    (msg.points || []).forEach((p) => { if (drawPoint(p)) drawn += 1; });
    [backlog, throughput, leases].forEach((c) => c.update("none"));
    document.body.dataset.historyPoints = String(drawn);
  }

  // The fleet wall (serve --fleet): one tile per member as the server sorts them (worst first),
  // only those with the tag of ?tag=team=checkout when the address has one; a tile opens the web
  // console on that member. Every text is text (names, tags and errors come from files and databases).
  const wallTag = new URLSearchParams(location.search).get("tag") || "";
  const wallTiles = new Map(); // member name -> {li, shape, set(m)}
  function wallTile(m) {
    const shape = m.state === "unreachable" || m.state === "unmigrated" ? "error" : "numbers";
    let tile = wallTiles.get(m.name);
    if (!tile || tile.shape !== shape) {
      const li = document.createElement("li");
      li.dataset.member = m.name;
      const a = document.createElement("a");

      const line = (cls) => {
        const d = document.createElement("div");
        d.className = cls;
        a.append(d);
        return d;
      };
      const name = line("name");
      const state = line("state");
      const parts = [];
      let error = null;
      let note = null;
      if (shape === "error") {
        error = line("error");
      } else {
        note = line("note");
        const numbers = line("numbers");
        ["backlog", "oldest", "FAILED", "DEAD", "dead letters", "relays", "critical", "warning"]
          .forEach((label) => {
            const span = document.createElement("span");
            const b = document.createElement("b");
            span.append(b, " " + tr(label));
            numbers.append(span, " ");
            parts.push(b);
          });
      }
      const tags = line("tags");
      li.append(a);
      // Every text is text: names, tags and errors come from files and databases.
      const set = (cell, text) => { if (cell.textContent !== text) cell.textContent = text; };
      tile = { li, shape, set: (mm) => {
        // A stale member (slow: it missed the fleet's timeout, below [fleet] unreachable_after)
        // keeps its last state and numbers, and says how old they are.
        const cls = mm.state + (mm.stale ? " stale" : "");
        if (li.className !== cls) li.className = cls;
        // A member with findings opens on Recovery (its findings and prepared actions), others on Events.
        const href = "/console/?member=" + encodeURIComponent(mm.name) +
          (mm.state === "critical" || mm.state === "warning" ? "#/recovery" : "#/events");
        if (a.getAttribute("href") !== href) a.setAttribute("href", href);
        set(name, mm.name);
        set(state, mm.stale ? tr(mm.state) + " · " + tr("slow") : tr(mm.state));
        if (error) {
          // One error text; when it tries again is said beside it, never appended to it.
          const next = mm.next_attempt_seconds == null ? "" : " — " + tr("next attempt in %1 s", mm.next_attempt_seconds);
          set(error, (mm.error || "") + next);
          error.hidden = !mm.error;
        } else {
          const text = mm.stale ? tr("slow: last answer %1 ago (%2)", formatAge(mm.sample_age_seconds), mm.error || "") : "";
          set(note, text);
          note.hidden = !text;
          const f = mm.findings || {};
          [formatCount(mm.backlog), formatAge(mm.oldest_pending_age_seconds), formatCount(mm.failed),
            formatCount(mm.dead), formatCount(mm.dead_letters), String(mm.relays_alive),
            String(f.critical || 0), String(f.warning || 0)].forEach((v, i) => set(parts[i], v));
        }
        set(tags, (mm.tags || []).join(", "));
        tags.hidden = !(mm.tags || []).length;
      } };
      if (wallTiles.has(m.name)) wallTiles.get(m.name).li.replaceWith(li);
      wallTiles.set(m.name, tile);
    }
    tile.set(m);
    return tile.li;
  }
  function renderFleet(msg) {
    document.body.classList.add("fleet");
    document.getElementById("wall").hidden = false;
    const all = msg.members || [];
    const members = wallTag ? all.filter((m) => (m.tags || []).includes(wallTag)) : all;
    const sick = members.filter((m) => m.state !== "ok").length;
    const countText = members.length === 1
      ? (sick === 1 ? "1 database, %2 needs attention" : "1 database, %2 need attention")
      : (sick === 1 ? "%1 databases, 1 needs attention" : "%1 databases, %2 need attention");
    document.getElementById("wall-count").textContent = tr(countText, members.length, sick);
    document.getElementById("wall-filter").textContent = wallTag ? tr("tag %1", wallTag) : "";
    // Tiles are kept per member and updated in place: a wall pushes every few seconds, and a
    // tile rebuilt between the press and the release of a click would swallow that click.
    const list = document.getElementById("wall-tiles");
    members.forEach((m, i) => {
      const tile = wallTile(m);
      if (list.children[i] !== tile) list.insertBefore(tile, list.children[i] || null);
    });
    while (list.children.length > members.length) list.lastElementChild.remove();
    const shown = new Set(members.map((m) => m.name));
    wallTiles.forEach((_, name) => { if (!shown.has(name)) wallTiles.delete(name); });
    document.body.dataset.fleetUpdates = String(Number(document.body.dataset.fleetUpdates || 0) + 1);
  }

  // "Needs attention": the doctor's findings, worst first, each with the command that explains it.
  const SEVERITY_ORDER = { critical: 0, warning: 1, info: 2 };
  function renderFindings(msg) {
    const list = document.getElementById("findings-list");
    const note = document.getElementById("findings-note");
    const findings = (msg.findings || []).slice().sort((a, b) =>
      (SEVERITY_ORDER[a.severity] ?? 3) - (SEVERITY_ORDER[b.severity] ?? 3));
    list.replaceChildren(...findings.map((f) => {
      const li = document.createElement("li");
      li.className = f.severity;
      li.dataset.id = f.id;
      const sev = document.createElement("span");
      sev.className = "severity";
      sev.textContent = f.severity.toUpperCase();
      const title = document.createElement("span");
      title.className = "title";
      title.textContent = f.title; // text only: titles carry error texts from the database
      const how = document.createElement("code");
      how.textContent = "outboxctl doctor --check " + f.id;
      li.append(sev, title, how);
      return li;
    }));
    note.classList.toggle("ok", findings.length === 0 && !msg.error);
    note.textContent = msg.error ? "the doctor cannot read the database: " + msg.error
      : findings.length === 0 ? "nothing needs attention" : "";
    note.hidden = note.textContent === "";
    document.body.dataset.findings = String(findings.length);
  }

  function setConnection(state, text) {
    document.body.classList.remove("live", "connecting", "disconnected");
    document.body.classList.add(state);
    document.getElementById("connection").textContent = tr(text);
  }

  function checkStale() {
    const age = lastSnapshotAt ? (Date.now() - lastSnapshotAt) / 1000 : null;
    let reason = "";
    if (lastSamplerError) reason = tr("the server cannot read the database: %1", lastSamplerError);
    else if (!socket || socket.readyState !== WebSocket.OPEN) reason = tr("not connected to the server");
    else if (age !== null && age * 1000 > 3 * intervalMs) reason = tr("no update for %1s", Math.round(age));
    // The first connection attempt is "connecting", not stale; after that any gap is stale.
    const firstAttempt = lastSnapshotAt === 0 && socket && socket.readyState === WebSocket.CONNECTING && retryMs === 1000;
    const stale = reason !== "" && !firstAttempt;
    document.body.classList.toggle("stale", stale);
    document.getElementById("stale-banner").hidden = !stale;
    document.getElementById("stale-reason").textContent = reason + (age !== null ? tr(" (last data %1s ago)", Math.round(age)) : "");
    document.getElementById("updated").textContent = age === null ? tr("no data yet") : tr("updated %1s ago", Math.round(age));
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    setConnection("connecting", "connecting…");
    socket = new WebSocket(scheme + location.host + "/ws");
    socket.onopen = () => socket.send(JSON.stringify({ type: "auth", token: oidc ? window.OutboxSignIn.token() : token }));
    socket.onmessage = (m) => {
      const msg = JSON.parse(m.data);
      if (msg.type === "welcome") {
        intervalMs = msg.interval_ms || intervalMs;
        relayStaleAfterMs = msg.relay_stale_after_ms || relayStaleAfterMs;
        retryMs = 1000;
        tokenRejected = false;
        if (msg.fleet) {
          document.body.classList.add("fleet");
          document.getElementById("wall").hidden = false;
        }
        document.getElementById("token-form").hidden = true;
        setConnection("live", "live");
      } else if (msg.type === "snapshot") {
        intervalMs = msg.interval_ms || intervalMs;
        lastSnapshotAt = Date.now();
        lastSamplerError = "";
        render(msg.snapshot);
        document.body.dataset.snapshots = String(Number(document.body.dataset.snapshots || 0) + 1);
      } else if (msg.type === "fleet") {
        intervalMs = msg.interval_ms || intervalMs;
        lastSnapshotAt = Date.now();
        lastSamplerError = "";
        renderFleet(msg);
      } else if (msg.type === "history") {
        renderHistory(msg);
      } else if (msg.type === "findings") {
        renderFindings(msg);
      } else if (msg.type === "sampler_error") {
        lastSamplerError = msg.message;
      } else if (msg.type === "error") {
        // Signed in with the identity provider: an expired token means signing in again.
        if (oidc && window.OutboxSignIn.reauthenticate()) return;
        tokenRejected = true;
        document.getElementById("token-form").hidden = false;
      }
      checkStale();
    };
    socket.onclose = () => {
      setConnection("disconnected", tokenRejected ? "token needed" : "reconnecting…");
      checkStale();
      setTimeout(connect, tokenRejected ? 10000 : retryMs);
      retryMs = Math.min(retryMs * 2, 15000);
    };
  }

  document.getElementById("token-form").addEventListener("submit", (e) => {
    e.preventDefault();
    token = document.getElementById("token-input").value.trim();
    sessionStorage.setItem("outbox-token", token);
    tokenRejected = false;
    if (socket) socket.close();
  });
  setInterval(checkStale, 1000);
  // With an identity provider, its sign-in first (a redirect there and back without a token).
  let oidc = false;
  const signIn = window.OutboxSignIn ? window.OutboxSignIn.begin() : Promise.resolve({ oidc: false });
  signIn.then((r) => {
    oidc = r.oidc;
    if (oidc) document.getElementById("token-form").hidden = true;
    // A token renewed before it expires goes to the open socket, which then stays open.
    if (oidc) window.OutboxSignIn.onRenewed((t) => {
      if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "auth", token: t }));
    });
    connect();
  }, (e) => {
    setConnection("disconnected", "sign-in failed");
    document.getElementById("updated").textContent = e.message;
  });
})();
