// Scorepad's small amount of glue around htmx.
document.addEventListener("DOMContentLoaded", function () {
  if (!window.htmx) return;
  // Swap 422 responses too: they carry the form with its error messages (the status stays the truth).
  htmx.config.responseHandling = [
    { code: "204", swap: false },
    { code: "[23]..", swap: true },
    { code: "422", swap: true },
    { code: "[45]..", swap: false, error: true },
  ];
  // Send the CSRF token with every htmx request.
  document.body.addEventListener("htmx:configRequest", function (event) {
    var meta = document.querySelector('meta[name="csrf-token"]');
    if (meta) event.detail.headers["X-CSRFToken"] = meta.content;
  });
});

// Say plainly when the phone has lost the connection.
(function () {
  function show() {
    var banner = document.querySelector(".offline-banner");
    if (banner) banner.hidden = navigator.onLine;
  }
  window.addEventListener("online", show);
  window.addEventListener("offline", show);
  document.addEventListener("DOMContentLoaded", show);
})();

// Install the service worker (it caches the app shell so the app opens offline).
if ("serviceWorker" in navigator) {
  window.addEventListener("load", function () {
    navigator.serviceWorker.register("/sw.js", { scope: "/" });
  });
}
