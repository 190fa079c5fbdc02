// The outbox: no tap is lost on flaky Wi-Fi (issue 13).
//
// Every write a page sends through htmx carries an Idempotency-Key made on the phone. When the
// request cannot reach the server (no network, a timeout, an answer lost on the way back), the
// write is kept in this phone's own storage (localStorage: it works over plain HTTP, where there
// is no service worker), marked "waiting to send" where it was tapped and in a bar at the top, and
// sent again by itself, with the same key, when the connection comes back (the online event, and
// retries with backoff), also after a reload or after the phone slept. The server answers a key it
// has seen with its first answer and never applies it twice (scorepad/idempotency.py).
//
// While an entry waits, the next write waits too, and the page says why: the next bid or hand
// depends on the one before, which only the server can check. When a waiting entry is refused
// (another phone entered that hand meanwhile), the server's words say what is recorded and what
// was not applied, and the page is redrawn from what the server kept.
(function () {
  "use strict";
  var STORE = "scorepad.outbox";
  var UNSAFE = { post: true, put: true, patch: true, delete: true };
  var FIRST_DELAY = 2000, MAX_DELAY = 30000;
  var delay = FIRST_DELAY, timer = null, sending = false, offlineSince = null;

  function load() {
    try { return JSON.parse(localStorage.getItem(STORE) || "[]") || []; } catch (e) { return []; }
  }
  function save(items) {
    try { localStorage.setItem(STORE, JSON.stringify(items)); } catch (e) { /* storage full or off: nothing to do */ }
  }
  function newKey() {  // crypto.randomUUID needs a secure context; getRandomValues does not
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return "tap-" + Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function clock(ms) {
    var d = new Date(ms);
    return ("0" + d.getHours()).slice(-2) + ":" + ("0" + d.getMinutes()).slice(-2);
  }
  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  // What the player tapped, in the page's words: the button's label, else the form's.
  function label(detail) {
    var event = detail.requestConfig && detail.requestConfig.triggeringEvent;
    var button = (event && event.submitter) || (detail.elt && detail.elt.closest && detail.elt.closest("button"));
    var text = button ? (button.getAttribute("aria-label") || button.textContent) : "";
    if (!text && detail.elt) text = detail.elt.getAttribute("aria-label") || "";
    return (text || "your entry").replace(/\s+/g, " ").trim().slice(0, 80);
  }

  function bar() {
    var el = document.querySelector(".outbox-bar");
    if (!el) return;
    var items = load();
    if (!items.length) {
      el.hidden = true;
      return;
    }
    var since = offlineSince || items[0].at;
    var words = navigator.onLine && !offlineSince ? "Sending " : "Offline since " + clock(since) + " · ";
    el.textContent = words + plural(items.length, "entry") + " waiting to send (first: " + items[0].label +
      ", tapped at " + clock(items[0].at) + "). They are sent by themselves when the connection is back.";
    el.hidden = false;
  }

  function note(elt, kind, text) {  // beside what was tapped: what waits, and why another tap must wait
    var form = elt && (elt.closest ? elt.closest("form") || elt : elt);
    if (!form || !form.parentNode) return;
    var p = form.parentNode.querySelector('.outbox-note[data-kind="' + kind + '"]');
    if (!p) {
      p = document.createElement("p");
      p.className = "outbox-note";
      p.dataset.kind = kind;
      p.setAttribute("role", "status");
      form.parentNode.insertBefore(p, form.nextSibling);
    }
    p.textContent = text;
  }

  function say(text) {  // the server refused a waiting entry: keep its words on screen
    var box = document.querySelector(".request-error");
    if (!box) return;
    box.querySelector("p").textContent = text;
    box.hidden = false;
  }

  function serverWords(status, text) {
    try {
      var doc = new DOMParser().parseFromString(text || "", "text/html");
      var found = doc.querySelectorAll(".notice, .field-error, main h1 + p");
      var words = Array.prototype.map.call(found, function (el) { return el.textContent.trim(); }).filter(Boolean);
      if (words.length) return words.slice(0, 2).join(" ");
      var plain = (doc.body ? doc.body.textContent : text || "").trim();
      if (plain && plain.length < 300) return plain;
    } catch (e) { /* fall through */ }
    return "the server refused it (error " + status + ")";
  }

  function redraw() {  // the page again, as the server has it now
    fetch(window.location.href, { credentials: "same-origin" }).then(function (r) { return r.text(); }).then(function (html) {
      var main = document.querySelector("#main");
      if (main && window.htmx) htmx.swap(main, html, { swapStyle: "outerHTML" }, { select: "#main" });
    }).catch(function () { /* offline again: the next flush redraws */ });
  }

  function schedule() {
    clearTimeout(timer);
    if (!load().length) return;
    timer = setTimeout(flush, delay);
    delay = Math.min(delay * 2, MAX_DELAY);
  }

  function flush() {
    clearTimeout(timer);
    var items = load();
    if (sending || !items.length) { bar(); return; }
    sending = true;
    var item = items[0];
    var headers = { "Idempotency-Key": item.key, "HX-Request": "true",
                    "Content-Type": "application/x-www-form-urlencoded;charset=UTF-8" };
    if (item.csrf) headers["X-CSRFToken"] = item.csrf;
    fetch(item.url, { method: item.verb.toUpperCase(), headers: headers, credentials: "same-origin",
                      body: new URLSearchParams(item.params).toString() })
      .then(function (r) { return r.text().then(function (text) { return { r: r, text: text }; }); })
      .then(function (res) {
        sending = false;
        if (res.r.status === 409 && res.r.headers.get("Retry-After")) {  // its first try is still being served
          delay = 1000;
          schedule();
          return;
        }
        save(load().filter(function (i) { return i.key !== item.key; }));
        offlineSince = null;
        delay = FIRST_DELAY;
        if (!res.r.ok) {
          say("Your entry \"" + item.label + "\" (tapped at " + clock(item.at) + ") was not applied: " +
              serverWords(res.r.status, res.text));
        }
        if (load().length) {
          flush();
        } else {
          bar();
          redraw();  // shows what the server kept, and drops the "waiting" notes with the old page
        }
      }, function () {  // still no connection
        sending = false;
        offlineSince = offlineSince || Date.now();
        bar();
        schedule();
      });
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (!window.htmx) return;
    // A request that hangs on weak Wi-Fi ends, and goes to the outbox, instead of spinning for ever.
    htmx.config.timeout = 15000;
    bar();
    if (load().length) flush();
  });

  document.addEventListener("htmx:configRequest", function (event) {
    var d = event.detail;
    if (UNSAFE[d.verb]) d.headers["Idempotency-Key"] = newKey();
  });

  // One entry at a time: while one waits, say why the next must wait too.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var config = event.detail.requestConfig;
    if (!config || !UNSAFE[config.verb] || !load().length) return;
    event.preventDefault();
    note(event.detail.elt, "wait", "Not sent yet: your entry \"" + load()[0].label + "\" is still waiting to be sent, and this " +
      "one depends on it. Tap again once it has gone (it is sent as soon as the connection is back).");
    flush();
  });

  function keep(event) {
    var d = event.detail, config = d.requestConfig;
    if (!config || !UNSAFE[config.verb] || !config.headers["Idempotency-Key"]) return;
    var params = [];
    if (config.formData) config.formData.forEach(function (value, name) { if (typeof value === "string") params.push([name, value]); });
    var item = { key: config.headers["Idempotency-Key"], url: config.path, verb: config.verb, params: params,
                 csrf: config.headers["X-CSRFToken"] || "", label: label(d), at: Date.now() };
    var items = load();
    if (!items.some(function (i) { return i.key === item.key; })) items.push(item);
    save(items);
    offlineSince = offlineSince || Date.now();
    note(d.elt, "waiting", "Waiting to send: " + item.label + " (tapped at " + clock(item.at) + "). It is sent by itself when the " +
      "connection is back.");
    bar();
    delay = FIRST_DELAY;
    schedule();
  }
  document.addEventListener("htmx:sendError", keep);
  document.addEventListener("htmx:timeout", keep);

  window.addEventListener("online", function () { delay = FIRST_DELAY; flush(); });
  window.addEventListener("offline", function () { offlineSince = offlineSince || Date.now(); bar(); });
  document.addEventListener("visibilitychange", function () { if (!document.hidden && load().length) flush(); });
})();
