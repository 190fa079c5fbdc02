// Scorepad service worker ({{ version }}): the app shell is cached so the app opens with no
// connection; pages are fetched fresh when the network is there (scores must never be stale).
const CACHE = {{ version|tojson }};
const SHELL = {{ shell|tojson }};
const OFFLINE = {{ url_for('pwa.offline')|tojson }};

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.headers.get("Accept") === "text/event-stream") return; // live streams pass straight through
  if (url.pathname.startsWith("/static/")) {
    // Static URLs carry a hash of the file (?v=...): a cached copy is good until the URL changes.
    event.respondWith(
      caches.match(request).then((hit) => hit || fetch(request).then((response) => {
        const copy = response.clone();
        caches.open(CACHE).then((cache) => cache.put(request, copy));
        return response;
      }))
    );
    return;
  }
  if (request.mode === "navigate") {
    // Network first; with no network, the last copy of the page, else the offline page.
    event.respondWith(
      fetch(request).then((response) => {
        const copy = response.clone();
        caches.open(CACHE).then((cache) => cache.put(request, copy));
        return response;
      }).catch(() => caches.match(request).then((hit) => hit || caches.match(OFFLINE)))
    );
  }
});
