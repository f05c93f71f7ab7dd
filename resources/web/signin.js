// Sign-in with the company's identity provider (OpenID Connect, authorization code with PKCE) for
// the wall (/) and the console (/console/). A classic script, loaded before the pages' own code.
//
// Where things live (docs/security.md, "Sign in with your identity provider"):
// - The access token lives in this page's memory only: never in a cookie, storage or an address.
//   The server takes no cookies at all. A new page (the console opened from the wall) signs in
//   again; the provider's own session makes that a redirect without a login form.
// - The provider answers with response_mode=form_post: the code comes back in the body of a POST
//   to the page's own address (/ or /console/), which the server answers with the page and the
//   code in a <meta> element; the code is never in an address, a history entry or a Referer.
// - Until the provider answers, sessionStorage holds the PKCE verifier, the state and the address
//   to come back to, keyed by the state; they are removed when the answer arrives.
// - Who exchanges the code: this page at the provider's token endpoint for a public client; the
//   server (POST /api/v1/auth/token, which adds the client secret) for a confidential one. Either
//   way the tokens come back to this page's memory.
// - Renewal before expiry: with a refresh token (the provider's answer had one), a new access token
//   is fetched a third of its lifetime (at most a minute) before it expires, the same way as the
//   code was exchanged; the pages hand it to their open /ws sockets. Without one, the page goes to
//   the provider with prompt=none at that time and comes back to the same view (no form while the
//   provider's session lasts).
// - 401 (the token expired or was refused) starts a new sign-in; a 401 for a token not 10 s old
//   is shown instead (no loop between the provider and a server that refuses its tokens).
(function () {
  "use strict";
  const PENDING = "outbox-oidc-pending:";
  let settings = null; // GET /api/v1/auth
  let accessToken = "";
  let refreshToken = "";
  let expiresAt = 0;
  let tokenAt = 0;
  let renewTimer = 0;
  const renewed = new Set(); // callbacks(token) after a renewal

  function b64url(bytes) {
    let s = "";
    for (const b of new Uint8Array(bytes)) s += String.fromCharCode(b);
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function random() {
    return b64url(crypto.getRandomValues(new Uint8Array(32)));
  }

  // The provider's answer, taken at once (before the pages' modules read the address): the page
  // goes back to the address it left from (its ?member= and #/view), in the same document.
  let answer = null;
  const meta = document.querySelector('meta[name="outbox-signin"]');
  if (meta) {
    const params = new URLSearchParams(meta.getAttribute("content") || "");
    meta.remove();
    const state = params.get("state") || "";
    const saved = state ? sessionStorage.getItem(PENDING + state) : null;
    if (state) sessionStorage.removeItem(PENDING + state);
    if (saved) {
      const pending = JSON.parse(saved);
      answer = { code: params.get("code"), error: params.get("error"), verifier: pending.verifier,
                 silent: !!pending.silent };
      history.replaceState(null, "", pending.returnTo);
    } else {
      answer = { error: "state" };
      history.replaceState(null, "", location.pathname);
    }
  }

  function redirectUri() {
    return location.origin + (location.pathname.startsWith("/console/") ? "/console/" : "/");
  }

  async function loadSettings() {
    if (settings) return settings;
    const r = await fetch("/api/v1/auth", { cache: "no-store" });
    settings = r.ok ? await r.json() : { oidc: false };
    return settings;
  }

  // Off to the provider's own sign-in page (silent: prompt=none, a renewal without a form); the
  // page unloads.
  async function redirect(silent) {
    const s = await loadSettings();
    const verifier = random();
    const state = random();
    const challenge = b64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
    sessionStorage.setItem(PENDING + state, JSON.stringify({
      verifier, silent: !!silent, returnTo: location.pathname + location.search + location.hash }));
    const params = {
      response_type: "code", response_mode: "form_post", client_id: s.client_id, redirect_uri: redirectUri(),
      scope: s.scopes, state, code_challenge: challenge, code_challenge_method: "S256" };
    if (silent) params.prompt = "none";
    const url = new URL(s.authorization_endpoint);
    url.search = new URLSearchParams(params).toString();
    location.assign(url.toString());
    return new Promise(() => {});
  }

  // Posts a grant where this client exchanges it: the provider's token endpoint (a public client)
  // or the server, which adds the client secret (a confidential one). Resolves the tokens, or
  // rejects with {status, message}.
  async function grant(s, fields) {
    let r;
    if (s.token_exchange === "server") {
      r = await fetch("/api/v1/auth/token", {
        method: "POST", cache: "no-store", credentials: "omit",
        headers: { "Content-Type": "application/json" }, body: JSON.stringify(fields) });
    } else {
      r = await fetch(s.token_endpoint, {
        method: "POST", cache: "no-store", credentials: "omit", referrerPolicy: "no-referrer",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ ...fields, client_id: s.client_id }).toString() });
    }
    let body = null;
    try { body = await r.json(); } catch (_) { body = null; }
    if (!r.ok || !body || !body.access_token) {
      const why = body && (body.error_description || body.error);
      const e = new Error(s.token_exchange === "server" && body && body.error ? body.error
        : "the identity provider refused the sign-in (" + (why || r.status) + ")");
      e.status = r.status;
      throw e;
    }
    return body;
  }

  function take(body) {
    accessToken = body.access_token || "";
    if (body.refresh_token) refreshToken = body.refresh_token;
    tokenAt = Date.now();
    const lifetime = 1000 * (Number(body.expires_in) || 0);
    expiresAt = tokenAt + lifetime;
    clearTimeout(renewTimer);
    // Renew a third of the lifetime (at most a minute) before the token expires.
    if (lifetime > 0) renewTimer = setTimeout(renew, Math.max(1000, lifetime - Math.min(60000, lifetime / 3)));
  }

  async function exchange(s) {
    const code = answer.code;
    const verifier = answer.verifier;
    answer = null;
    take(await grant(s, { grant_type: "authorization_code", code, code_verifier: verifier,
                          redirect_uri: redirectUri() }));
    if (!accessToken) throw new Error("the identity provider gave no access token");
  }

  // Before the access token expires: a new one with the refresh token, in place; without one (or
  // when the provider refuses it), a silent redirect to the provider and back.
  async function renew() {
    const s = await loadSettings();
    if (!refreshToken) return redirect(true);
    try {
      take(await grant(s, { grant_type: "refresh_token", refresh_token: refreshToken }));
      for (const fn of [...renewed]) fn(accessToken);
    } catch (e) {
      refreshToken = "";
      // The provider or the server did not answer: try again while the token lasts.
      if ((e.status === 0 || e.status === undefined || e.status >= 500) && e.status !== 502 &&
          Date.now() < expiresAt - 5000) {
        renewTimer = setTimeout(renew, 3000);
        return;
      }
      redirect(true);
    }
  }

  window.OutboxSignIn = {
    // {oidc: false} when serve knows static tokens only; else signs in (redirecting when there is
    // no answer from the provider yet) and resolves {oidc: true} once a token is in memory.
    async begin() {
      const s = await loadSettings();
      if (!s.oidc) return { oidc: false };
      if (answer && answer.code) {
        await exchange(s);
        return { oidc: true };
      }
      if (answer && answer.error) {
        const why = answer.error;
        const silent = answer.silent;
        answer = null;
        // A silent renewal the provider could not do without the person (login_required,
        // consent_required, …): its sign-in page, once.
        if (silent && why !== "state") return redirect(false);
        throw new Error(why === "state" ? "the sign-in answer did not belong to this page; reload to sign in again"
                                        : "the identity provider refused the sign-in (" + why + ")");
      }
      return redirect(false);
    },
    enabled() { return !!(settings && settings.oidc); },
    token() { return accessToken; },
    expiresAt() { return expiresAt; },
    // fn(token) after each renewal in place (the pages hand it to their open /ws sockets).
    onRenewed(fn) { renewed.add(fn); return () => renewed.delete(fn); },
    // A 401: sign in again, unless the token was fresh (then false: the page shows the refusal
    // rather than going round in circles between the provider and a server that refuses it).
    reauthenticate() {
      if (accessToken && Date.now() - tokenAt < 10000) return false;
      accessToken = "";
      clearTimeout(renewTimer);
      redirect(false);
      return true;
    },
    signOut() {
      accessToken = "";
      refreshToken = "";
      clearTimeout(renewTimer);
      const s = settings || {};
      if (s.end_session_endpoint) {
        const url = new URL(s.end_session_endpoint);
        url.search = new URLSearchParams({ client_id: s.client_id }).toString();
        location.assign(url.toString());
      } else {
        location.reload();
      }
    },
  };
})();
