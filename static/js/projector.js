/* The projector (templates/board/projector.html): the board in pages that each fit the screen, turned
   every data-page-seconds (or with the arrow keys), and rows that slide to their new rank.

   The board is measured, not guessed: what can go to another page is a standings row, a line of a
   list (`ol.moves`), or a block kept whole (the medals, the bracket). Each page takes as many of
   them, in order, as fit; a table or a list shows its heading on every page it has lines on. A block
   marked data-page="wide" (the bracket) that does not fit beside the QR code takes a page of its own,
   the whole width. The status line, and a block marked data-page="keep" (Military Whist's moves),
   stay on every page: a keep block that leaves too little room is paged like the rest. */
(function () {
  "use strict";
  var PAGE_SECONDS = 12, MIN_ROOM = 0.35;  // a keep block must leave this much of the board to the rest
  var page = 0, pages = [], flow = [], shape = "", before = {};

  function live() { return document.querySelector("body.projector #board-live"); }
  function board(root) { return root.querySelector("#board") || root; }
  function lines(block) { return block.querySelectorAll(".board-rows > tr, ol.moves > li"); }

  /* What a block is, to tell when the board changed shape (the medals came, the seating went). */
  function kind(el) {
    var classes = Array.prototype.filter.call(el.classList, function (c) { return c.indexOf("htmx-") !== 0; });
    return el.tagName + "." + classes.join(".") + "#" + (el.id || el.getAttribute("aria-labelledby") || "");
  }

  /* What goes onto the pages, in order: {el, group (the table or section it belongs to), wide}. */
  function collect(root, keep) {
    var found = [];
    Array.prototype.forEach.call(board(root).children, function (block) {
      block.hidden = false;
      if (block.classList.contains("board-status") || (keep && block.dataset.page === "keep")) return;
      var inside = lines(block);
      if (inside.length) {
        Array.prototype.forEach.call(inside, function (el) { found.push({ el: el, group: block, wide: false }); });
      } else {
        found.push({ el: block, group: null, wide: block.dataset.page === "wide" });
      }
    });
    return found;
  }

  /* Show the units from..to (end excluded) of the flow, each group only when a line of it is shown. */
  function show(from, to) {
    var groups = [];
    flow.forEach(function (u, i) {
      u.el.hidden = i < from || i >= to;
      if (u.group && groups.indexOf(u.group) < 0) groups.push(u.group);
    });
    groups.forEach(function (g) {
      g.hidden = !flow.some(function (u, i) { return u.group === g && i >= from && i < to; });
    });
  }

  function fits(root) {
    return root.scrollHeight <= root.clientHeight + 1 && root.scrollWidth <= root.clientWidth + 1;
  }

  /* The page that starts at unit `start`: as many units as fit, in order (adding one only makes the
     board taller, so a binary search finds the last). A block that may go wide (the bracket) and does
     not fit beside the QR code's column even on its own takes a page of its own and the whole width
     (the code sits under its last, short column), made smaller only if it still does not fit. */
  function pageFrom(root, start) {
    root.classList.remove("wide");
    show(start, start + 1);
    if (flow[start].wide && !fits(root)) {
      root.classList.add("wide");
      shrink(root, flow[start].el, start);
      return { from: start, to: start + 1, wide: true };
    }
    show(start, flow.length);
    if (fits(root)) return { from: start, to: flow.length, wide: false };
    var lo = start + 1, hi = flow.length - 1;  // lo fits (or must, being one unit); find the last that does
    while (lo < hi) {
      var mid = Math.ceil((lo + hi) / 2);
      show(start, mid);
      if (fits(root)) lo = mid; else hi = mid - 1;
    }
    return { from: start, to: lo, wide: false };
  }

  /* A block on a page of its own, the whole width, that still does not fit (a bracket of very long
     names) is made smaller (its CSS sizes follow --fit), down to 60 %: smaller beats cut off. */
  function shrink(root, el, i) {
    show(i, i + 1);
    for (var fit = 0.95; !fits(root) && fit >= 0.6; fit -= 0.05) el.style.setProperty("--fit", fit.toFixed(2));
  }

  /* Once the board's status line says the event is over, the side's QR code is the players' own results. */
  function sideCode(root) {
    var over = !!root.querySelector("#board .board-status[data-final]");
    var results = document.querySelector("[data-results-qr]"), standings = document.querySelector(".board-qr");
    if (results && standings) { results.hidden = !over; standings.hidden = over; }
  }

  /* Page the board anew; false when it changed shape (and starts again from its first page). */
  function layout() {
    var root = live();
    if (!root) return false;
    sideCode(root);
    root.classList.remove("wide");
    flow = collect(root, true);
    show(0, 0);
    var kept = board(root).querySelector('[data-page="keep"]');
    if (kept && (!fits(root) || kept.getBoundingClientRect().height > (1 - MIN_ROOM) * root.clientHeight)) {
      flow = collect(root, false);  // the moves would leave no room: they take their turn like the rest
    }
    flow.forEach(function (u) { if (u.wide) u.el.style.removeProperty("--fit"); });
    var count = pages.length, was = shape;
    shape = flow.map(function (u) { return kind(u.group || u.el); })
      .filter(function (k, i, all) { return k !== all[i - 1]; }).join(" ");
    pages = [];
    for (var start = 0; start < flow.length;) {
      var made = pageFrom(root, start);
      pages.push(made);
      start = made.to;
    }
    if (!pages.length) pages.push({ from: 0, to: 0, wide: false });
    var same = pages.length === count && shape === was;
    if (!same) page = 0;  // a new shape (the medals came): from the top
    turn(0);
    return same;
  }

  function turn(by) {
    page = ((page + by) % pages.length + pages.length) % pages.length;
    live().classList.toggle("wide", pages[page].wide);
    show(pages[page].from, pages[page].to);
    var note = document.querySelector("body.projector .page-note");
    if (note) {
      note.hidden = pages.length < 2;
      note.textContent = pages.length < 2 ? "" : tr("page-of", "Page %(page)s of %(pages)s", { page: page + 1, pages: pages.length });
    }
  }

  function rows(root) { return Array.prototype.slice.call(root.querySelectorAll(".board-rows tr[data-team]")); }
  function remember(root) {
    before = {};
    // a row on another page has no place on the screen to slide from
    rows(root).forEach(function (r) { if (!r.hidden) before[r.dataset.team] = r.getBoundingClientRect().top; });
  }
  function slide(root) {
    rows(root).forEach(function (r) {
      var old = before[r.dataset.team];
      if (old === undefined || r.hidden) return;
      var delta = old - r.getBoundingClientRect().top;
      if (!delta) return;
      r.style.transition = "none";
      r.style.transform = "translateY(" + delta + "px)";
      requestAnimationFrame(function () { r.style.transition = ""; r.style.transform = ""; });
    });
  }

  var timer = null, seconds = PAGE_SECONDS;
  function restart() {
    if (timer) clearInterval(timer);
    timer = setInterval(function () { turn(1); }, seconds * 1000);
  }

  document.addEventListener("htmx:sseBeforeMessage", function (e) {
    if (e.target.id === "board-live") remember(e.target);
  });
  document.addEventListener("htmx:sseMessage", function (e) {
    if (e.target.id !== "board-live") return;
    // the same page as before the update, its rows sliding to their new rank, unless the board changed shape
    if (layout()) slide(e.target);
  });
  document.addEventListener("board:beforePatch", function (e) {  // only some rows come (app.js)
    if (e.target.id === "board-live" && live()) remember(e.target);
  });
  document.addEventListener("board:patched", function (e) {
    if (e.target.id === "board-live" && live() && layout()) slide(e.target);
  });
  document.addEventListener("htmx:afterSwap", function (e) {  // the catch-up after a lost stream
    if (e.target.id === "board-live" && e.detail.xhr) layout();
  });
  document.addEventListener("keydown", function (e) {
    if (!live()) return;
    var by = { ArrowRight: 1, PageDown: 1, " ": 1, ArrowLeft: -1, PageUp: -1 }[e.key];
    if (!by) return;
    e.preventDefault();
    turn(by);
    restart();
  });
  document.addEventListener("DOMContentLoaded", function () {
    var root = live();
    if (!root) return;
    seconds = parseFloat(root.dataset.pageSeconds) || PAGE_SECONDS;
    layout();
    restart();
    window.addEventListener("resize", layout);
    window.addEventListener("load", layout);
  });
})();
