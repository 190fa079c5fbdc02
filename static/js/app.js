// Scorepad's small amount of glue around htmx.
document.addEventListener("DOMContentLoaded", function () {
  if (!window.htmx) return;
  // Swap 422 responses too: they carry the form with its error messages (the status stays the truth).
  htmx.config.responseHandling = [
    { code: "204", swap: false },
    { code: "[23]..", swap: true },
    { code: "422", swap: true },
    { code: "409", swap: true },
    { code: "[45]..", swap: false, error: true },
  ];
  // Send the CSRF token with every htmx request.
  document.body.addEventListener("htmx:configRequest", function (event) {
    var meta = document.querySelector('meta[name="csrf-token"]');
    if (meta) event.detail.headers["X-CSRFToken"] = meta.content;
  });
});

// Say plainly when the phone cannot reach the server: the browser's own flag, and any request
// that fails to get through (venue Wi-Fi often stays "online" while the server is out of reach).
(function () {
  function banner(offline) {
    var el = document.querySelector(".offline-banner");
    if (el) el.hidden = !offline;
  }
  window.addEventListener("online", function () { banner(false); });
  window.addEventListener("offline", function () { banner(true); });
  document.addEventListener("DOMContentLoaded", function () { banner(!navigator.onLine); });
  document.addEventListener("htmx:sendError", function () { banner(true); });
  document.addEventListener("htmx:afterRequest", function (e) { if (e.detail.xhr && e.detail.xhr.status) banner(false); });
  document.addEventListener("htmx:sseError", function () { banner(true); });
  document.addEventListener("htmx:sseOpen", function () { banner(false); });
})();

// Install the service worker (it caches the app shell so the app opens offline).
if ("serviceWorker" in navigator) {
  window.addEventListener("load", function () {
    navigator.serviceWorker.register("/sw.js", { scope: "/" });
  });
}

// Steppers (− count +), the "tricks to share out" counter, recent-name chips, Whist's other side.
document.addEventListener("click", function (event) {
  var step = event.target.closest("[data-step]");
  if (step) {
    var input = step.closest("[data-stepper]").querySelector("input");
    var next = (parseInt(input.value, 10) || 0) + parseInt(step.dataset.step, 10);
    var max = input.max === "" ? Infinity : parseInt(input.max, 10);
    input.value = Math.max(0, Math.min(max, next));
    input.dispatchEvent(new Event("input", { bubbles: true }));
    return;
  }
  var fill = event.target.closest("[data-fill-name]");
  if (fill) {
    var empty = Array.prototype.find.call(document.querySelectorAll('input[name^="name."]'), function (i) { return !i.value.trim(); });
    if (empty) { empty.value = fill.dataset.fillName; empty.focus(); }
  }
});

function updateCounts(root) {
  (root || document).querySelectorAll("[data-count-total]").forEach(function (form) {
    var out = form.querySelector("[data-remaining] output");
    if (!out) return;
    var sum = 0;
    form.querySelectorAll('input[name^="tricks."]').forEach(function (i) { sum += parseInt(i.value, 10) || 0; });
    var left = parseInt(form.dataset.countTotal, 10) - sum;
    out.textContent = left;
    out.parentElement.classList.toggle("off", left !== 0);
  });
  (root || document).querySelectorAll("[data-whist]").forEach(function (form) {
    var chosen = form.querySelector('input[name="tricks"]:checked');
    var other = form.querySelector("[data-other-side]");
    if (chosen && other) other.textContent = other.dataset.team + " took " + (13 - parseInt(chosen.value, 10)) + ".";
  });
}
document.addEventListener("input", function (event) {
  updateCounts();
  var match = event.target.name && event.target.name.match(/^name\.(\d+)$/);
  if (match) {  // show typed names in the "Who deals first?" choice at once
    var label = document.querySelector('[data-seat-label="' + match[1] + '"]');
    if (label) label.textContent = event.target.value.trim() || label.dataset.default;
  }
});
document.addEventListener("change", function () { updateCounts(); });
document.addEventListener("DOMContentLoaded", function () { updateCounts(); });
document.addEventListener("htmx:afterSwap", function () { updateCounts(); });
