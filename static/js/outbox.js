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
// was not applied, and the page is redrawn from what the server kept; so do they when an entry was
// recorded on its first try but its game changed since (an undo: `Idempotent-Changed`). Once the
// waiting entries are sent, the bar says so. The outbox is the phone's, not the tab's: any open page of the app may
// send what waits, and every page hears of it (the storage event), says it, and redraws.
//
// "Recorded" is said only of what the server says it recorded (`Idempotent-Recorded: true`,
// scorepad/idempotency.py). A tap that records nothing by itself (a Military table's keypad asks
// for a preview, and its Confirm records the hand: issue 32, item 1) is shown as the server
// answered it, where it was tapped, when that answer is a preview (`data-preview`) and the page
// still shows the place it goes: the bar says it is not recorded yet, to check and confirm.
// Anywhere else the bar says that nothing was recorded, to tap it again.
//
// Where there is a service worker (HTTPS, or localhost; templates/pwa/sw.js), the page also sends
// it a copy of itself each time it changed on screen, and a reload with no connection shows that
// copy, marked <body data-saved-at>: the bar then says it is the page as last seen, and from when;
// the page is brought up to date as soon as the server answers again. Over plain HTTP a reload
// with no connection shows the browser's own error page: nothing on the page can change that.
(function () {
  "use strict";
  var STORE = "scorepad.outbox", SINCE = "scorepad.offlineSince", SENT = "scorepad.outbox.sent";
  var UNSAFE = { post: true, put: true, patch: true, delete: true };
  var FIRST_DELAY = 2000, MAX_DELAY = 30000, COPY_RETRY = 10000;
  var delay = FIRST_DELAY, timer = null, sending = false, told = {}, oldNews = {}, shownHere = {};

  function load() {
    try { return JSON.parse(localStorage.getItem(STORE) || "[]") || []; } catch (e) { return []; }
  }
  function save(items) {
    try { localStorage.setItem(STORE, JSON.stringify(items)); } catch (e) { /* storage full or off: nothing to do */ }
  }
  // What was sent from the outbox since the last new entry, and what the server said: shared by the
  // phone's open pages, so the page it was tapped on hears of it even if another page sent it.
  function loadSent() {
    try { return JSON.parse(localStorage.getItem(SENT) || "[]") || []; } catch (e) { return []; }
  }
  // ok: applied as sent (2xx, the game not changed since); recorded: the server says it recorded it.
  function logSent(item, ok, words, changed, recorded) {
    var log = loadSent();
    if (log.some(function (i) { return i.key === item.key; })) return;  // another page sent it too: its answer counts
    log = log.concat([{ key: item.key, label: item.label, at: item.at, ok: ok, words: words, changed: !!changed,
                        recorded: !!recorded }]).slice(-10);
    try { localStorage.setItem(SENT, JSON.stringify(log)); } catch (e) { /* storage off */ }
  }
  function forgetSent() {
    shownHere = {};
    try { localStorage.removeItem(SENT); } catch (e) { /* storage off */ }
  }
  // Since when the server has been out of reach: kept with the outbox, so a reload still knows.
  function offlineSince() {
    try { return parseInt(localStorage.getItem(SINCE), 10) || null; } catch (e) { return null; }
  }
  function markOffline() {
    try { if (!offlineSince()) localStorage.setItem(SINCE, String(Date.now())); } catch (e) { /* storage off */ }
  }
  function markOnline() {  // the server answered: the page's "You are offline" goes too (app.js sets it)
    try { localStorage.removeItem(SINCE); } catch (e) { /* storage off */ }
    var banner = document.querySelector(".offline-banner");
    if (banner) banner.hidden = true;
  }
  function savedCopy() {  // the time of the copy shown, when this page is the service worker's copy
    return parseInt(document.body && document.body.dataset.savedAt, 10) || 0;
  }
  function newKey() {  // crypto.randomUUID needs a secure context; getRandomValues does not
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return "tap-" + Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function here() { return window.location.pathname + window.location.search; }
  function clock(ms) {
    var d = new Date(ms);
    return ("0" + d.getHours()).slice(-2) + ":" + ("0" + d.getMinutes()).slice(-2);
  }

  // What the player tapped, in the page's words: the button's label, else the form's.
  function label(detail) {
    var event = detail.requestConfig && detail.requestConfig.triggeringEvent;
    var button = (event && event.submitter) || (detail.elt && detail.elt.closest && detail.elt.closest("button"));
    var text = button ? (button.getAttribute("aria-label") || button.textContent) : "";
    if (!text && detail.elt) text = detail.elt.getAttribute("aria-label") || "";
    return (text || tr("your-entry", "your entry")).replace(/\s+/g, " ").trim().slice(0, 80);
  }

  function bar() {
    var el = document.querySelector(".outbox-bar");
    if (!el) return;
    var items = load(), copy = savedCopy(), since = offlineSince();
    var news = loadSent().filter(function (i) { return i.ok && !oldNews[i.key]; });
    var sent = news.filter(function (i) { return i.recorded; });
    var unrecorded = news.filter(function (i) { return !i.recorded; });
    var text = "";
    if (items.length) {
      var first = { count: items.length, label: items[0].label, time: clock(items[0].at), since: clock(since || items[0].at) };
      text = (navigator.onLine && !since && !copy
        ? tr("sending", ["Sending %(count)s entry waiting to send (first: %(label)s, tapped at %(time)s).",
              "Sending %(count)s entries waiting to send (first: %(label)s, tapped at %(time)s)."], first)
        : tr("offline-waiting", ["Offline since %(since)s · %(count)s entry waiting to send (first: %(label)s, tapped at %(time)s).",
              "Offline since %(since)s · %(count)s entries waiting to send (first: %(label)s, tapped at %(time)s)."], first)) +
        " " + tr("sent-by-themselves", "They are sent by themselves when the connection is back.");
    } else if (copy && (since || !navigator.onLine)) {
      text = tr("offline-since", "Offline since %(time)s.", { time: clock(since || copy) });
    } else if (copy) {
      text = tr("back-online-updating", "Back online: the page is being brought up to date.");
    } else if (news.length) {
      var entries = sent.slice(0, 3).map(function (i) {
        return tr("entry-tapped", "\"%(label)s\" (tapped at %(time)s)", { label: i.label, time: clock(i.at) });
      }).join(", ");
      if (sent.length > 3) entries = tr("and-more", "%(entries)s and more", { entries: entries });
      text = !sent.length ? "" : sent.length === 1 ? tr("back-online-one", "Back online: your entry %(entry)s was sent and recorded once.", { entry: entries })
        : tr("back-online-many", "Back online: %(count)s entries %(entries)s were sent and recorded once.", { count: sent.length, entries: entries });
      unrecorded.forEach(function (i) {  // never "recorded": shown here to confirm, or to tap again
        var said = { label: i.label, time: clock(i.at) };
        if (shownHere[i.key] && !document.querySelector("[data-preview]")) delete shownHere[i.key];  // "Change" took it away
        text += (text ? " " : "") + (shownHere[i.key]
          ? tr("not-recorded-yet", "Back online: your entry \"%(label)s\" (tapped at %(time)s) was sent, but it is not recorded yet: check it below and confirm it.", said)
          : tr("nothing-recorded", "Back online: your entry \"%(label)s\" (tapped at %(time)s) was sent, but nothing was recorded: tap it again.", said));
      });
    }
    if (copy) {
      text += " " + (items.length || !since ? tr("copy-seen", "This page is as it was last seen, at %(time)s.", { time: clock(copy) })
        : tr("copy-seen-until-back", "This page is as it was last seen, at %(time)s: it is brought up to date when the connection is back.", { time: clock(copy) }));
    }
    el.textContent = text;
    el.hidden = !text;
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
    return tr("refused", "the server refused it (error %(status)s)", { status: status });
  }

  function redraw(then) {  // the page again, as the server has it now
    fetch(window.location.href, { credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error("status " + r.status);
      return r.text();
    }).then(function (html) {
      var main = document.querySelector("#main");
      if (main && window.htmx) htmx.swap(main, html, { swapStyle: "outerHTML" }, { select: "#main" });
      if (savedCopy()) {  // no longer the copy: the server's page
        delete document.body.dataset.savedAt;
        markOnline();
      }
      bar();
      if (then) then(true);
    }).catch(function () {  // offline again: the next flush redraws
      if (then) then(false);
    });
  }

  // The answer to a tap that recorded nothing, put where the tap's own answer would have gone, when
  // it is a preview to confirm and this page still shows that place (the page it was tapped on, or
  // the same page reloaded); true when shown. Anything else is not shown: the page is redrawn.
  function showAnswer(item, html) {
    if (!window.htmx || !item.target || item.page !== here() || savedCopy()) return false;
    var target = document.querySelector(item.target);
    if (!target) return false;
    try {
      if (!new DOMParser().parseFromString(html || "", "text/html").querySelector("[data-preview]")) return false;
    } catch (e) { return false; }
    htmx.swap(target, html, { swapStyle: item.swap || "innerHTML" });
    return true;
  }

  // A copy shown with no connection is brought up to date as soon as the server answers.
  var copyTimer = null;
  function refreshCopy() {
    clearTimeout(copyTimer);
    if (!savedCopy() || load().length) return;  // waiting entries redraw the page once they are sent
    redraw(function (done) { if (!done) copyTimer = setTimeout(refreshCopy, COPY_RETRY); });
  }

  function schedule() {
    clearTimeout(timer);
    if (!load().length) return;
    timer = setTimeout(flush, delay);
    delay = Math.min(delay * 2, MAX_DELAY);
  }

  function flush() {
    clearTimeout(timer);
    if (leaving) return;
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
        markOnline();
        delay = FIRST_DELAY;
        // recorded when it first arrived, but the game changed since: the server says what stands now
        var changed = res.r.ok && res.r.headers.get("Idempotent-Changed") === "true";
        var ok = res.r.ok && !changed, recorded = ok && res.r.headers.get("Idempotent-Recorded") === "true";
        // a preview (nothing recorded yet) goes where it was asked for, when it is the last to go
        var shown = ok && !recorded && !load().length && showAnswer(item, res.text);
        if (shown) shownHere[item.key] = true;
        logSent(item, ok, ok ? "" : serverWords(res.r.status, res.text), changed, recorded);
        tell();
        if (load().length) {
          flush();
        } else if (shown) {
          bar();  // the page shows the server's answer: a redraw would take it away
        } else {
          settled();
        }
      }, function () {  // still no connection
        sending = false;
        markOffline();
        bar();
        schedule();
      });
  }

  // A refused entry, sent from this page or another: its words stay on screen (once per page).
  function tell() {
    loadSent().forEach(function (i) {
      if (told[i.key]) return;
      told[i.key] = true;
      if (i.changed) say(tr("changed-since", "Your entry \"%(label)s\" (tapped at %(time)s): %(words)s", { label: i.label, time: clock(i.at), words: i.words }));
      else if (!i.ok) say(tr("not-applied", "Your entry \"%(label)s\" (tapped at %(time)s) was not applied: %(words)s", { label: i.label, time: clock(i.at), words: i.words }));
    });
  }

  // Nothing waits any more: the page as the server has it (the "waiting" notes go with the old
  // page; a copy shown offline is tried again until the server's page replaces it).
  function settled() {
    bar();
    redraw(function (done) { if (!done && savedCopy()) copyTimer = setTimeout(refreshCopy, COPY_RETRY); });
  }

  // Another page of the app on this phone changed the outbox: it sent what waited, or a new entry
  // was made there.
  function count(json) {
    try { return (JSON.parse(json || "[]") || []).length; } catch (e) { return 0; }
  }
  window.addEventListener("storage", function (event) {
    if (event.key !== STORE && event.key !== SENT && event.key !== null) return;
    tell();
    if (event.key === STORE && count(event.oldValue) && !count(event.newValue)) {
      settled();
    } else {
      bar();
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    if (!window.htmx) return;
    loadSent().forEach(function (i) { told[i.key] = oldNews[i.key] = true; });  // before this page: old news
    // A request that hangs on weak Wi-Fi ends, and goes to the outbox, instead of spinning for ever.
    htmx.config.timeout = 15000;
    if (savedCopy()) {  // the service worker's copy: the server could not be reached
      markOffline();
      copyTimer = setTimeout(refreshCopy, COPY_RETRY);
    }
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
    if (!config || !UNSAFE[config.verb]) return;
    if (loadSent().length) {  // a new entry: what was sent before is old news
      forgetSent();
      bar();
    }
    if (!load().length) return;
    event.preventDefault();
    note(event.detail.elt, "wait", tr("not-sent-yet", "Not sent yet: your entry \"%(label)s\" is still waiting to be sent, and this one depends on it. Tap again once it has gone (it is sent as soon as the connection is back).", { label: load()[0].label }));
    flush();
  });

  function keep(event) {
    var d = event.detail, config = d.requestConfig;
    if (!config || !UNSAFE[config.verb] || !config.headers["Idempotency-Key"]) return;
    var params = [];
    if (config.formData) config.formData.forEach(function (value, name) { if (typeof value === "string") params.push([name, value]); });
    // where its answer would have gone (the page, the target's id, how), to show it there if it comes
    var swapper = d.elt && d.elt.closest ? d.elt.closest("[hx-swap]") : null;
    var item = { key: config.headers["Idempotency-Key"], url: config.path, verb: config.verb, params: params,
                 csrf: config.headers["X-CSRFToken"] || "", label: label(d), at: Date.now(), page: here(),
                 target: d.target && d.target.id ? "#" + CSS.escape(d.target.id) : "",
                 swap: ((swapper && swapper.getAttribute("hx-swap")) || htmx.config.defaultSwapStyle || "innerHTML").split(/\s+/)[0] };
    var items = load();
    if (!items.some(function (i) { return i.key === item.key; })) items.push(item);
    save(items);
    markOffline();
    note(d.elt, "waiting", tr("waiting", "Waiting to send: %(label)s (tapped at %(time)s). It is sent by itself when the connection is back.", { label: item.label, time: clock(item.at) }));
    bar();
    delay = FIRST_DELAY;
    schedule();
  }
  document.addEventListener("htmx:sendError", keep);
  document.addEventListener("htmx:timeout", keep);

  window.addEventListener("online", function () {
    if (!load().length && !savedCopy()) markOnline();  // nothing waits: the offline spell is over
    delay = FIRST_DELAY;
    flush();
    refreshCopy();
  });
  // Any answer from the server ends an offline spell (unless entries still wait: their sending does).
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.xhr && event.detail.xhr.status && !load().length) markOnline();
  });
  window.addEventListener("offline", function () { markOffline(); bar(); });
  // A page on its way out (a reload, a link) sends nothing more: its answer would be lost with it,
  // and the next page sends what waits. If it stays after all (a download), it goes on.
  var leaving = false;
  window.addEventListener("beforeunload", function () {
    leaving = true;
    clearTimeout(timer);
    setTimeout(function () { leaving = false; schedule(); }, 5000);
  });
  document.addEventListener("visibilitychange", function () { if (!document.hidden && load().length) flush(); });

  // A plain form (no htmx: correcting a hand, signing a sheet) is not kept in the outbox. With no
  // connection it is not sent at all, and the page says so beside it, the form still as filled
  // (sent, it would end on the browser's own error page over plain HTTP). When the phone believes
  // it is online but the server cannot be reached, the service worker, where there is one, answers
  // with the offline page saying nothing was saved.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !form || !form.getAttribute || navigator.onLine) return;
    if ((form.getAttribute("method") || "get").toLowerCase() !== "post" || form.hasAttribute("hx-post")) return;
    event.preventDefault();
    markOffline();
    note(form, "not-sent", tr("not-sent-offline", "Not sent: this phone is offline, so nothing was saved. What you entered is still here: send it again once the connection is back."));
  });

  // The page as seen now, for the service worker to show on a reload with no connection: after each
  // change on screen (a swap: an entry's answer, a live update), once things have settled.
  var copyDelay = null;
  function sendCopy() {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (!worker || savedCopy()) return;  // no worker (plain HTTP); or this is the copy, with nothing newer
    var root = document.documentElement.cloneNode(true);
    Array.prototype.forEach.call(root.querySelectorAll(".outbox-note"), function (el) { el.remove(); });
    Array.prototype.forEach.call(root.querySelectorAll(".outbox-bar, .request-error, .offline-banner"), function (el) {
      el.hidden = true;  // what they say is worked out again when the copy is shown
    });
    var bar = root.querySelector(".outbox-bar");
    if (bar) bar.textContent = "";
    try {
      worker.postMessage({ type: "keep-copy", url: window.location.href, html: "<!doctype html>\n" + root.outerHTML });
    } catch (e) { /* a worker being replaced: the next change sends it */ }
  }
  document.addEventListener("htmx:afterSettle", function () {
    if (Object.keys(shownHere).length) bar();  // a preview shown from the outbox may have gone: say so
    clearTimeout(copyDelay);
    copyDelay = setTimeout(sendCopy, 300);
  });
})();
