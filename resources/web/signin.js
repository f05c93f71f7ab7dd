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
// - 401 (the token expired or was refused) starts a new sign-in; a 401 for a token not 10 s old
//   is shown instead (no loop between the provider and a server that refuses its tokens).
(function () {
  "use strict";
  const PENDING = "outbox-oidc-pending:";
  let settings = null; // GET /api/v1/auth
  let accessToken = "";
  let expiresAt = 0;
  let tokenAt = 0;

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
      answer = { code: params.get("code"), error: params.get("error"), verifier: pending.verifier };
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

  // Off to the provider's own sign-in page; the page unloads.
  async function redirect() {
    const s = await loadSettings();
    const verifier = random();
    const state = random();
    const challenge = b64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
    sessionStorage.setItem(PENDING + state, JSON.stringify({
      verifier, returnTo: location.pathname + location.search + location.hash }));
    const url = new URL(s.authorization_endpoint);
    url.search = new URLSearchParams({
      response_type: "code", response_mode: "form_post", client_id: s.client_id, redirect_uri: redirectUri(),
      scope: s.scopes, state, code_challenge: challenge, code_challenge_method: "S256" }).toString();
    location.assign(url.toString());
    return new Promise(() => {});
  }

  async function exchange(s) {
    const r = await fetch(s.token_endpoint, {
      method: "POST", cache: "no-store", credentials: "omit", referrerPolicy: "no-referrer",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", code: answer.code, redirect_uri: redirectUri(),
                                  client_id: s.client_id, code_verifier: answer.verifier }).toString() });
    answer = null;
    if (!r.ok) throw new Error("the identity provider refused the sign-in (" + r.status + ")");
    const body = await r.json();
    accessToken = body.access_token || "";
    tokenAt = Date.now();
    expiresAt = tokenAt + 1000 * (Number(body.expires_in) || 0);
    if (!accessToken) throw new Error("the identity provider gave no access token");
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
        answer = null;
        throw new Error(why === "state" ? "the sign-in answer did not belong to this page; reload to sign in again"
                                        : "the identity provider refused the sign-in (" + why + ")");
      }
      return redirect();
    },
    enabled() { return !!(settings && settings.oidc); },
    token() { return accessToken; },
    expiresAt() { return expiresAt; },
    // A 401: sign in again, unless the token was fresh (then false: the page shows the refusal
    // rather than going round in circles between the provider and a server that refuses it).
    reauthenticate() {
      if (accessToken && Date.now() - tokenAt < 10000) return false;
      accessToken = "";
      redirect();
      return true;
    },
    signOut() {
      accessToken = "";
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
