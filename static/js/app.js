// Scorepad's small amount of glue around htmx.

/* The words scripts write, in the page's language (issue 15): `tr(key, english, params)`. A page in
   another language than English carries their translations by key in a data block that is never run
   (templates/base.html, scorepad/script_words.py, which lists every key with its English); an English
   page carries none, and the English here is said. A message with a count is `tr(key, [one, other],
   {count: n})`, n being 1 or more. Placeholders are %(name)s, filled in once (a name that holds
   "%(time)s" stays as typed). */
var tr = (function () {
  var words = null;
  function load() {
    if (words) return words;
    var block = document.getElementById("script-words");
    try { words = block ? JSON.parse(block.textContent) || {} : {}; } catch (e) { words = {}; }
    return words;
  }
  return function (key, english, params) {
    var said = load()[key];
    if (Array.isArray(english)) {
      var forms = Array.isArray(said) && said.length === 2 ? said : english;
      said = params && params.count === 1 ? forms[0] : forms[1];
    } else if (typeof said !== "string") {
      said = english;
    }
    return said.replace(/%\((\w+)\)s/g, function (whole, name) {
      return params && Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole;
    });
  };
})();
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

// A refused request with nothing to swap in (400 expired form, 403, 404 old link, 500): say so,
// with the server's own words when it sent a page, instead of a tap that seems to do nothing.
(function () {
  function box() { return document.querySelector(".request-error"); }
  function said(xhr) {
    var text = "";
    try {
      var doc = new DOMParser().parseFromString(xhr.responseText || "", "text/html");
      var main = doc.querySelector("main") || doc.body;
      var parts = main ? main.querySelectorAll("h1, p") : [];
      text = Array.prototype.slice.call(parts, 0, 2).map(function (el) { return el.textContent.trim(); })
        .filter(Boolean).join(": ");
      if (!text && main) text = main.textContent.trim();
    } catch (e) { text = ""; }
    if (!text || text.length > 300) {
      text = tr("server-error", "The server could not do that (error %(status)s). Nothing was saved: reload the page and try again.", { status: xhr.status });
    }
    return text;
  }
  document.addEventListener("htmx:responseError", function (e) {
    var el = box();
    if (!el || !e.detail.xhr) return;
    el.querySelector("p").textContent = said(e.detail.xhr);
    el.hidden = false;
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    var el = box();
    if (el && e.detail.successful && e.detail.requestConfig && e.detail.requestConfig.verb !== "get") el.hidden = true;
  });
  document.addEventListener("click", function (e) {
    if (e.target.closest("[data-dismiss-error]")) box().hidden = true;
  });
})();

// Refresh a live panel as its first push would (its hx-trigger's first event, e.g. sse:orders).
function refreshAsPushed(panel) {
  var trigger = panel.getAttribute("hx-trigger");
  if (trigger) htmx.trigger(panel, trigger.split(/[\s,]/)[0]);
}

// Catch up after a lost live stream: what was published while it was down never arrives, so once
// it is open again, fetch the current fragment (data-refresh-url) and fire each listener's trigger.
// So too when the phone comes back online (the online event): its stream often never noticed the
// Wi-Fi going (no error, so no reopening), and the push sent meanwhile, such as the director
// opening the next hand, was lost with it; the table would wait for the next one (issue 32, item 5).
(function () {
  function catchUp(source) {
    // the stream's own box, or the boxes its pushes swap (the projector's board, beside its timer)
    var swapped = source.dataset.refreshUrl ? [source] : source.querySelectorAll("[sse-swap][data-refresh-url]");
    Array.prototype.forEach.call(swapped, function (box) {
      htmx.ajax("GET", box.dataset.refreshUrl, { target: box, swap: "innerHTML" });
    });
    source.querySelectorAll('[hx-trigger^="sse:"]').forEach(function (el) {
      refreshAsPushed(el);
    });
  }
  document.addEventListener("htmx:sseError", function (e) { e.target.dataset.sseLost = "1"; });
  document.addEventListener("htmx:sseOpen", function (e) {
    var source = e.target;
    if (!source.dataset || !source.dataset.sseLost) return;
    delete source.dataset.sseLost;
    source.dataset.caughtUp = "1";
    catchUp(source);
  });
  // A change that came between the page's drawing and its stream's opening is never pushed to it:
  // the stream says `missed` first then (scorepad/live.py, sse_response), and the page catches up
  // once. A stream opened again has caught up on opening (above): what it says then is not news.
  document.addEventListener("htmx:sseOpen", function (e) {
    var slot = e.target, events = e.detail && e.detail.source;
    if (!events || events.__hearsMissed) return;
    events.__hearsMissed = true;
    events.addEventListener("missed", function () {
      if (slot.dataset.caughtUp) return;
      slot.dataset.caughtUp = "1";
      catchUp(slot);
    });
  });
  window.addEventListener("online", function () {
    if (!window.htmx) return;
    document.querySelectorAll("[sse-connect]").forEach(function (source) {
      if (!source.dataset.sseLost) catchUp(source);  // a stream being reopened catches up once open
    });
  });
  // A live area's fetch that could not reach the server (the Wi-Fi is back a moment before the
  // server can be reached) is tried again, later each time, until one gets through; with the phone
  // offline, the online event above does it.
  var delay = 0, timer = null;
  function again(e) {
    var config = e.detail.requestConfig, elt = e.detail.elt;
    var source = elt && elt.closest ? elt.closest("[sse-connect]") : null;
    if (!config || config.verb !== "get" || !source || !navigator.onLine) return;
    delay = Math.min(delay ? delay * 2 : 2000, 30000);
    clearTimeout(timer);
    timer = setTimeout(function () { if (document.body.contains(source)) catchUp(source); }, delay);
  }
  document.addEventListener("htmx:sendError", again);
  document.addEventListener("htmx:timeout", again);
  document.addEventListener("htmx:afterRequest", function (e) {
    if (e.detail.successful && e.detail.requestConfig && e.detail.requestConfig.verb === "get") delay = 0;
  });
})();

// A push that comes while a panel's answer is on its way would be lost: htmx queues (or delays) the
// push's refresh on the panel shown then, the answer replaces that panel, and htmx drops a request
// whose element has left the page. So each live stream notes when its last push came, and a panel
// swapped in by a refresh that left before that push is refreshed once more. (Not after an action's
// answer: the action's own push comes meanwhile, and the answer is newer than it; a push missed
// then is the control room's `missed` below.)
(function () {
  function names(root) {
    var found = [];
    (root.matches && root.matches('[hx-trigger*="sse:"]') ? [root] : []).concat(
      Array.prototype.slice.call(root.querySelectorAll ? root.querySelectorAll('[hx-trigger*="sse:"]') : [])
    ).forEach(function (el) {
      (el.getAttribute("hx-trigger").match(/sse:[\w-]+/g) || []).forEach(function (t) { found.push(t.slice(4)); });
    });
    return found;
  }
  function listen(slot, root) {  // note the time of every push that a panel under `slot` listens for
    if (!slot || !slot.__sseSource) return;
    var heard = slot.__sseHeard || (slot.__sseHeard = {});
    names(root).forEach(function (name) {
      if (heard[name]) return;
      heard[name] = true;
      slot.__sseSource.addEventListener(name, function (m) {
        // when the push arrived, not now: htmx's own listener on this message ran first and sent the
        // panel's fetch already, which is no older than the push it answers
        slot.__pushedAt = m.timeStamp || performance.now();
        if (name !== "changed") slot.__urgentAt = slot.__pushedAt;  // new orders: never held by a refresh gap
      });
    });
  }
  document.addEventListener("htmx:sseOpen", function (e) {
    if (!e.detail || !e.detail.source) return;
    var slot = e.target;
    if (slot.__sseSource !== e.detail.source) { slot.__sseSource = e.detail.source; slot.__sseHeard = {}; }
    listen(slot, slot);
  });
  document.addEventListener("htmx:beforeSend", function (e) {
    var config = e.detail.requestConfig;
    if (e.detail.xhr && config && config.verb === "get") e.detail.xhr.__sentAt = performance.now();
  });
  document.addEventListener("htmx:afterSettle", function (e) {
    var panel = e.target, xhr = e.detail.xhr;
    if (!xhr || xhr.__sentAt === undefined || !panel.getAttribute) return;
    var trigger = panel.getAttribute("hx-trigger") || "";
    if (trigger.indexOf("sse:") !== 0 || !document.body.contains(panel)) return;
    var slot = panel.closest("[sse-connect]");
    if (!slot) return;
    listen(slot, panel);
    if (!(slot.__pushedAt > xhr.__sentAt)) return;
    // only "changed" came since: refresh as that push would (within the panel's refresh gap, below)
    if (!(slot.__urgentAt > xhr.__sentAt) && /(^|[\s,])sse:changed\b/.test(trigger)) htmx.trigger(panel, "sse:changed");
    else refreshAsPushed(panel);
  });
})();

// A leaderboard's patches (views/board_parts.py): a push carries only the parts of the board that
// changed (its status line, the rows whose place changed hands), each put in place by its id, and
// only onto the version of the board it was made from: a board drawn elsewhere, or a lost message,
// fetches the whole board instead (data-refresh-url). The projector pages and slides rows around it.
// A push that comes while that fetch is on its way may be newer than the board it brings back: the
// board is fetched once more when it lands, never left as it was before the push.
(function () {
  function refresh(live) {
    if (!live.dataset.refreshUrl) return;
    if (live.dataset.refreshing) { live.dataset.again = "1"; return; }
    live.dataset.refreshing = "1";
    htmx.ajax("GET", live.dataset.refreshUrl, { target: live, swap: "innerHTML" }).finally(function () {
      delete live.dataset.refreshing;
      if (live.dataset.again) { delete live.dataset.again; refresh(live); }
    });
  }
  function apply(live, text) {
    var cut = text.indexOf("\n"), head = (cut < 0 ? text : text.slice(0, cut)).split(" ");
    var board = live.querySelector("#board");
    if (!board || live.dataset.refreshing || board.dataset.version !== head[0]) return refresh(live);
    var parts = document.createElement("template");
    parts.innerHTML = cut < 0 ? "" : text.slice(cut + 1);
    var found = Array.prototype.map.call(parts.content.children, function (wrap) {
      var part = wrap.content ? wrap.content.firstElementChild : null;  // each part in a <template> of its own
      return [part, part && part.id ? live.querySelector("#" + CSS.escape(part.id)) : null];
    });
    if (found.some(function (f) { return !f[1]; })) return refresh(live);
    live.dispatchEvent(new CustomEvent("board:beforePatch", { bubbles: true }));
    found.forEach(function (f) { f[0].hidden = f[1].hidden; f[1].replaceWith(f[0]); });
    board.dataset.version = head[1];
    live.dispatchEvent(new CustomEvent("board:patched", { bubbles: true }));
  }
  document.addEventListener("htmx:sseOpen", function (e) {
    var live = e.target.id === "board-live" ? e.target : e.target.querySelector("#board-live");
    if (!live || !e.detail || !e.detail.source) return;
    e.detail.source.addEventListener("patch", function (m) { apply(live, m.data); });
    e.detail.source.addEventListener("board", function () {  // a whole board, swapped by htmx
      if (live.dataset.refreshing) live.dataset.again = "1";
    });
  });
})();

// Install the service worker (it caches the app shell so the app opens offline).
if ("serviceWorker" in navigator) {
  window.addEventListener("load", function () {
    navigator.serviceWorker.register("/sw.js", { scope: "/" });
  });
}

/* A tap is one tap (issue 31): on the scorer's page a choice is taken once. Its answer draws the
   next question where the tapped one was (the next player's "2" where Ann's "2" was), so a shaky
   second tap would enter the next player's choice too: a repeat of the same control (the same
   form's button of the same name and value) is ignored for the guard's time after the tap
   (SCOREPAD_TAP_GUARD_MS, on #play-body), and the one its answer drew stays disabled until then.
   The tapped button shows it was taken. */
(function () {
  var body = document.getElementById("play-body");
  if (!body) return;
  var GUARD = parseInt(body.dataset.tapGuardMs, 10);
  if (!(GUARD > 0)) return;
  var last = null;  // {key, at}: the last choice taken
  function keyOf(button) {
    var source = button.form || button;
    var url = source.getAttribute("hx-post") || source.getAttribute("action") || "";
    return url + " " + (button.name || "") + "=" + (button.value || "");
  }
  function choice(target) {
    var button = target.closest && target.closest("button");
    if (!button || button.type !== "submit" || !button.closest("#play-body")) return null;
    return button;
  }
  document.addEventListener("click", function (event) {
    var button = choice(event.target);
    if (!button) return;
    var key = keyOf(button), now = Date.now();
    if (last && last.key === key && now - last.at < GUARD) {  // the same control again, too soon
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    last = { key: key, at: now };
    button.classList.add("taken");
  }, true);
  document.addEventListener("htmx:afterSwap", function () {
    if (!last) return;
    var left = GUARD - (Date.now() - last.at), key = last.key;
    if (left <= 0) return;
    document.querySelectorAll("#play-body button[type=submit]").forEach(function (button) {
      if (button.disabled || button.classList.contains("taken") || keyOf(button) !== key) return;
      button.disabled = true;
      button.classList.add("held");
      setTimeout(function () { button.disabled = false; button.classList.remove("held"); }, left);
    });
  });
})();

/* A scorer's page scored from several phones fetches its body when the other phone saves a hand
   (templates/games/play.html, data-hands-refresh), carrying the hands' revision it shows. This
   phone's own answer may land while that fetch is on its way (both saved the same hand: "already
   saved, not counted"); the fetch's answer then shows no newer hands than the page does, and drawn
   last it would only wipe that notice: it is not drawn. */
document.addEventListener("htmx:beforeSwap", function (event) {
  var config = event.detail.requestConfig, xhr = event.detail.xhr;
  if (!config || !config.elt || !config.elt.hasAttribute("data-hands-refresh") || !xhr) return;
  var shown = document.querySelector("#play-sheet input[name=sheet]");
  var drawn = new DOMParser().parseFromString(xhr.responseText || "", "text/html")
    .querySelector("#play-sheet input[name=sheet]");
  if (shown && drawn && Number(drawn.value) <= Number(shown.value)) event.detail.shouldSwap = false;
});

/* After the scorer's page is swapped, its notice ("Hand 4 saved.") and the hand that follows it (its
   dealer) are read from the top: a Save tapped at the foot of a tall hand left them above the screen.
   Only when the notice is out of sight above: a tap that leaves it in view moves nothing. */
document.addEventListener("htmx:afterSwap", function (event) {
  var target = event.detail && event.detail.target;
  if (!target || target.id !== "play-body") return;
  var notice = target.querySelector(":scope > .notice[role=status]");
  if (notice && notice.getBoundingClientRect().top < 0) notice.scrollIntoView({ block: "start" });
});

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
    if (empty) {
      empty.value = fill.dataset.fillName;
      empty.dispatchEvent(new Event("input", { bubbles: true }));  // as if typed: the first-dealer choice follows
      empty.focus();
    }
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
    if (chosen && other) other.textContent = tr("other-side", "%(team)s took %(count)s.", { team: other.dataset.team, count: 13 - parseInt(chosen.value, 10) });
  });
}
/* Show typed names in the "Who deals first?" choice at once; also names typed before this script
   ran, restored by the back button or filled in by the browser. */
function seatLabel(input) {
  var match = input.name && input.name.match(/^name\.(\d+)$/);
  var label = match && document.querySelector('[data-seat-label="' + match[1] + '"]');
  if (label) label.textContent = input.value.trim() || label.dataset.default;
}
function seatLabels() { document.querySelectorAll('input[name^="name."]').forEach(seatLabel); }
/* A refused form's message is about the values it sent: once the player changes one of them, its
   message no longer describes the screen, so it goes (saving checks everything again). The field's
   own message goes, and for one of a set ("tricks.2") the message about the set ("tricks": they do
   not add up); the "Tricks to share out" counter keeps saying live whether they do. */
function clearErrors(input) {
  if (!input.name) return;
  var scope = input.form || document;
  var ids = ["err-" + input.name.replace(/\./g, "-")];
  var set = input.name.match(/^(.+)\.\d+$/);
  if (set) ids.push("err-" + set[1].replace(/\./g, "-"));
  (input.getAttribute("aria-describedby") || "").split(/\s+/).forEach(function (id) {
    if (id.indexOf("err-") === 0) ids.push(id);
  });
  ids.forEach(function (id) {
    var message = document.getElementById(id);
    if (!message || !scope.contains(message)) return;
    message.remove();
    scope.querySelectorAll('[aria-describedby="' + id + '"]').forEach(function (field) {
      field.removeAttribute("aria-describedby");
      field.removeAttribute("aria-invalid");
    });
  });
}
/* A form marked data-keep (Whist's hand: the trump, tricks and honours chosen before Save, which
   go to the server only with Save) keeps its choices in this tab's session storage under its key, so
   a reload shows them as they were, as the other variants' bids are. The key names the game and the
   hand, so a hand's choices are never offered to the next one; a form drawn from what was sent
   (data-sent: a refused Save) shows that instead. */
function keptKey(form) { return "scorepad-keep:" + form.dataset.keep; }
function keepChoices(input) {
  var form = input.form;
  if (!form || !form.dataset.keep || input.type !== "radio") return;
  var kept = {};
  form.querySelectorAll("input[type=radio]:checked").forEach(function (i) { kept[i.name] = i.value; });
  try { sessionStorage.setItem(keptKey(form), JSON.stringify(kept)); } catch (e) { /* storage off: nothing kept */ }
}
function restoreChoices() {
  document.querySelectorAll("form[data-keep]:not([data-sent])").forEach(function (form) {
    var kept;
    try { kept = JSON.parse(sessionStorage.getItem(keptKey(form)) || "{}"); } catch (e) { return; }
    form.querySelectorAll("input[type=radio]").forEach(function (input) {
      if (Object.prototype.hasOwnProperty.call(kept, input.name)) input.checked = kept[input.name] === input.value;
    });
  });
}
document.addEventListener("input", function (event) { updateCounts(); seatLabel(event.target); clearErrors(event.target); });
document.addEventListener("change", function (event) { keepChoices(event.target); updateCounts(); });
document.addEventListener("DOMContentLoaded", function () { restoreChoices(); updateCounts(); seatLabels(); });
/* An event's set-up form: its time zone is this device's unless the director typed another (the
   server checks the name; a refused form comes back with what was typed, left as it is). */
document.addEventListener("DOMContentLoaded", function () {
  var zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { zone = ""; }
  document.querySelectorAll("input[data-browser-zone]").forEach(function (input) {
    if (!input.value && zone) input.value = zone;
  });
});
document.addEventListener("htmx:afterSwap", function () { restoreChoices(); updateCounts(); seatLabels(); });

/* Events: print button, confirmations, a live panel that waits while the director types in it. */
document.addEventListener("click", function (event) {
  if (event.target.closest("[data-print]")) window.print();
});
document.addEventListener("submit", function (event) {
  var form = event.target.closest("form[data-confirm]");
  if (form && !window.confirm(form.getAttribute("data-confirm"))) event.preventDefault();
});
/* A live panel (the control room) is refreshed on every change, but not while the director is
   typing in it: a refresh would throw away what is being typed; the next change refreshes it. */
function editing(panel) {
  var active = document.activeElement;
  if (active && panel.contains(active) && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName)) return true;
  // a section opened (or closed) by a tap, e.g. a table's "A revoke?": drawn open it says data-drawn-open
  // (a part folded away to keep the page short, data-fold, is no edit: it stays as tapped, below)
  if (Array.prototype.some.call(panel.querySelectorAll("details:not([data-fold])"), function (d) {
    return d.open !== d.hasAttribute("data-drawn-open");
  })) return true;
  return Array.prototype.some.call(panel.querySelectorAll("input:not([type=hidden]), textarea, select"), function (f) {
    if (f.tagName === "SELECT") {  // with no option marked selected, the first one is the default
      var first = Array.prototype.findIndex.call(f.options, function (o) { return o.defaultSelected; });
      return f.selectedIndex !== Math.max(first, 0);
    }
    if (f.type === "checkbox" || f.type === "radio") return f.checked !== f.defaultChecked;
    return f.value !== f.defaultValue;
  });
}
function isRefresh(detail) { return detail.requestConfig && detail.requestConfig.verb === "get"; }
/* While the director's own action is on its way, no refresh starts: it could replace the panel the
   action's answer is meant for (the answer is newer anyway). Set before htmx's hx-sync runs. */
var actionSince = 0, actionPanel = "";
document.addEventListener("htmx:confirm", function (event) {
  var panel = event.detail.verb !== "get" && event.detail.elt.closest && event.detail.elt.closest("[data-hold-while-editing]");
  if (panel) {
    actionSince = Date.now();
    actionPanel = panel.id;
  }
});
var missed = false;  // a change arrived while the action was on its way: refresh once its answer is in
document.addEventListener("htmx:afterRequest", function (event) {
  if (isRefresh(event.detail) || !actionSince) return;
  actionSince = 0;
  if (missed) {
    missed = false;
    setTimeout(function () {  // after htmx has settled the new panel: refresh it as a push would
      var panel = (actionPanel && document.getElementById(actionPanel)) || document.querySelector("[data-hold-while-editing]");
      if (panel) refreshAsPushed(panel);
    }, 100);
  }
});
document.addEventListener("htmx:beforeRequest", function (event) {
  var elt = event.detail.elt;
  if (!elt.hasAttribute || !elt.hasAttribute("data-hold-while-editing") || !isRefresh(event.detail)) return;
  if (Date.now() - actionSince < 10000) {
    missed = true;
    event.preventDefault();
  } else if (editing(elt)) {
    event.preventDefault();
  }
});
/* A field being typed in a live panel that a push draws again (the round timer's minutes: the clock
   beside it must follow the push) keeps what is typed, its focus and caret: the refresh is swapped in
   around it. Only a refresh: an action's answer (the field saved, or refused beside it) is drawn as sent. */
(function () {
  var typed = null;
  document.addEventListener("htmx:beforeSwap", function (e) {
    var target = e.detail.target;
    typed = null;
    if (!target || !target.hasAttribute || !target.hasAttribute("data-keep-typing") || !isRefresh(e.detail)) return;
    target.querySelectorAll("input[id]:not([type=hidden])").forEach(function (f) {
      var focused = document.activeElement === f;
      if (!focused && f.value === f.defaultValue) return;
      (typed = typed || []).push({ id: f.id, value: f.value, focused: focused, start: f.selectionStart, end: f.selectionEnd });
    });
  });
  document.addEventListener("htmx:afterSwap", function () {
    var fields = typed;
    typed = null;
    (fields || []).forEach(function (was) {
      var f = document.getElementById(was.id);
      if (!f) return;
      f.value = was.value;
      if (!was.focused) return;
      f.focus();
      try { f.setSelectionRange(was.start, was.end); } catch (err) { /* a field without a caret */ }
    });
  });
})();

/* A live panel drawn again (a control room's refresh, a standings push) keeps the scroll of its wide
   boxes: a director who scrolled across to hand 20 or to a table's column is not sent back to the
   first column by every refresh. */
(function () {
  var kept = null;
  var BOXES = ".grid-scroll, .table-scroll";
  document.addEventListener("htmx:beforeSwap", function (e) {
    var target = e.detail.target;
    kept = null;
    if (!target || !target.id || !target.querySelectorAll) return;
    var boxes = target.querySelectorAll(BOXES);
    if (!boxes.length) return;
    kept = { id: target.id, at: Array.prototype.map.call(boxes, function (b) { return [b.scrollLeft, b.scrollTop]; }) };
  });
  document.addEventListener("htmx:afterSwap", function () {
    if (!kept) return;
    var panel = document.getElementById(kept.id), at = kept.at;
    kept = null;
    if (!panel) return;
    panel.querySelectorAll(BOXES).forEach(function (b, i) {
      if (at[i]) { b.scrollLeft = at[i][0]; b.scrollTop = at[i][1]; }
    });
  });
})();

/* A part of a live panel folded away (details data-fold, drawn open with data-drawn-open) stays as the
   director tapped it when the panel is drawn again; its id names what it shows, so a new round's
   list is drawn as the page says. */
(function () {
  var tapped = null;
  document.addEventListener("htmx:beforeSwap", function (e) {
    var target = e.detail.target;
    tapped = null;
    if (!target || !target.querySelectorAll) return;
    target.querySelectorAll("details[data-fold][id]").forEach(function (d) {
      if (d.open !== d.hasAttribute("data-drawn-open")) (tapped = tapped || {})[d.id] = d.open;
    });
  });
  document.addEventListener("htmx:afterSwap", function () {
    if (!tapped) return;
    Object.keys(tapped).forEach(function (id) {
      var d = document.getElementById(id);
      if (d && d.hasAttribute("data-fold")) d.open = tapped[id];
    });
    tapped = null;
  });
})();

/* A live panel that a hall's every entry changes (a control room's grid, a Military table's flags and
   rank) is drawn again at most once every data-refresh-gap-ms on "changed" (or its poll): a change
   inside the gap is drawn when the gap is up, with every change in between. So 64 tables reporting within a minute
   cost each screen a few refreshes, not 64, and the last change is always drawn. */
var refreshedAt = {}, refreshLater = {};
document.addEventListener("htmx:beforeRequest", function (event) {
  var elt = event.detail.elt, config = event.detail.requestConfig;
  if (event.defaultPrevented || !elt.id || !elt.hasAttribute || !elt.hasAttribute("data-refresh-gap-ms")) return;
  // new orders (or a table's own push) come at once; "changed" and a poll (no event) keep to the gap
  if (!isRefresh(event.detail) || (config.triggeringEvent && config.triggeringEvent.type !== "sse:changed")) return;
  var id = elt.id, now = Date.now();
  var wait = (refreshedAt[id] || 0) + parseInt(elt.getAttribute("data-refresh-gap-ms"), 10) - now;
  if (!(wait > 0)) {
    refreshedAt[id] = now;
    return;
  }
  event.preventDefault();
  if (refreshLater[id]) return;
  refreshLater[id] = setTimeout(function () {
    refreshLater[id] = 0;
    var panel = document.getElementById(id);
    if (panel) htmx.trigger(panel, "sse:changed");
  }, wait);
});
document.addEventListener("htmx:beforeSwap", function (event) {
  var elt = event.detail.elt;
  if (!elt.hasAttribute || !elt.hasAttribute("data-hold-while-editing") || !isRefresh(event.detail)) return;
  var stamp = (event.detail.serverResponse || "").match(/data-stamp="(\d+) (\d+)"/);
  var shown = (elt.dataset.stamp || "0 0").split(" ").map(Number);
  var stale = stamp && (+stamp[1] < shown[0] || (+stamp[1] === shown[0] && +stamp[2] <= shown[1]));
  if (editing(elt) || stale) {
    // the director started typing, or this refresh is not newer than what is shown (an answer to the
    // director's own action came first): keep what is there
    event.detail.shouldSwap = false;
  }
});

/* Large text (views/settings.py): the header's toggle takes effect at once, without reloading the
   page, and writes the same cookie the server reads to draw the next page at that size. A page shown
   from a cache (the back button, the offline copy) follows the cookie too. */
(function () {
  var COOKIE = "text_size", KEEP = 400 * 24 * 3600;
  function cookieLarge() { return /(?:^|;\s*)text_size=large(?:;|$)/.test(document.cookie); }
  function show(large) {
    document.documentElement.classList.toggle("large-text", large);
    document.querySelectorAll("[data-text-size]").forEach(function (button) {
      button.setAttribute("aria-pressed", large ? "true" : "false");
      var field = button.form && button.form.querySelector('input[name="large"]');
      if (field) field.value = large ? "0" : "1";
    });
  }
  function remember(large) {
    var secure = location.protocol === "https:" ? "; secure" : "";
    document.cookie = COOKIE + "=" + (large ? "large; max-age=" + KEEP : "; max-age=0") + "; path=/; samesite=lax" + secure;
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-text-size]");
    if (!button) return;
    event.preventDefault();  // no round trip: the form is for a browser without script
    var large = button.getAttribute("aria-pressed") !== "true";
    remember(large);
    show(large);
  });
  document.addEventListener("DOMContentLoaded", function () { show(cookieLarge()); });
  window.addEventListener("pageshow", function (event) { if (event.persisted) show(cookieLarge()); });
})();

/* Keep the screen on (templates/_wake_lock.html, issue 30): a scoring or table page lies on the table
   between hands, and the phone must not lock in the meantime. The Screen Wake Lock API exists only in a
   secure context (HTTPS, or localhost), not over plain HTTP at a LAN name: there the page says so. The
   choice is this phone's (localStorage); the browser lets the lock go whenever the page is hidden (a
   call, another app), so it is asked for again each time the page is shown. */
(function () {
  var KEY = "scorepad-wake-lock";
  var lock = null, asking = false;
  function wanted() { try { return localStorage.getItem(KEY) === "on"; } catch (e) { return false; } }
  function remember(on) {
    try { if (on) localStorage.setItem(KEY, "on"); else localStorage.removeItem(KEY); } catch (e) { /* storage off */ }
  }
  function box() { return document.querySelector("[data-wake-lock]"); }
  function show(state) {  // "off", "held", "refused", "insecure" or "unsupported"
    var el = box();
    if (!el) return;
    el.hidden = false;
    el.dataset.wakeLock = state;
    var button = el.querySelector("[data-wake-lock-toggle]");
    button.hidden = state === "insecure" || state === "unsupported";
    button.setAttribute("aria-pressed", wanted() ? "true" : "false");
    el.querySelectorAll("[data-wake-lock-note]").forEach(function (note) { note.hidden = note.dataset.wakeLockNote !== state; });
  }
  function acquire() {
    if (lock || asking || !wanted() || document.visibilityState !== "visible") return;
    asking = true;
    navigator.wakeLock.request("screen").then(function (got) {
      asking = false;
      if (!wanted()) { got.release(); return; }  // turned off while it was being asked for
      lock = got;
      got.addEventListener("release", function () {
        if (lock !== got) return;
        lock = null;
        // let go while the page is seen (a battery saver): say so; hidden, it is asked for again once shown
        if (document.visibilityState === "visible" && wanted()) show("refused");
      });
      show("held");
    }, function () {
      asking = false;
      if (wanted()) show("refused");
    });
  }
  function release() {
    var held = lock;
    lock = null;
    if (held) held.release();
    show("off");
  }
  function start() {
    if (!box()) return;
    if (!window.isSecureContext) return show("insecure");
    if (!("wakeLock" in navigator)) return show("unsupported");
    show(wanted() && lock ? "held" : "off");
    acquire();
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-wake-lock-toggle]");
    if (!button) return;
    var on = button.getAttribute("aria-pressed") !== "true";
    remember(on);
    if (on) { show("off"); acquire(); } else release();
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && box() && window.isSecureContext && "wakeLock" in navigator) acquire();
  });
  document.addEventListener("DOMContentLoaded", start);
  window.addEventListener("pageshow", function (event) { if (event.persisted) start(); });
})();

/* A form sent once (importing a game record): a second tap while the first is on its way would make
   a second game. Once sent, its button waits; a page shown again by the back button is sendable again. */
document.addEventListener("submit", function (event) {
  var form = event.target;
  if (event.defaultPrevented || !form.hasAttribute || !form.hasAttribute("data-submit-once")) return;
  if (form.dataset.sending) {
    event.preventDefault();
    return;
  }
  // once every listener has had its say (outbox.js keeps a form from going out with no connection)
  setTimeout(function () { if (!event.defaultPrevented) form.dataset.sending = "1"; }, 0);
});
window.addEventListener("pageshow", function () {
  document.querySelectorAll("form[data-sending]").forEach(function (form) { delete form.dataset.sending; });
});

/* The round timer (templates/board/_timer.html, events/timer.py): the server gives when a running
   round ends and its own time when it drew the timer; the page counts down from them on its own
   monotonic clock (performance.now), so a phone whose date and time are wrong shows the same time
   left as every other screen. A fresh copy comes with each `timer` push (and on catching up after a
   lost stream). At 2 minutes the warning shows; at zero, "Time is up": nothing else changes. Each is
   said once to a screen reader (the role="status" line). This ticks the display only; it asks the
   server nothing. */
(function () {
  function clockText(ms) {
    var seconds = Math.ceil(Math.max(0, ms) / 1000);
    var rest = seconds % 60;
    return Math.floor(seconds / 60) + ":" + (rest < 10 ? "0" : "") + rest;
  }
  function leftMs(el) {
    if (el.dataset.timerState !== "running") return parseInt(el.dataset.leftMs, 10) || 0;
    if (!el.__drawnAt) el.__drawnAt = performance.now();  // when this copy of the server's clock arrived
    var serverNow = parseInt(el.dataset.nowMs, 10) + (performance.now() - el.__drawnAt);
    return parseInt(el.dataset.endsMs, 10) - serverNow;
  }
  function show(el) {
    if (el.dataset.timerState === "off") return;
    var left = leftMs(el), warn = parseInt(el.dataset.warnMs, 10);
    var up = el.dataset.timerState === "running" && left <= 0, warning = !up && left > 0 && left <= warn;
    var clock = el.querySelector(".timer-clock"), text = clockText(left);
    if (clock && clock.textContent !== text) clock.textContent = text;
    el.classList.toggle("is-warning", warning);
    el.classList.toggle("is-up", up);
    var warnNote = el.querySelector("[data-timer-warn]"), upNote = el.querySelector("[data-timer-up]");
    if (warnNote) warnNote.hidden = !warning;
    if (upNote) upNote.hidden = !up;
    // said once per page, not per copy: a fresh copy (each push) keeps what was said
    var now = up ? "up" : warning ? "warning" : "", say = el.querySelector("[data-timer-say]");
    if (shown === null) shown = now;  // what the page showed when it opened is not news
    if (now !== shown) said = now && (up ? upNote : warnNote) ? (up ? upNote : warnNote).textContent : "";
    shown = now;
    if (say && say.textContent !== said) say.textContent = said;
  }
  var shown = null, said = "";
  function tick() {
    document.querySelectorAll(".round-timer[data-timer-state]").forEach(show);
  }
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", tick);
  setInterval(tick, 250);
})();
