/* The table page on a phone (works with htmx; without JavaScript the page is plain forms). The
 * board (templates/board.html) loads it too, for the stream below.
 *
 * - A change made on another phone arrives over the game's event stream (#live, htmx's SSE
 *   extension; docs/live-events.md), else through the poll (#sync) where the stream cannot stay open.
 * - A change made on another phone re-renders the current view; what the player had open,
 *   typed or focused is carried over, and the element at the top of the screen (or under the
 *   finger) keeps its place on screen: rows added or removed above it do not move it.
 *   A decision helper's slot is keyed by its links and its decision (data-decision): an open
 *   helper is carried over to the same decision only, never into the next one.
 * - When a re-render puts a different button under the finger, buttons take no tap for 700 ms;
 *   a decision that was not there before takes none for 500 ms (a tap meant for the one it replaced).
 * - A game the server does not have (404) is said on every view (#connection); taps are kept.
 * - #connection shows while the server cannot be reached. A tap made meanwhile is kept (the
 *   tapped form is outlined; #unsent says so, fixed above the tabs, so nothing in the page moves)
 *   and sent again by itself as soon as the server answers the poll again, exactly once: its
 *   idempotency token goes with it. If the game changed so that it no longer fits, the answer
 *   says so in words.
 * - When it becomes this phone's turn, the title says so, and the phone vibrates if the page is
 *   scrolled or in the background.
 */
(function () {
  "use strict";
  if (!window.htmx) { return; }

  var saved = null;      // what the current view looked like before a swap
  var unsent = {};       // form key -> [[name, value], ...] of taps that did not reach the server
  var wasMine = null;
  var entered = false;   // the view just swapped in is the answer to this phone's own entry
  var settleAnchor = null;  // what stays in place, once the swap has settled

  function view() { return document.getElementById("view"); }
  function key(el) { return el && el.getAttribute("data-k"); }
  function esc(s) { return window.CSS && CSS.escape ? CSS.escape(s) : s.replace(/["\\]/g, "\\$&"); }
  function byKey(root, sel, k) { return root.querySelector(sel + '[data-k="' + esc(k) + '"]'); }

  function slotKey(slot) {
    var prev = slot.previousElementSibling;
    if (!prev) { return null; }
    var links = prev.matches("a") ? [prev] : prev.querySelectorAll("a[href]");
    return Array.from(links, function (a) { return a.getAttribute("href"); }).join() + slot.dataset.decision;
  }

  function snapshot(root) {
    var s = { y: window.scrollY, open: [], values: {}, slots: {}, focus: null };
    root.querySelectorAll("details[data-k]").forEach(function (d) { if (d.open) { s.open.push(key(d)); } });
    root.querySelectorAll("form[data-k]").forEach(function (f) {
      var typed = [];
      f.querySelectorAll("input, select").forEach(function (i) {
        if (i.type === "hidden") { return; }
        if ((i.type === "radio" || i.type === "checkbox") ? i.checked !== i.defaultChecked : i.value !== i.defaultValue) {
          typed.push([i.name, i.value, i.type, i.checked]);
        }
      });
      if (typed.length) { s.values[key(f)] = typed; }
    });
    root.querySelectorAll(".helper-slot, .why-slot").forEach(function (slot) {
      var k = slotKey(slot);
      if (k && slot.innerHTML.trim()) { s.slots[k] = slot; }
    });
    var a = document.activeElement;
    if (a && root.contains(a)) {
      var f = a.closest("form[data-k]"), d = a.closest("details[data-k]");
      s.focus = { form: key(f), details: key(d), name: a.name || null, value: a.value || null, tag: a.tagName };
    }
    return s;
  }

  function fill(form, typed) {
    typed.forEach(function (t) {
      form.querySelectorAll('[name="' + esc(t[0]) + '"]').forEach(function (i) {
        if (t[2] === "radio" || t[2] === "checkbox") { if (i.value === t[1]) { i.checked = t[3]; } }
        else { i.value = t[1]; }
      });
    });
  }

  function restore(root, s, keepScroll) {
    s.open.forEach(function (k) { var d = byKey(root, "details", k); if (d) { d.open = true; } });
    Object.keys(s.values).forEach(function (k) { var f = byKey(root, "form", k); if (f) { fill(f, s.values[k]); } });
    root.querySelectorAll(".helper-slot, .why-slot").forEach(function (slot) {
      var k = slotKey(slot);
      if (k && s.slots[k] && !slot.innerHTML.trim()) {
        // the old nodes themselves: what was typed or opened in the helper stays as it was
        while (s.slots[k].firstChild) { slot.appendChild(s.slots[k].firstChild); }
      }
    });
    if (s.focus) {
      var scope = s.focus.form ? byKey(root, "form", s.focus.form) : s.focus.details ? byKey(root, "details", s.focus.details) : null;
      var el = null;
      if (scope && s.focus.name) { el = scope.querySelector('[name="' + esc(s.focus.name) + '"]'); }
      if (!el && scope && s.focus.tag === "SUMMARY") { el = scope.querySelector("summary"); }
      if (el) { el.focus({ preventScroll: true }); }
    }
    if (keepScroll) { window.scrollTo(0, s.y); }  // then keepAnchor corrects for rows added or removed above
  }

  function unsentBar(message) {
    var bar = document.getElementById("unsent");
    if (!bar) { return; }
    var n = Object.keys(unsent).length;
    bar.hidden = !message && !n;
    var kept = !n ? "" : n === 1 ? "1 tap kept: it goes by itself once the server answers." :
      n + " taps kept: they go by themselves once the server answers.";
    bar.querySelector(".msg").textContent = message && kept ? message + " " + kept : message || kept;
    bar.querySelector(".retry").textContent = n ? "Send now" : "OK";  // with nothing kept, it dismisses the words
  }

  function markUnsent(form, message) {
    var k = key(form);
    if (k && !unsent[k]) { unsent[k] = form._rssSent || Array.from(new FormData(form).entries()); }
    form.classList.add("unsent-form");  // an outline: it takes no room, so nothing moves
    unsentBar(message);
  }

  function restoreUnsent(root) {
    var gone = false;
    Object.keys(unsent).forEach(function (k) {
      var f = byKey(root, "form", k);
      if (!f) { delete unsent[k]; gone = true; return; }
      var d = f.closest("details");
      if (d) { d.open = true; }
      fill(f, unsent[k].map(function (e) { return [e[0], e[1], "", false]; }).filter(function (e) {
        return !/^(seq|token|csrf_token)$/.test(e[0]);
      }));
      f.classList.add("unsent-form");
    });
    if (gone) { unsentBar(GONE); }
  }

  // send one kept tap again: exactly what was sent (its seq and token too), from its form
  function resend(form) {
    var sent = unsent[key(form)] || form._rssSent || [];
    sent.forEach(function (e) {
      var fields = form.querySelectorAll('[name="' + esc(e[0]) + '"]:not(button)');
      if (fields.length) {
        fields.forEach(function (i) { if (i.type === "hidden") { i.value = e[1]; } });
      } else {
        var h = document.createElement("input");
        h.type = "hidden"; h.name = e[0]; h.value = e[1];
        form.appendChild(h);
      }
    });
    form._rssResending = true;
    htmx.trigger(form, "submit");
  }

  var LATE = "A tap made while offline was not entered: the game changed meanwhile, so it no longer fits. Decide again.";
  var GONE = "A tap made while offline was not sent: the game changed meanwhile, so it no longer fits. Decide again.";
  var resending = false;
  function resendAll() {
    if (resending) { return; }
    var keys = Object.keys(unsent);
    if (!keys.length) { return; }
    resending = true;
    var root = view();
    keys.forEach(function (k) {
      var f = root && byKey(root, "form", k);
      if (f) { resend(f); } else { delete unsent[k]; unsentBar(GONE); }
    });
  }

  // where the finger is (the last touch or mouse position): what stays in place, and what a
  // re-render must not swap for another button unnoticed
  var pointer = null;
  document.addEventListener("pointermove", function (e) { pointer = [e.clientX, e.clientY]; }, { passive: true });
  document.addEventListener("pointerdown", function (e) { pointer = [e.clientX, e.clientY]; }, { passive: true });

  function ident(el) {
    if (!el) { return null; }
    if (el.id) { return "#" + esc(el.id); }
    var k = key(el);
    return k ? el.tagName.toLowerCase() + '[data-k="' + esc(k) + '"]' : null;
  }

  // candidates, best first: what is focused, the element under the finger, then the keyed (or identified)
  // elements whose top is on screen; the first that is still there after the swap is kept in place
  function findAnchor(root) {
    var top = 0, bar = document.getElementById("turn");
    if (bar) { top = Math.max(0, bar.getBoundingClientRect().bottom); }
    var out = [];
    function add(el) {
      el = el && root.contains(el) ? el.closest("[data-k], [id]") : null;
      if (el && root.contains(el) && ident(el)) { out.push({ sel: ident(el), top: el.getBoundingClientRect().top }); }
    }
    var focused = document.activeElement;  // what is being typed into, when it is on screen
    if (focused && focused !== document.body) {
      var f = focused.getBoundingClientRect();
      if (f.bottom > top && f.top < window.innerHeight) { add(focused); }
    }
    add(pointer && document.elementFromPoint(pointer[0], pointer[1]));
    var all = root.querySelectorAll("[data-k], [id]");
    for (var i = 0; i < all.length && out.length < 8; i++) {
      var r = all[i].getBoundingClientRect();
      if (r.height && r.top >= top && r.top < window.innerHeight && ident(all[i])) {
        out.push({ sel: ident(all[i]), top: r.top });
      }
    }
    return out;
  }

  function keepAnchor(root, anchors) {
    for (var i = 0; anchors && i < anchors.length; i++) {
      var el = root.querySelector(anchors[i].sel);
      if (el) {
        var moved = el.getBoundingClientRect().top - anchors[i].top;
        if (moved) { window.scrollBy(0, moved); }
        return;
      }
    }
  }

  function targetUnder() {
    if (!pointer) { return null; }
    var el = document.elementFromPoint(pointer[0], pointer[1]);
    el = el && el.closest("button, summary, a, input, select, label");
    if (!el) { return null; }
    var f = el.closest("[data-k]");
    return (f ? key(f) : "") + "|" + el.tagName + "|" + el.textContent.trim();
  }

  // a decision that was not on screen before a refresh takes no tap for half a second: a tap aimed
  // at the decision it replaced does nothing (issue 37)
  function fresh(root, before) {
    root.querySelectorAll("[data-k]").forEach(function (el) {
      if (before.indexOf(key(el)) >= 0) { return; }
      el.classList.add("fresh");
      window.setTimeout(function () { el.classList.remove("fresh"); }, 500);
    });
  }

  function settle(root) {
    root.classList.add("settling");
    window.clearTimeout(root._rssSettle);
    root._rssSettle = window.setTimeout(function () { root.classList.remove("settling"); }, 700);
  }

  // the result of one's own entry, where one is looking: above the navigation when the
  // result line at the top of the view is scrolled out of sight
  function showResult(root) {
    var last = root.querySelector("#c-last.entered");

    var old = document.querySelector(".toast");
    if (old) { old.remove(); }
    if (!last) { return; }
    var r = last.getBoundingClientRect();
    var bar = document.getElementById("turn");
    var top = bar ? bar.getBoundingClientRect().bottom : 0;

    if (r.top >= top && r.bottom <= window.innerHeight) { return; }
    var toast = last.cloneNode(true);
    toast.removeAttribute("id");
    toast.classList.add("toast");
    toast.setAttribute("role", "status");
    toast.querySelectorAll("[id]").forEach(function (e) { e.removeAttribute("id"); });
    toast.removeAttribute("aria-labelledby");
    document.body.appendChild(toast);
    window.setTimeout(function () { toast.remove(); }, 4000);
  }

  function setConnection(ok, problem, gone) {
    var c = document.getElementById("connection");
    if (!c) { return; }
    c.hidden = !!ok;
    c.classList.toggle("problem", !ok && !!problem);  // reached, but its database fails (503)
    c.classList.toggle("gone", !ok && !!gone);  // reached, but it has no such game (404): never shown as live
    document.body.classList.toggle("offline", !ok);
    if (document.body.classList.toggle("game-gone", !ok && !!gone)) { document.title = "Not on the server"; }
  }

  function syncTurn() {
    var turn = document.getElementById("turn");
    if (!turn || document.body.classList.contains("game-gone")) { return; }
    if (turn.dataset.title) { document.title = turn.dataset.title; }
    var mine = turn.dataset.mine === "1";
    if (mine && wasMine === false && (document.hidden || window.scrollY > 0) && navigator.vibrate) {
      try { navigator.vibrate([200, 100, 200]); } catch (e) { /* not allowed: the title says it */ }
    }
    wasMine = mine;
  }

  function syncNav() {
    var region = document.getElementById("region");
    if (!region) { return; }
    document.querySelectorAll("nav.tabs a[data-view]").forEach(function (a) {
      if (a.dataset.view === region.dataset.view) { a.setAttribute("aria-current", "page"); }
      else { a.removeAttribute("aria-current"); }
    });
  }

  // a form's answer (whatever it says) means its tap reached the server: it is no longer kept
  function reached(form) {
    if (!form || !key(form) || !unsent[key(form)]) { return; }
    delete unsent[key(form)];
    form.classList.remove("unsent-form");
    if (!Object.keys(unsent).length) { resending = false; unsentBar(null); }
  }

  document.addEventListener("htmx:beforeSwap", function (evt) {
    var from = evt.detail.requestConfig && evt.detail.requestConfig.elt;
    var xhr = evt.detail.xhr;
    if (from && from.closest && xhr && xhr.status > 0 && xhr.status < 500 && xhr.status !== 404) {
      var sent = from.closest("form");
      var late = sent && sent._rssResending && (xhr.status === 409 || xhr.status === 422);
      reached(sent);
      // said where it stays: the view itself may be re-rendered by the poll a moment later
      if (late) { unsentBar(LATE); }
    }
    if (evt.detail.target && evt.detail.target.id === "view") {
      var elt = from;
      var root = view();
      saved = {
        kind: elt && elt.id === "region" ? "refresh" : elt && elt.closest("form") ? "entry" : "navigate",
        state: snapshot(root),
        anchor: findAnchor(root),
        under: targetUnder(),
        keys: Array.from(root.querySelectorAll("[data-k]"), key)
      };
    }
  });

  document.addEventListener("htmx:afterSwap", function (evt) {
    if (evt.detail.target && evt.detail.target.id === "view" && saved) {
      var root = view();
      if (saved.kind !== "navigate") {
        restore(root, saved.state, true);
        restoreUnsent(root);
        keepAnchor(root, saved.anchor);
        settleAnchor = saved.anchor;  // again once settled: the turn bar above may change its height then
      }
      if (saved.kind === "entry") {
        // the buttons of the next step must not take a tap meant for the one just made
        settle(root);
        entered = true;
      } else if (saved.kind === "refresh") {
        if (targetUnder() !== saved.under) { settle(root); }  // another phone's change put something else under the finger
        fresh(root, saved.keys);
      }
      saved = null;
    }
  });

  // htmx settles attributes of elements that keep their id (#turn, #c-last) after the swap:
  // read them once settled
  document.addEventListener("htmx:afterSettle", function (evt) {
    if (evt.detail.target && evt.detail.target.id === "view") {
      if (settleAnchor) { keepAnchor(view(), settleAnchor); settleAnchor = null; }
      syncNav();
      if (entered) { entered = false; showResult(view()); }
    }
    syncTurn();
  });

  document.addEventListener("htmx:sendError", function (evt) { onFailure(evt, "Not sent yet: no connection."); });
  document.addEventListener("htmx:timeout", function (evt) { onFailure(evt, "Not sent yet: the server did not answer."); });
  document.addEventListener("htmx:responseError", function (evt) {
    var form = evt.detail.elt && evt.detail.elt.closest && evt.detail.elt.closest("form");
    if (form && evt.detail.xhr && evt.detail.xhr.status === 404) { markUnsent(form, "Not sent: this game is not on the table's server."); }
    if (form && evt.detail.xhr && evt.detail.xhr.status >= 500) { markUnsent(form, "Not sent yet: the server failed (" + evt.detail.xhr.status + ")."); }
  });

  function onFailure(evt, message) {
    setConnection(false);
    var form = evt.detail.elt && evt.detail.elt.closest && evt.detail.elt.closest("form");
    if (form && form.method && form.method.toLowerCase() === "post") { markUnsent(form, message); }
  }

  document.addEventListener("htmx:afterRequest", function (evt) {
    var xhr = evt.detail.xhr;
    var form = evt.detail.elt && evt.detail.elt.closest && evt.detail.elt.closest("form");
    if (form && form._rssResending) { form._rssResending = false; resending = false; }
    if (xhr && xhr.status > 0) {
      setConnection(xhr.status !== 503 && xhr.status !== 404, xhr.status === 503, xhr.status === 404);
      if (xhr.status === 404) { return; }  // the game is not there: its taps stay kept (not sent)
      if (xhr.status < 500) { reached(form); }
      // the server answers again: what was tapped meanwhile goes now, by itself
      if (xhr.status < 500 && !form) { resendAll(); }
    }
  });

  // what a form sent (with the value of the button tapped), to send exactly that again on Retry
  document.addEventListener("htmx:configRequest", function (evt) {
    var form = evt.detail.elt && evt.detail.elt.closest && evt.detail.elt.closest("form");
    if (form && evt.detail.formData) {
      form._rssSent = Array.from(evt.detail.formData.entries()).filter(function (e) { return typeof e[1] === "string"; });
    }
  });

  document.addEventListener("click", function (evt) {
    var retry = evt.target.closest && evt.target.closest("#unsent button.retry");
    if (!retry) { return; }
    if (!Object.keys(unsent).length) { document.getElementById("unsent").hidden = true; return; }
    resending = false;
    resendAll();
  });

  // -- the game's event stream (#live: htmx's SSE extension, static/sse.min.js, opens it, and again
  // after an error). While it is open and beating, the polls (.sync) wait and each message re-fetches
  // the view once (after this phone's own entry, only if its answer did not bring that seq). Closed:
  // the notice shows (if it was ever open); refused or silent for two beats: the polls go on as before.
  var stream = null, everOpen = false, watchdog = 0, posting = 0, waiting = 0;
  function rendered() { var s = document.getElementById("sync"); return s ? +s.getAttribute("data-seq") : -1; }
  function changed(seq) {
    if (posting) { waiting = Math.max(waiting, seq); }
    else if (seq !== rendered()) { htmx.trigger(document.body, "rss-changed"); }
  }
  function beating(source) {
    window.clearTimeout(watchdog);
    watchdog = window.setTimeout(function () { drop(source, true); }, 11000);
  }
  function drop(source, restart) {
    if (source !== stream) { return; }
    stream = null;
    window.clearTimeout(watchdog);
    if (everOpen) { setConnection(false); }
    if (restart) {  // two beats missed: a new stream from a new element (the old one may be half-dead)
      source.close();
      var old = document.getElementById("live"), c = old.cloneNode(false);
      c.setAttribute("sse-connect", c.getAttribute("sse-connect").replace(/seq=\d*/, "seq=" + rendered()));
      old.replaceWith(c);
      htmx.process(c);
    }
  }
  document.addEventListener("htmx:sseOpen", function (evt) {
    var source = evt.detail.source;
    stream = source;
    everOpen = true;
    beating(source);
    if (!source._rss) {
      source._rss = true;
      source.addEventListener("message", function (e) { beating(source); changed(+e.data); });
      source.addEventListener("beat", function () { beating(source); });
      source.addEventListener("seats", function () {
        beating(source);
        if (document.getElementById("c-join")) { htmx.trigger(document.body, "rss-changed"); }
      });
    }
    setConnection(true);
    resendAll();
  });
  document.addEventListener("htmx:sseError", function (evt) { drop(evt.detail.source, false); });
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var elt = evt.detail.elt;
    if (stream && elt.classList.contains("sync") && !Object.keys(unsent).length && !document.body.classList.contains("offline")) {
      evt.preventDefault();
    }
  });
  // (the answer's own swap replaces the form, whose later events no longer reach the document)
  document.addEventListener("htmx:beforeSend", function (evt) {
    if (!evt.detail.elt.closest("form")) { return; }
    posting++;
    evt.detail.xhr.addEventListener("loadend", function () {
      if (!--posting && waiting) {
        var seq = waiting;
        waiting = 0;
        changed(seq);
      }
    });
  });

  document.addEventListener("visibilitychange", function () { if (!document.hidden) { syncTurn(); } });
  document.addEventListener("DOMContentLoaded", function () { syncTurn(); syncNav(); });
}());
