// Scorepad service worker ({{ version }}): the app shell is cached so the app opens with no
// connection. Pages are fetched fresh whenever the network is there (scores must never be stale);
// the last copy of each page seen is kept, so a reload with no connection shows the last scores
// (the page says it is a copy, and from when: js/outbox.js) instead of the browser's error page.
// A service worker needs a secure context: HTTPS (docs/https.md) or localhost, not plain HTTP on a LAN.
const CACHE = {{ version|tojson }};
const PAGES = "scorepad-pages";  // kept across versions: a page's copy outlives an update of the app
const KEEP_PAGES = 40;  // the last pages seen, oldest dropped first
const SAVED = "X-Scorepad-Saved-At";  // when the copy was taken (ms since 1970)
// The pages worth a copy: the scorer's (/g/), a table's (/t/), the spectators' (/w/), the standings
// (/b/) and a team's (/team/). Not the director's room or the QR sheet: a shared phone need not keep them.
const KEPT = /^\/(g|t|w|b|team)\/[^/]+(\/standings)?$/;
const SHELL = {{ shell|tojson }};
const OFFLINE = {{ url_for('pwa.offline')|tojson }};

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE && k !== PAGES).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

// Keep a page's copy, stamped with the time; only a whole page the server gave (200, same origin).
function keep(request, response) {
  if (!KEPT.test(new URL(request.url).pathname)) return Promise.resolve();
  if (!response || response.status !== 200 || !["basic", "default"].includes(response.type) || response.redirected) {
    return Promise.resolve();
  }
  const type = response.headers.get("Content-Type") || "";
  if (!type.startsWith("text/html")) return Promise.resolve();
  const stamp = Date.now();
  // the body as the page got it: the headers that described the bytes on the wire go
  const headers = new Headers(response.headers);
  ["Content-Encoding", "Content-Length", "Transfer-Encoding"].forEach((name) => headers.delete(name));
  headers.set(SAVED, String(stamp));
  return response.blob().then((body) => inTurn(() => caches.open(PAGES).then((cache) =>
    cache.match(request, { ignoreVary: true }).then((old) => {
      // a page's own copy, sent after it changed, is newer than a download of the page that ends after it
      if (old && Number(old.headers.get(SAVED) || 0) > stamp) return undefined;
      return cache.delete(request, { ignoreVary: true })  // put again: the newest copy goes last in the keys' order
        .then(() => cache.put(request, new Response(body, { status: 200, statusText: "OK", headers })))
        .then(() => cache.keys())
        .then((keys) => Promise.all(keys.slice(0, Math.max(0, keys.length - KEEP_PAGES)).map((k) => cache.delete(k))));
    }))));
}

// One change to the pages' cache at a time: two copies of a page (its download, its own copy sent a
// moment later) must not interleave their look-up, delete and put.
let turn = Promise.resolve();
function inTurn(change) {
  turn = turn.then(change, change);
  return turn;
}

// The last copy of a page, marked as one (<body data-saved-at>), so the page can say so.
function lastCopy(request) {
  return caches.open(PAGES).then((cache) => cache.match(request, { ignoreVary: true })).then((hit) => {
    if (!hit) return undefined;
    const saved = hit.headers.get(SAVED) || "0";
    return hit.text().then((html) => new Response(html.replace("<body", `<body data-saved-at="${saved}"`),
                                                  { status: 200, headers: hit.headers }));
  });
}

// A page sends its own copy after it changed on screen (a hand entered, a live update): the copy a
// reload falls back to is then the page as last seen, not as first loaded.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type !== "keep-copy" || typeof data.url !== "string" || typeof data.html !== "string") return;
  const url = new URL(data.url, self.location.origin);
  if (url.origin !== self.location.origin || url.pathname === OFFLINE) return;
  url.hash = "";
  const page = new Response(data.html, { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } });
  event.waitUntil(keep(new Request(url.href), page));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") {
    if (request.mode === "navigate") {
      // A plain form sent with no connection (correcting a hand, signing): say so, not the browser's error page.
      event.respondWith(fetch(request).catch(() => caches.match(OFFLINE, { ignoreSearch: true, ignoreVary: true }).then((page) =>
        page ? page.text().then((html) => new Response(html.replace("<body", '<body data-not-sent="1"'),
                                                       { status: 503, headers: page.headers }))
             : Response.error())));
    }
    return;
  }
  if (request.headers.get("Accept") === "text/event-stream") return; // live streams pass straight through
  if (url.pathname.startsWith("/static/")) {
    // Static URLs carry a hash of the file (?v=...): a cached copy is good until the URL changes.
    // With no connection, a page's copy from before an update may name an older hash: the file
    // as it is now is better than none.
    event.respondWith(
      caches.match(request).then((hit) => hit || fetch(request).then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return response;
      }).catch(() => caches.match(request, { ignoreSearch: true }).then((old) => old || Response.error())))
    );
    return;
  }
  if (request.mode === "navigate") {
    // Network first; with no network, the last copy of the page, else the offline page.
    event.respondWith(
      fetch(request).then((response) => {
        event.waitUntil(keep(request, response.clone()));
        return response;
      // (pages vary by language, Cookie and Accept-Language: a copy in another language beats none)
      }).catch(() => lastCopy(request).then((copy) => copy || caches.match(request, { ignoreVary: true })
        .then((hit) => hit || caches.match(OFFLINE, { ignoreVary: true }))))
    );
  }
});
