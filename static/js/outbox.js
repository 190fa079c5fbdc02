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
// depends on the one before, which only the server can check. Except on a hand the page carries the
// rest of (its plan, `data-offline-hand`: a Nomination or Australian hand; issue 31, item 3): there
// the phone goes on with the hand by itself, each tap kept in order behind the first, shown as chosen
// and marked waiting, and sent in order when the connection is back. Each names the player and the
// hand it is for, so the server refuses one that no longer fits (scorepad/games/entry/bids_tricks.py);
// the first refused stops the hand's taps after it: it is said beside the hand with the taps kept
// behind it, never sent, until the scorer drops them. A Save (Whist, Bid Whist: the hand is one
// form) is shown as chosen and waiting, and the next hand is entered once it is sent. When a waiting entry is refused
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
  // the taps sent that the page's own hand already shows (it was drawn by the server after them)
  var drawnWith = {};
  function markDrawn() { loadSent().forEach(function (i) { drawnWith[i.key] = true; }); }

  function load() {
    try { return JSON.parse(localStorage.getItem(STORE) || "[]") || []; } catch (e) { return []; }
  }
  // What waits to be sent: not the taps held behind a refused one (they wait for the scorer).
  // A choice of a hand's Save kept on the phone (a Bid Whist declaration or books: `draft`) is sent
  // with that Save, never alone.
  function waiting() { return load().filter(function (i) { return !i.held && !i.draft; }); }
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
                        recorded: !!recorded, hand: item.hand, step: item.step }]).slice(-40);
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
    var items = waiting(), copy = savedCopy(), since = offlineSince();
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
    undoRedo();
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
      markDrawn();
      drawHand();
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
    if (!savedCopy() || waiting().length) return;  // waiting entries redraw the page once they are sent
    redraw(function (done) { if (!done) copyTimer = setTimeout(refreshCopy, COPY_RETRY); });
  }

  function schedule() {
    clearTimeout(timer);
    if (!waiting().length) return;
    timer = setTimeout(flush, delay);
    delay = Math.min(delay * 2, MAX_DELAY);
  }

  function flush() {
    clearTimeout(timer);
    if (leaving) return;
    var items = waiting();
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
        markOnline();
        delay = FIRST_DELAY;
        // recorded when it first arrived, but the game changed since: the server says what stands now
        var changed = res.r.ok && res.r.headers.get("Idempotent-Changed") === "true";
        var ok = res.r.ok && !changed, recorded = ok && res.r.headers.get("Idempotent-Recorded") === "true";
        var words = ok ? "" : serverWords(res.r.status, res.text);
        if (!ok && item.hand) {  // a tap of a hand entered offline: it and the hand's taps after it stay, held
          save(load().map(function (i) {
            if (i.key === item.key) return Object.assign({}, i, { held: true, refused: words });
            return i.hand === item.hand ? Object.assign({}, i, { held: true }) : i;
          }));
        } else {  // sent: a Save's choices kept on the phone go with it
          save(load().filter(function (i) {
            return i.key !== item.key && !(i.draft && ok && i.hand === item.hand && item.step && item.step.kind === "result");
          }));
        }
        // a preview (nothing recorded yet) goes where it was asked for, when it is the last to go
        var shown = ok && !recorded && !waiting().length && showAnswer(item, res.text);
        if (shown) shownHere[item.key] = true;
        logSent(item, ok, words, changed, recorded);
        tell();
        if (waiting().length) {
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
      else if (!i.ok && !i.hand) say(tr("not-applied", "Your entry \"%(label)s\" (tapped at %(time)s) was not applied: %(words)s", { label: i.label, time: clock(i.at), words: i.words }));
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
    try { return (JSON.parse(json || "[]") || []).filter(function (i) { return !i.held && !i.draft; }).length; } catch (e) { return 0; }
  }
  window.addEventListener("storage", function (event) {
    if (event.key !== STORE && event.key !== SENT && event.key !== null) return;
    tell();
    if (event.key === STORE && count(event.oldValue) && !count(event.newValue)) {
      settled();
    } else {
      bar();
      drawHand();
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    if (!window.htmx) return;
    loadSent().forEach(function (i) { told[i.key] = oldNews[i.key] = drawnWith[i.key] = true; });  // before this page: old news
    // A request that hangs on weak Wi-Fi ends, and goes to the outbox, instead of spinning for ever.
    htmx.config.timeout = 15000;
    if (savedCopy()) {  // the service worker's copy: the server could not be reached
      markOffline();
      copyTimer = setTimeout(refreshCopy, COPY_RETRY);
    }
    bar();
    drawHand();
    if (waiting().length) flush();
  });

  document.addEventListener("htmx:configRequest", function (event) {
    var d = event.detail;
    if (UNSAFE[d.verb]) d.headers["Idempotency-Key"] = newKey();
  });

  // One entry at a time: while one waits, say why the next must wait too.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var config = event.detail.requestConfig;
    if (!config || !UNSAFE[config.verb]) return;
    var undoRedoForm = event.detail.elt && event.detail.elt.closest && event.detail.elt.closest("#play-body form.undo, #play-body form.redo");
    var mine = tapsHere(), last = mine[mine.length - 1];
    if (undoRedoForm && last) {  // Undo takes back the last tap still waiting; Redo waits for them
      event.preventDefault();
      if (undoRedoForm.classList.contains("undo") && takeBack(last)) {
        note(undoRedoForm, "undo", tr("taken-back", "Taken back: \"%(label)s\", which had not been sent.", { label: last.label }));
        return;
      }
      if (undoRedoForm.classList.contains("redo")) return;
    }
    var items = waiting();
    if (items.length) {  // what was sent meanwhile is kept: the hand the phone draws goes on from it
      event.preventDefault();
      note(event.detail.elt, "wait", tr("not-sent-yet", "Not sent yet: your entry \"%(label)s\" is still waiting to be sent, and this one depends on it. Tap again once it has gone (it is sent as soon as the connection is back).", { label: items[0].label }));
      flush();
    } else if (loadSent().length) {  // a new entry: what was sent before is old news
      forgetSent();
      bar();
    }
  });

  // ---- The rest of a hand entered with no connection (issue 31, item 3) ----
  // The page's plan of the hand in hand (templates/games/entry/_bids_tricks.html); null elsewhere.
  function planOf() {
    var el = document.querySelector("#hand-panel [data-offline-hand]");
    if (!el) return null;
    try { return JSON.parse(el.getAttribute("data-offline-hand")); } catch (e) { return null; }
  }
  function param(params, name) {
    var found = params.filter(function (p) { return p[0] === name; })[0];
    return found ? found[1] : null;
  }
  function stepOf(params) {  // what a tap of the hand does, as the phone replays it
    var action = param(params, "action"), seat = parseInt(param(params, "seat"), 10);
    if (action === "trump") return { kind: "trump", value: param(params, "trump") };
    if (action === "bid") return { kind: "bid", seat: seat, value: parseInt(param(params, "bid"), 10) };
    if (action === "tricks") return { kind: "tricks", seat: seat, value: parseInt(param(params, "tricks"), 10) };
    if (action === "call") return { kind: "call", position: parseInt(param(params, "position"), 10), value: param(params, "call") };
    if (action === "result") return { kind: "result", declare: param(params, "trump") || param(params, "direction"), books: param(params, "books") };
    return null;
  }
  function none(v) { return v === null || v === undefined; }
  function total(values) { return values.reduce(function (a, v) { return a + (none(v) ? 0 : v); }, 0); }
  // One player's tricks; the rest is filled in as the server does (only one player left, or no tricks).
  function takeTricks(plan, tricks, seat, value) {
    tricks[seat] = value;
    var missing = [];
    tricks.forEach(function (t, s) { if (none(t)) missing.push(s); });
    var rest = plan.c - total(tricks);
    if (missing.length === 1 || (missing.length && rest === 0)) {
      missing.forEach(function (s) { tricks[s] = missing.length === 1 ? rest : 0; });
    }
  }
  // The hand as the page drew it, with the taps sent since (the page is not redrawn between them) and
  // those waiting; each value says whether it is waiting.
  function handNow(plan, items) {
    var h = { trump: plan.tr.length ? null : "", bids: plan.bd ? plan.bd.slice() : null,
              tricks: plan.tk.slice(), saved: false, waitingBids: {}, waitingTricks: {}, trumpWaiting: false };
    var sent = loadSent().filter(function (i) { return i.ok && i.hand === plan.id && !drawnWith[i.key]; });
    sent.concat(items).forEach(function (i) {
      var s = i.step, queued = items.indexOf(i) >= 0;
      if (!s) return;
      if (s.kind === "trump") { h.trump = s.value; h.trumpWaiting = queued; }
      else if (s.kind === "bid" && h.bids) { h.bids[s.seat] = s.value; if (queued) h.waitingBids[s.seat] = true; }
      else if (s.kind === "tricks") {
        var before = h.tricks.slice();
        takeTricks(plan, h.tricks, s.seat, s.value);
        if (queued) h.tricks.forEach(function (t, seat) { if (none(before[seat]) && !none(t)) h.waitingTricks[seat] = true; });
      } else if (s.kind === "result") h.saved = true;
    });
    return h;
  }
  function nextStep(plan, h) {
    if (h.saved) return { kind: "done" };
    if (h.trump === null) return { kind: "trump" };
    if (h.bids) {
      var bidding = plan.o.filter(function (s) { return none(h.bids[s]); });
      if (bidding.length) {
        var earlier = plan.o.filter(function (s) { return !none(h.bids[s]); }).map(function (s) { return h.bids[s]; });
        var forbidden = plan.c - total(earlier);
        var hooked = plan.hk && bidding.length === 1 && forbidden >= 0 && forbidden <= plan.c;
        return { kind: "bid", seat: bidding[0], forbidden: hooked ? forbidden : null };
      }
    }
    var to = plan.o.filter(function (s) { return none(h.tricks[s]); })[0];
    if (to !== undefined) return { kind: "tricks", seat: to, left: plan.c - total(h.tricks) };
    return { kind: "result" };
  }
  function fill(text, n) { return String(text).split("{n}").join(String(n)); }
  function make(tag, className, text) {
    var el = document.createElement(tag);
    if (className) el.className = className;
    if (text !== undefined) el.textContent = text;
    return el;
  }
  // "Bids: Bob 1 · Cat 2 (waiting) ..." as the page shows the bids so far, the waiting ones marked.
  function soFar(title, plan, values, marked) {
    var p = make("p", "offline-so-far");
    p.appendChild(make("span", "k", title));
    plan.o.forEach(function (s) {
      if (none(values[s])) return;
      var tag = make("span", "bid-tag" + (marked[s] ? " waiting" : ""), plan.s[s].n + " ");
      tag.appendChild(make("strong", "", String(values[s])));
      if (marked[s]) tag.appendChild(make("span", "waiting-mark", " · " + tr("waiting-mark", "waiting")));
      p.appendChild(tag);
    });
    return p;
  }
  function chips(legendHtml, choices) {  // choices: [value, label, aria-label, disabled]
    var set = make("fieldset", "chips big");
    var legend = make("legend");
    legend.innerHTML = legendHtml;  // the server's own words, escaped there (a name in <strong>)
    set.appendChild(legend);
    choices.forEach(function (c) {
      var b = make("button", "chip", c[1]);
      b.type = "button";
      b.dataset.offlineTap = c[0];
      if (c[2]) b.setAttribute("aria-label", c[2]);
      if (c[3]) b.disabled = true;
      set.appendChild(b);
    });
    return set;
  }
  function range(n) { var out = []; for (var i = 0; i <= n; i++) out.push(i); return out; }

  // The hand in hand drawn from the plan and the taps kept on this phone, in place of the server's
  // controls (kept, hidden, until nothing waits); true when it is so drawn.
  function drawHand() {
    var panel = document.getElementById("hand-panel"), plan = planOf();
    var held = load().filter(function (i) { return i.held && i.page === here(); });
    if (panel && load().some(function (i) { return stale(i, plan); })) save(load().filter(function (i) { return !stale(i, plan); }));
    var items = plan ? handTaps(plan) : [];
    var old = panel && panel.querySelector(".offline-hand");
    if (old) old.remove();
    undoRedo();
    var local = panel && items.length && plan && items.every(function (i) { return i.step; });
    showTrump(local ? plan : null, items);
    if (!panel) return false;
    Array.prototype.forEach.call(panel.children, function (el) {
      if (el.matches("h2, #hand-facts, .round-note, [data-offline-hand]")) return;
      // the phone's own hand replaces the server's; a refusal leaves what is recorded in view, not its controls
      if (local || (held.length && (el.matches("form, details") || el.querySelector("button")))) {
        if (!el.hidden) { el.hidden = true; el.dataset.offlineHidden = ""; }
      } else if (el.hasAttribute("data-offline-hidden")) {
        el.hidden = false;
        delete el.dataset.offlineHidden;
      }
    });
    if (!local && !held.length) return false;
    var box = make("div", "offline-hand");
    panel.appendChild(box);
    if (held.length) drawHeld(box, held);
    if (local) drawSteps(box, plan, items);
    return true;
  }

  // The taps of the hand in hand kept on this phone, in order (a Save's choices too), not those held.
  function handTaps(plan) { return load().filter(function (i) { return !i.held && i.hand === plan.id; }); }
  // A Save's choice kept for a hand this page no longer has in hand (saved, or the page moved on).
  function stale(i, plan) { return i.draft && !i.held && i.page === here() && (!plan || i.hand !== plan.id); }

  function keptNote(box, items) {
    box.appendChild(make("p", "outbox-note", tr("hand-kept", ["Waiting to send: %(labels)s (tapped at %(time)s). It is sent by itself when the connection is back: go on with the hand.",
      "Waiting to send, in order: %(labels)s (the first tapped at %(time)s). They are sent by themselves when the connection is back: go on with the hand."],
      { count: items.length, labels: items.map(function (i) { return i.label; }).join(", "), time: clock(items[0].at) })));
    box.lastChild.setAttribute("role", "status");
    box.lastChild.dataset.kind = "waiting";
  }

  function drawSteps(box, plan, items) {
    if (plan.k === "bw") { drawAuction(box, plan, items); return; }
    var h = handNow(plan, items), step = nextStep(plan, h), w = plan.w;
    keptNote(box, items);
    if (h.bids) box.appendChild(soFar(w.bd, plan, h.bids, h.waitingBids));
    if (h.tricks.some(function (t) { return !none(t); })) box.appendChild(soFar(w.tk, plan, h.tricks, h.waitingTricks));
    var seat = plan.s[step.seat];
    if (step.kind === "trump") {
      box.appendChild(chips(w.tr, plan.tr.map(function (t) { return [t[0], t[1]]; })));
    } else if (step.kind === "bid") {
      box.appendChild(chips(seat.bl, range(plan.c).map(function (b) {
        return b === step.forbidden ? [b, String(b), fill(w.na, b), true] : [b, String(b), fill(seat.b, b)];
      })));
      if (step.forbidden !== null) box.appendChild(make("p", "hint", fill(seat.f, step.forbidden)));
    } else if (step.kind === "tricks") {
      var bid = h.bids ? h.bids[step.seat] : null;
      box.appendChild(chips(none(bid) ? seat.tl : String(seat.tlb).split("{b}").join(String(bid)),
        range(step.left).map(function (n) { return [n, String(n), fill(seat.t, n)]; })));
      box.appendChild(make("p", "hint", fill(w.lf, step.left)));
    } else if (step.kind === "result") {
      var save = make("button", "primary", w.sv);
      save.type = "button";
      save.dataset.offlineTap = "save";
      box.appendChild(save);
    } else {
      box.appendChild(make("p", "callout", tr("next-hand-after", "The next hand can be entered once this one has been sent.")));
    }
    drawTail(box, items);
  }

  function drawTail(box, items) {
    // the same value just tapped stays disabled for the rest of the guard, as app.js does after a swap
    var left = lastTap ? guardMs() - (Date.now() - lastTap.at) : 0;
    if (left > 0) {
      Array.prototype.forEach.call(box.querySelectorAll("[data-offline-tap]"), function (b) {
        if (b.disabled || b.dataset.offlineTap !== lastTap.value) return;
        b.disabled = true;
        b.classList.add("held");
        setTimeout(function () { b.disabled = false; b.classList.remove("held"); }, left);
      });
    }
    if (items.length > (sending ? 1 : 0)) {
      var back = make("button", "secondary", tr("take-back-waiting", "Take back the last tap still waiting"));
      back.type = "button";
      back.dataset.offlineBack = "";
      box.appendChild(back);
    }
  }

  // The hand's first tap the server refused, its words, and the taps kept behind it: never sent.
  function drawHeld(box, held) {
    var refused = held.filter(function (i) { return i.refused; })[0];
    var p = make("p", "outbox-note", refused
      ? tr("hand-refused", "Not applied: your entry \"%(label)s\" (tapped at %(time)s): %(words)s", { label: refused.label, time: clock(refused.at), words: refused.refused })
      : "");
    p.setAttribute("role", "alert");
    p.dataset.kind = "refused";
    box.appendChild(p);
    var rest = held.filter(function (i) { return !i.refused; });
    if (rest.length) {
      box.appendChild(make("p", "", tr("held-taps", ["It is followed by %(count)s tap kept on this phone and not sent, as it depends on it: %(labels)s.",
        "It is followed by %(count)s taps kept on this phone and not sent, as they depend on it: %(labels)s."],
        { count: rest.length, labels: rest.map(function (i) { return i.label; }).join(", ") })));
    }
    var drop = make("button", "secondary", rest.length ? tr("drop-held", "Drop these taps and go on from the hand as recorded")
      : tr("drop-refused", "Go on from the hand as recorded"));
    drop.type = "button";
    drop.dataset.offlineDrop = "";
    box.appendChild(drop);
  }

  function tapNow(plan, value) {  // a tap of the hand drawn by the phone: kept, after those waiting
    if (plan.k === "bw") { tapAuction(plan, value); return; }
    var items = handTaps(plan);
    var h = handNow(plan, items), step = nextStep(plan, h), seat = plan.s[step.seat], label, params;
    if (step.kind === "trump") {
      var chosen = plan.tr.filter(function (t) { return t[0] === value; })[0];
      if (!chosen) return;
      params = [["action", "trump"], ["trump", value]];
      label = chosen[1];
    } else if (step.kind === "bid" || step.kind === "tricks") {
      var n = parseInt(value, 10);
      params = step.kind === "bid" ? [["action", "bid"], ["seat", String(step.seat)], ["bid", String(n)]]
        : [["action", "tricks"], ["seat", String(step.seat)], ["tricks", String(n)]];
      label = fill(step.kind === "bid" ? seat.b : seat.t, n);
    } else if (step.kind === "result" && value === "save") {
      params = [["action", "result"]].concat(h.tricks.map(function (t, s) { return ["tricks." + s, String(t)]; }));
      label = plan.w.sv;
    } else {
      return;
    }
    enqueue(plan, params, label);
  }

  // A tap kept after the hand's others; a draft (a choice of the Save to come) is kept, never sent alone.
  function enqueue(plan, params, label, draft) {
    var meta = document.querySelector('meta[name="csrf-token"]');
    var item = { key: newKey(), url: plan.u, verb: "post", params: draft ? [] : params.concat([["number", String(plan.no)]]),
                 csrf: meta ? meta.content : "", label: label, at: Date.now(), page: here(), target: "", swap: "innerHTML",
                 hand: plan.id, step: draft || stepOf(params), local: true };
    if (draft) item.draft = true;
    save(load().filter(function (i) {  // a new choice of the same kind replaces the one before
      return !(draft && i.draft && !i.held && i.hand === plan.id && i.step.kind === draft.kind);
    }).concat([item]));
    drawHand();
    bar();
    if (!draft && !sending) { delay = FIRST_DELAY; schedule(); }
  }

  // ---- Bid Whist: the auction call by call, then the winner's declaration, the books and Save ----
  // The phone checks a call as the rules do (scorepad/rules/bid_whist.py): one round from left of the
  // dealer, each bid outranking the last (only a No takes out a trump bid of the same number), the
  // dealer made to bid after three passes or, by the option, four passes throwing the cards in.
  function level(value) {  // 4 = 4 Special < 4 No < 5 ... (Call.level)
    var parts = String(value).split("-");
    return 2 * parseInt(parts[0], 10) + (parts[1] === "no" ? 1 : 0);
  }
  function callWords(plan, value) {
    if (value === "pass") return plan.w.ps;
    var found = plan.cl.filter(function (c) { return c[0] === value; })[0];
    return found ? found[1] : String(value);
  }
  function esc(text) { var d = document.createElement("div"); d.textContent = text; return d.innerHTML; }
  function auctionNow(plan, items) {
    var h = { calls: plan.au.slice(), waitingCalls: {}, declare: null, declareWaiting: false, books: null,
              booksWaiting: false, saved: false, redealt: false };
    var sent = loadSent().filter(function (i) { return i.ok && i.hand === plan.id && !drawnWith[i.key]; });
    sent.concat(items).forEach(function (i) {
      var s = i.step, queued = items.indexOf(i) >= 0;
      if (!s) return;
      if (s.kind === "call") {
        h.calls.push(s.value);
        if (queued) h.waitingCalls[h.calls.length - 1] = true;
        h.redealt = false;
        if (h.calls.length === 4 && plan.ap === "redeal" && h.calls.every(function (c) { return c === "pass"; })) {
          h.calls = [];  // the cards thrown in: the same dealer deals again
          h.waitingCalls = {};
          h.redealt = true;
        }
      } else if (s.kind === "declare" || (s.kind === "result" && s.declare)) {
        h.declare = s.kind === "result" ? s.declare : s.value;
        h.declareWaiting = queued;
      }
      if (s.kind === "books" || (s.kind === "result" && s.books)) {
        h.books = s.kind === "result" ? s.books : s.value;
        h.booksWaiting = queued;
      }
      if (s.kind === "result") h.saved = true;
    });
    return h;
  }
  function winning(plan, h) {  // the last bid made, and its seat
    var won = null;
    h.calls.forEach(function (c, p) { if (c !== "pass") won = { call: c, seat: (plan.fb + p) % 4, no: c.split("-")[1] === "no" }; });
    return won;
  }
  function auctionStep(plan, h) {
    if (h.saved) return { kind: "done" };
    var won = winning(plan, h), n = h.calls.length;
    if (n < 4) {
      var seat = (plan.fb + n) % 4;
      return { kind: "call", position: n, seat: seat,
               legal: plan.cl.filter(function (c) { return !won || level(c[0]) > level(won.call); }),
               canPass: !(seat === plan.dl && !won && plan.ap === "dealer") };
    }
    return won ? { kind: "declare", won: won } : { kind: "done" };
  }
  function drawAuction(box, plan, items) {
    var h = auctionNow(plan, items), step = auctionStep(plan, h), w = plan.w;
    keptNote(box, items);
    if (h.calls.length) {
      var calls = h.calls.map(function (c) { return callWords(plan, c); });
      var order = calls.map(function (c, p) { return (plan.fb + p) % 4; }), values = {}, marked = {};
      order.forEach(function (seat, p) { values[seat] = calls[p]; if (h.waitingCalls[p]) marked[seat] = true; });
      box.appendChild(soFar(w.ca, { o: order, s: plan.s }, values, marked));
    }
    if (h.redealt) box.appendChild(make("p", "callout", w.rd));
    if (step.kind === "call") {
      var set = chips(plan.s[step.seat].hcl, []);
      set.className = "calls";
      if (step.canPass) set.appendChild(chipRow([["pass", w.ps]]));
      var rows = {};
      step.legal.forEach(function (c) { var n = c[0].split("-")[0]; (rows[n] = rows[n] || []).push(c); });
      Object.keys(rows).sort().forEach(function (n) { set.appendChild(chipRow(rows[n])); });
      box.appendChild(set);
      if (!step.canPass) box.appendChild(make("p", "hint", w.fc));
      box.appendChild(make("p", "hint", w.hi));
    } else if (step.kind === "declare") {
      var seat = plan.s[step.won.seat], said = callWords(plan, step.won.call);
      var callout = make("p", "callout");
      callout.innerHTML = seat.hwon.split("{c}").join(esc(said)) + " " + fill(seat.hnd, 6 + parseInt(step.won.call, 10));
      box.appendChild(callout);
      box.appendChild(chosen(chips(step.won.no ? esc(w.dc) : esc(w.tn), (step.won.no ? w.dr : w.tr).map(function (d) {
        return ["d:" + d[0], d[1]];
      })), "d:" + h.declare, h.declareWaiting));
      var books = [];
      for (var b = 1; b <= 13; b++) books.push(["b:" + b, String(b)]);
      box.appendChild(chosen(chips(seat.hbk, books), "b:" + h.books, h.booksWaiting));
      var save = make("button", "primary", w.sv);
      save.type = "button";
      save.dataset.offlineTap = "save";
      save.disabled = !h.books || (step.won.no && !h.declare);
      box.appendChild(save);
    } else {
      var won = winning(plan, h);
      if (won && h.saved) box.appendChild(saved(plan, won, h));
      box.appendChild(make("p", "callout", tr("next-hand-after", "The next hand can be entered once this one has been sent.")));
    }
    drawTail(box, items);
  }
  // A Save waiting: the declaration and the books it sends, as chosen.
  function saved(plan, won, h) {
    var p = make("p", "offline-so-far");
    var said = (won.no ? plan.w.dr : plan.w.tr).filter(function (d) { return d[0] === h.declare; })[0];
    [said && said[1], h.books && fill(plan.s[won.seat].bk, h.books)].forEach(function (text, n) {
      if (!text) return;
      var queued = n ? h.booksWaiting : h.declareWaiting;
      var tag = make("span", "bid-tag" + (queued ? " waiting" : ""), text);
      if (queued) tag.appendChild(make("span", "waiting-mark", " · " + tr("waiting-mark", "waiting")));
      p.appendChild(tag);
    });
    return p;
  }
  function chipRow(choices) {
    var row = make("div", "chips");
    choices.forEach(function (c) {
      var b = make("button", "chip", c[1]);
      b.type = "button";
      b.dataset.offlineTap = c[0];
      row.appendChild(b);
    });
    return row;
  }
  function chosen(set, value, queued) {  // the choice made on this phone: pressed, and marked waiting
    set.className = "chips";  // as the page's own form draws them
    Array.prototype.forEach.call(set.querySelectorAll("[data-offline-tap]"), function (b) {
      if (/^d:[HDCS]$/.test(b.dataset.offlineTap)) b.classList.add("suit-" + b.dataset.offlineTap.slice(2));
      var on = b.dataset.offlineTap === value;
      b.setAttribute("aria-pressed", on ? "true" : "false");
      if (on && queued) b.appendChild(make("span", "waiting-mark", " · " + tr("waiting-mark", "waiting")));
    });
    return set;
  }
  function tapAuction(plan, value) {
    var h = auctionNow(plan, handTaps(plan)), step = auctionStep(plan, h), w = plan.w;
    if (step.kind === "call") {
      var seat = plan.s[step.seat];
      if (value === "pass" ? !step.canPass : !step.legal.some(function (c) { return c[0] === value; })) return;
      enqueue(plan, [["action", "call"], ["call", value], ["position", String(step.position)]],
        value === "pass" ? seat.ps : seat.bd.split("{c}").join(callWords(plan, value)));
    } else if (step.kind === "declare") {
      var kind = value.slice(0, 2), v = value.slice(2);
      if (kind === "d:") {
        var found = (step.won.no ? w.dr : w.tr).filter(function (d) { return d[0] === v; })[0];
        if (found) enqueue(plan, [], found[1], { kind: "declare", value: v });
      } else if (kind === "b:" && parseInt(v, 10) >= 1 && parseInt(v, 10) <= 13) {
        enqueue(plan, [], fill(plan.s[step.won.seat].bk, v), { kind: "books", value: v });
      } else if (value === "save" && h.books && (h.declare || !step.won.no)) {
        var params = [["action", "result"]];
        if (h.declare) params.push([step.won.no ? "direction" : "trump", h.declare]);
        enqueue(plan, params.concat([["books", h.books]]), w.sv);
      }
    }
  }

  // The trump chosen on this phone in the hand's facts, marked waiting until it is sent, as the page
  // would show it once recorded; the server's words back when the phone no longer draws the hand.
  function showTrump(plan, items) {
    var v = document.querySelector('#hand-facts [data-fact="trump"] .v');
    if (!v) return;
    var said = null, queued = false;
    if (plan && plan.k === "bw") {
      var h = auctionNow(plan, items), won = h.calls.length === 4 ? winning(plan, h) : null;
      if (won && won.no) {
        said = plan.w.nt;
        queued = Object.keys(h.waitingCalls).length > 0;
      } else if (won && h.declare) {
        said = (plan.w.tr.filter(function (t) { return t[0] === h.declare; })[0] || [])[1];
        queued = h.declareWaiting;
      }
    } else if (plan && plan.tr.length) {
      var hand = handNow(plan, items);
      said = hand.trump ? (plan.tr.filter(function (t) { return t[0] === hand.trump; })[0] || [])[1] : null;
      queued = hand.trumpWaiting;
    }
    if (said) {
      if (!v.hasAttribute("data-offline-was")) v.dataset.offlineWas = v.textContent;
      v.textContent = said;
      if (queued) v.appendChild(make("span", "waiting-mark", " · " + tr("waiting-mark", "waiting")));
    } else if (v.hasAttribute("data-offline-was")) {
      v.textContent = v.dataset.offlineWas;
      delete v.dataset.offlineWas;
    }
  }

  // Take back a tap still waiting on this phone (never one being sent): true when it is taken back.
  function takeBack(item) {
    if (!item || (sending && !item.draft && waiting()[0] && waiting()[0].key === item.key)) return false;
    save(load().filter(function (i) { return i.key !== item.key; }));
    var form = !item.step && document.querySelector("#hand-panel form.waiting");
    if (form) {  // a Whist or Bid Whist Save kept as chosen: the form is the scorer's again
      form.classList.remove("waiting");
      Array.prototype.forEach.call(form.querySelectorAll("fieldset, button"), function (el) { el.disabled = false; });
      var kept = form.parentNode.querySelector('.outbox-note[data-kind="waiting"]');
      if (kept) kept.remove();
    }
    drawHand();
    bar();
    return true;
  }
  // What Undo takes back while taps of this page wait: the last of them, not the server's last step.
  function tapsHere() { return load().filter(function (i) { return !i.held && i.page === here(); }); }
  // Undo names the last tap still waiting, and Redo is off (it would redo a step of the hand as the
  // server has it, behind the taps entered here): the buttons say so while taps wait.
  function undoRedo() {
    var taps = tapsHere(), last = taps[taps.length - 1];
    var undo = document.querySelector("#play-body form.undo button"), redo = document.querySelector("#play-body form.redo button");
    if (undo && last) {
      if (!undo.hasAttribute("data-offline-was")) undo.dataset.offlineWas = undo.textContent;
      undo.textContent = "↶ " + tr("undo-waiting", "Undo the last tap still waiting: %(label)s", { label: last.label });
    } else if (undo && undo.hasAttribute("data-offline-was")) {
      undo.textContent = undo.dataset.offlineWas;
      delete undo.dataset.offlineWas;
    }
    if (redo && last) {
      redo.disabled = true;
      redo.dataset.offlineOff = "";
      note(redo, "redo-off", tr("redo-off", "Redo comes back once the taps waiting on this phone have been sent."));
    } else if (redo && redo.hasAttribute("data-offline-off")) {
      redo.disabled = false;
      delete redo.dataset.offlineOff;
      var said = redo.form.parentNode.querySelector('.outbox-note[data-kind="redo-off"]');
      if (said) said.remove();
    }
  }

  // A hand's Save kept on this phone: the hand as chosen, marked waiting, and the next hand said to wait.
  function keptForm(form) {
    form.classList.add("waiting");
    Array.prototype.forEach.call(form.querySelectorAll("fieldset, button"), function (el) { el.disabled = true; });
  }

  var lastTap = null;  // a shaky second tap is one tap (issue 31, item 2): the same value again too soon
  function guardMs() {
    var body = document.getElementById("play-body");
    return parseInt(body && body.dataset.tapGuardMs, 10) || 0;
  }
  document.addEventListener("click", function (event) {
    var target = event.target.closest && event.target.closest("[data-offline-tap], [data-offline-back], [data-offline-drop]");
    if (!target || !target.closest(".offline-hand")) return;
    var plan = planOf();
    if (target.hasAttribute("data-offline-tap")) {
      var now = Date.now(), value = target.dataset.offlineTap;
      if (lastTap && lastTap.value === value && now - lastTap.at < guardMs()) return;
      lastTap = { value: value, at: now };
      if (plan) tapNow(plan, value);
    } else if (target.hasAttribute("data-offline-back")) {  // the last tap of the hand that is still on this phone
      var mine = plan ? handTaps(plan) : [];
      takeBack(mine[mine.length - 1]);
    } else if (!load().some(function (i) { return i.held && !i.refused && i.page === here(); }) ||
               window.confirm(tr("drop-confirm", "Drop the taps kept on this phone? They were not recorded."))) {
      save(load().filter(function (i) { return !(i.held && i.page === here()); }));
      drawHand();
      bar();
    }
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
    var plan = d.elt && d.elt.closest && d.elt.closest("#hand-panel") ? planOf() : null;
    var form = d.elt && d.elt.closest && d.elt.closest("#hand-panel form");
    if (plan) {  // a tap of the hand in hand: the phone goes on with the hand from it
      item.hand = plan.id;
      item.step = stepOf(params);
    } else if (form && param(params, "action") === "result") {  // a hand's Save (Whist, Bid Whist)
      item.hand = here() + "#" + param(params, "number");
    }
    var items = load();
    if (!items.some(function (i) { return i.key === item.key; })) items.push(item);
    save(items);
    markOffline();
    if (drawHand()) { bar(); delay = FIRST_DELAY; schedule(); return; }
    note(d.elt, "waiting", tr("waiting", "Waiting to send: %(label)s (tapped at %(time)s). It is sent by itself when the connection is back.", { label: item.label, time: clock(item.at) }) +
      (item.hand && form ? " " + tr("next-hand-after", "The next hand can be entered once this one has been sent.") : ""));
    if (item.hand && form) keptForm(form);
    bar();
    delay = FIRST_DELAY;
    schedule();
  }
  document.addEventListener("htmx:sendError", keep);
  document.addEventListener("htmx:timeout", keep);

  window.addEventListener("online", function () {
    if (!waiting().length && !savedCopy()) markOnline();  // nothing waits: the offline spell is over
    delay = FIRST_DELAY;
    flush();
    refreshCopy();
  });
  // Any answer from the server ends an offline spell (unless entries still wait: their sending does).
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.xhr && event.detail.xhr.status && !waiting().length) markOnline();
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
  document.addEventListener("visibilitychange", function () { if (!document.hidden && waiting().length) flush(); });

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
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.querySelector && (target.id === "hand-panel" || target.querySelector("#hand-panel"))) markDrawn();  // the server's hand, as it is now
    drawHand();  // a second scorer's redraw brings the server's controls: the phone's own taps stay in front
    if (Object.keys(shownHere).length) bar();  // a preview shown from the outbox may have gone: say so
    clearTimeout(copyDelay);
    copyDelay = setTimeout(sendCopy, 300);
  });
})();
