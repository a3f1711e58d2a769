/* The table page on a phone (with htmx; without JavaScript the page is plain forms); the board loads it for the
 * event stream. What a re-render keeps (0 px moved under the finger), which taps wait, how a tap made offline is
 * kept and sent again exactly once: docs/phone-script.md. */
(function () {
  "use strict";
  if (!window.htmx) { return; }

  var saved = null, wasMine = null, entered = false, settleAnchor = null, pointer = null;  // saved: the tab before a swap
  var unsent = {}, resending = false;  // form key -> [[name, value], ...] of taps that did not reach the server
  var LATE = "A tap made while offline was not entered: the game changed meanwhile, so it no longer fits. Decide again.";
  var GONE = "A tap made while offline was not sent: the game changed meanwhile, so it no longer fits. Decide again.";
  function tab() { return document.getElementById("tab"); }
  function key(el) { return el && el.getAttribute("data-k"); }
  function esc(s) { return window.CSS && CSS.escape ? CSS.escape(s) : s.replace(/["\\]/g, "\\$&"); }
  function byKey(root, sel, k) { return root.querySelector(sel + '[data-k="' + esc(k) + '"]'); }
  function named(root, name) { return root.querySelectorAll('[name="' + esc(name) + '"]'); }
  function formOf(evt) { var e = evt.detail.elt; return e && e.closest ? e.closest("form") : null; }
  function kept() { return Object.keys(unsent).length; }

  // -- what a re-render keeps: the old nodes' state, and the element under the finger in its place
  function slotKey(slot) {  // a helper's slot: its links and its decision, so it stays with that decision only
    var prev = slot.previousElementSibling, links = !prev ? [] : prev.matches("a") ? [prev] : prev.querySelectorAll("a[href]");
    return prev && Array.from(links, function (a) { return a.getAttribute("href"); }).join() + slot.dataset.decision;
  }
  function fill(form, typed) {  // typed: [[name, value, type, checked], ...]
    typed.forEach(function (t) { named(form, t[0]).forEach(function (i) {
      if (t[2] === "radio" || t[2] === "checkbox") { if (i.value === t[1]) { i.checked = t[3]; } } else { i.value = t[1]; }
    }); });
  }
  // what was open, typed, focused or loaded into a helper in the old nodes, into the new ones
  function carry(root, old, focused) {
    old.querySelectorAll("details[data-k][open]").forEach(function (d) { var n = byKey(root, "details", key(d)); if (n) { n.open = true; } });
    old.querySelectorAll("form[data-k] input:not([type=hidden]), form[data-k] select").forEach(function (i) {
      var f = byKey(root, "form", key(i.closest("form[data-k]"))), box = i.type === "radio" || i.type === "checkbox";
      if (f && (box ? i.checked !== i.defaultChecked : i.value !== i.defaultValue)) { fill(f, [[i.name, i.value, i.type, i.checked]]); }
    });
    var slots = {};
    old.querySelectorAll(".helper-slot, .why-slot").forEach(function (s) { if (slotKey(s) && s.innerHTML.trim()) { slots[slotKey(s)] = s; } });
    root.querySelectorAll(".helper-slot, .why-slot").forEach(function (s) {
      var was = slotKey(s) && slots[slotKey(s)];  // the old nodes themselves: what was typed or opened in the helper stays
      if (was && !s.innerHTML.trim()) { s.append.apply(s, Array.from(was.childNodes)); }
    });
    if (focused && old.contains(focused)) {
      var f = focused.closest("form[data-k]"), d = focused.closest("details[data-k]");
      var scope = f ? byKey(root, "form", key(f)) : d ? byKey(root, "details", key(d)) : null;
      var el = scope && ((focused.name && named(scope, focused.name)[0]) || (focused.tagName === "SUMMARY" && scope.querySelector("summary")));
      if (el) { el.focus({ preventScroll: true }); }
    }
  }

  // -- taps made while the server cannot be reached: kept, and sent again by themselves, exactly once
  function unsentBar(message) {
    var bar = document.getElementById("unsent"), n = kept();
    if (!bar) { return; }
    bar.hidden = !message && !n;
    var taps = !n ? "" : n === 1 ? "1 tap kept: it goes by itself once the server answers." :
      n + " taps kept: they go by themselves once the server answers.";
    bar.querySelector(".msg").textContent = message && taps ? message + " " + taps : message || taps;
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
      var f = byKey(root, "form", k), d = f && f.closest("details");
      if (!f) { delete unsent[k]; gone = true; return; }
      if (d) { d.open = true; }
      var typed = unsent[k].filter(function (e) { return !/^(seq|token|csrf_token)$/.test(e[0]); });
      fill(f, typed.map(function (e) { return [e[0], e[1], "", false]; }));
      f.classList.add("unsent-form");
    });
    if (gone) { unsentBar(GONE); }
  }
  // a form's answer (whatever it says) means its tap reached the server: it is no longer kept
  function reached(form) {
    if (!form || !key(form) || !unsent[key(form)]) { return; }
    delete unsent[key(form)];
    form.classList.remove("unsent-form");
    if (!kept()) { resending = false; unsentBar(null); }
  }
  // send each kept tap again: exactly what was sent (its seq and token too), from its form
  function resendAll() {
    if (resending || !kept()) { return; }
    resending = true;
    Object.keys(unsent).forEach(function (k) {
      var form = tab() && byKey(tab(), "form", k);
      if (!form) { delete unsent[k]; unsentBar(GONE); return; }
      unsent[k].forEach(function (e) {
        var fields = form.querySelectorAll('[name="' + esc(e[0]) + '"]:not(button)'), h = document.createElement("input");
        fields.forEach(function (i) { if (i.type === "hidden") { i.value = e[1]; } });
        if (!fields.length) { h.type = "hidden"; h.name = e[0]; h.value = e[1]; form.appendChild(h); }
      });
      form._rssResending = true;
      htmx.trigger(form, "submit");
    });
  }
  // where the finger is (its last touch or mouse position): what stays in place, and what must not change unnoticed
  function point(e) { pointer = [e.clientX, e.clientY]; }
  ["pointermove", "pointerdown"].forEach(function (t) { document.addEventListener(t, point, { passive: true }); });
  function ident(el) {
    return !el ? null : el.id ? "#" + esc(el.id) : key(el) ? el.tagName.toLowerCase() + '[data-k="' + esc(key(el)) + '"]' : null;
  }
  // candidates, best first: what is focused (when on screen), the element under the finger, then the keyed
  // (or identified) elements whose top is on screen; the first still there after the swap keeps its place
  function findAnchor(root) {
    var bar = document.getElementById("turn"), top = bar ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
    var a = document.activeElement, r = a && a !== document.body && a.getBoundingClientRect(), out = [];
    [r && r.bottom > top && r.top < innerHeight && a, pointer && document.elementFromPoint(pointer[0], pointer[1])].forEach(function (el) {
      el = el && root.contains(el) ? el.closest("[data-k], [id]") : null;
      if (el && root.contains(el) && ident(el)) { out.push({ sel: ident(el), top: el.getBoundingClientRect().top }); }
    });
    root.querySelectorAll("[data-k], [id]").forEach(function (el) {
      var r = out.length < 8 && el.getBoundingClientRect();
      if (r && r.height && r.top >= top && r.top < innerHeight && ident(el)) { out.push({ sel: ident(el), top: r.top }); }
    });
    return out;
  }
  function keepAnchor(root, anchors) {
    var hit = anchors.find(function (a) { return root.querySelector(a.sel); });
    if (hit) { window.scrollBy(0, root.querySelector(hit.sel).getBoundingClientRect().top - hit.top); }
  }
  function targetUnder() {
    var el = pointer && document.elementFromPoint(pointer[0], pointer[1]), b = el && el.closest("button, summary, a, input, select, label");
    return b ? key(b.closest("[data-k]")) + "|" + b.tagName + "|" + b.textContent.trim() : null;
  }
  function noTap(el, cls, ms) {  // app.css: no button under .settling or .fresh takes a tap
    el.classList.add(cls);
    window.clearTimeout(el["_rss" + cls]);
    el["_rss" + cls] = window.setTimeout(function () { el.classList.remove(cls); }, ms);
  }
  // one's own entry's result where one looks: above the tabs when the tab's result line is out of sight
  function showResult(root) {
    var last = root.querySelector("#c-last.entered"), old = document.querySelector(".toast"), bar = document.getElementById("turn");
    if (old) { old.remove(); }
    if (!last) { return; }
    var r = last.getBoundingClientRect();
    if (r.top >= (bar ? bar.getBoundingClientRect().bottom : 0) && r.bottom <= window.innerHeight) { return; }
    var toast = document.body.appendChild(last.cloneNode(true));
    [toast].concat(Array.from(toast.querySelectorAll("[id]"))).forEach(function (e) { e.removeAttribute("id"); });
    toast.removeAttribute("aria-labelledby");
    toast.classList.add("toast");
    toast.setAttribute("role", "status");
    window.setTimeout(function () { toast.remove(); }, 4000);
  }

  // -- the connection notice, whose turn it is, the tabs
  function setConnection(ok, problem, gone) {
    var c = document.getElementById("connection");
    if (!c) { return; }
    c.hidden = !!ok;
    c.classList.toggle("problem", !ok && !!problem);  // reached, but its database fails (503)
    c.classList.toggle("gone", !ok && !!gone);  // reached, but it has no such game (404): never shown as live
    document.body.classList.toggle("offline", !ok);
    if (document.body.classList.toggle("game-gone", !ok && !!gone)) { document.title = "Not on the server"; }
  }
  // this phone's turn: the title says so; the phone vibrates if the page is scrolled or in the background
  function syncTurn() {
    var turn = document.getElementById("turn"), mine = turn && turn.dataset.mine === "1";
    if (!turn || document.body.classList.contains("game-gone")) { return; }
    if (turn.dataset.title) { document.title = turn.dataset.title; }
    if (mine && wasMine === false && (document.hidden || window.scrollY > 0) && navigator.vibrate) {
      try { navigator.vibrate([200, 100, 200]); } catch (e) { /* not allowed: the title says it */ }
    }
    wasMine = mine;
  }
  function syncNav() {
    var region = document.getElementById("region");
    (region ? document.querySelectorAll("nav.tabs a[data-tab]") : []).forEach(function (a) {
      if (a.dataset.tab === region.dataset.tab) { a.setAttribute("aria-current", "page"); } else { a.removeAttribute("aria-current"); }
    });
  }

  // -- htmx's events
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var from = evt.detail.requestConfig && evt.detail.requestConfig.elt, xhr = evt.detail.xhr, root = tab();
    if (from && from.closest && xhr && xhr.status > 0 && xhr.status < 500 && xhr.status !== 404) {
      var sent = from.closest("form"), late = sent && sent._rssResending && (xhr.status === 409 || xhr.status === 422);
      reached(sent);
      if (late) { unsentBar(LATE); }  // said where it stays: the tab itself may be re-rendered by the poll a moment later
    }
    if (evt.detail.target && evt.detail.target.id === "tab") {
      saved = { kind: from && from.id === "region" ? "refresh" : from && from.closest("form") ? "entry" : "navigate",
        old: Array.from(root.childNodes), focused: document.activeElement, y: window.scrollY,
        anchor: findAnchor(root), under: targetUnder(), keys: Array.from(root.querySelectorAll("[data-k]"), key) };
    }
  });
  document.addEventListener("htmx:afterSwap", function (evt) {
    if (!(evt.detail.target && evt.detail.target.id === "tab" && saved)) { return; }
    var root = tab();
    if (saved.kind !== "navigate") {
      var old = document.createElement("div");
      old.append.apply(old, saved.old);  // the swap took them out of the page; their state is still theirs
      carry(root, old, saved.focused);
      window.scrollTo(0, saved.y);  // then keepAnchor corrects for rows added or removed above
      restoreUnsent(root);
      keepAnchor(root, saved.anchor);
      settleAnchor = saved.anchor;  // again once settled: the turn bar above may change its height then
    }
    // the buttons of the next step must not take a tap meant for the one just made, nor the button that
    // another phone's change put under the finger; a new decision takes none for half a second (issue 37)
    if (saved.kind === "entry" || (saved.kind === "refresh" && targetUnder() !== saved.under)) { noTap(root, "settling", 700); }
    var before = saved.kind === "refresh" ? saved.keys : null;
    root.querySelectorAll("[data-k]").forEach(function (el) { if (before && before.indexOf(key(el)) < 0) { noTap(el, "fresh", 500); } });
    if (saved.kind === "entry") { entered = true; }
    saved = null;
  });
  // htmx settles attributes of elements that keep their id (#turn, #c-last) after the swap: read them once settled
  document.addEventListener("htmx:afterSettle", function (evt) {
    if (evt.detail.target && evt.detail.target.id === "tab") {
      if (settleAnchor) { keepAnchor(tab(), settleAnchor); settleAnchor = null; }
      syncNav();
      if (entered) { entered = false; showResult(tab()); }
    }
    syncTurn();
  });
  function onFailure(evt, message) {
    var form = formOf(evt);
    setConnection(false);
    if (form && form.method && form.method.toLowerCase() === "post") { markUnsent(form, message); }
  }
  document.addEventListener("htmx:sendError", function (evt) { onFailure(evt, "Not sent yet: no connection."); });
  document.addEventListener("htmx:timeout", function (evt) { onFailure(evt, "Not sent yet: the server did not answer."); });
  document.addEventListener("htmx:responseError", function (evt) {
    var form = formOf(evt), status = evt.detail.xhr ? evt.detail.xhr.status : 0;
    if (form && status === 404) { markUnsent(form, "Not sent: this game is not on the table's server."); }
    if (form && status >= 500) { markUnsent(form, "Not sent yet: the server failed (" + status + ")."); }
  });
  document.addEventListener("htmx:afterRequest", function (evt) {
    var xhr = evt.detail.xhr, form = formOf(evt);
    if (form && form._rssResending) { form._rssResending = false; resending = false; }
    if (!xhr || !xhr.status) { return; }
    setConnection(xhr.status !== 503 && xhr.status !== 404, xhr.status === 503, xhr.status === 404);
    if (xhr.status === 404 || xhr.status >= 500) { return; }  // not there: its taps stay kept (not sent)
    reached(form);
    if (!form) { resendAll(); }  // the server answers again: what was tapped meanwhile goes now, by itself
  });
  // what a form sent (with the value of the button tapped), to send exactly that again on Retry
  document.addEventListener("htmx:configRequest", function (evt) {
    var form = formOf(evt);
    var sent = form && evt.detail.formData && Array.from(evt.detail.formData.entries());
    if (sent) { form._rssSent = sent.filter(function (e) { return typeof e[1] === "string"; }); }
  });
  document.addEventListener("click", function (evt) {  // #unsent's button: "Send now", or "OK" to dismiss its words
    if (!(evt.target.closest && evt.target.closest("#unsent button.retry"))) { return; }
    if (!kept()) { document.getElementById("unsent").hidden = true; } else { resending = false; resendAll(); }
  });

  // -- the game's event stream (#live, opened by htmx's SSE extension): while it beats, the polls (.sync) wait
  // and each message re-fetches the tab once; closed, refused or silent, the polls go on (docs/phone-script.md)
  var stream = null, everOpen = false, watchdog = 0, posting = 0, waiting = 0;
  function rendered() { var s = document.getElementById("sync"); return s ? +s.getAttribute("data-seq") : -1; }
  function changed(seq) {
    if (posting) { waiting = Math.max(waiting, seq); } else if (seq !== rendered()) { htmx.trigger(document.body, "rss-changed"); }
  }
  function beating(source) { window.clearTimeout(watchdog); watchdog = window.setTimeout(function () { drop(source, true); }, 11000); }
  function drop(source, restart) {
    if (source !== stream) { return; }
    stream = null; window.clearTimeout(watchdog);
    if (everOpen) { setConnection(false); }
    if (restart) {  // two beats missed: a new stream from a new element (the old one may be half-dead)
      source.close();
      var old = document.getElementById("live"), c = old.cloneNode(false);
      c.setAttribute("sse-connect", c.getAttribute("sse-connect").replace(/seq=\d*/, "seq=" + rendered()));
      old.replaceWith(c); htmx.process(c);
    }
  }
  document.addEventListener("htmx:sseOpen", function (evt) {
    var source = stream = evt.detail.source;
    everOpen = true;
    beating(source);
    if (!source._rss) {
      source._rss = true;
      source.addEventListener("message", function (e) { beating(source); changed(+e.data); });
      source.addEventListener("beat", function () { beating(source); });
      source.addEventListener("seats", function () {  // the join tab follows who sits down
        beating(source);
        if (document.getElementById("c-join")) { htmx.trigger(document.body, "rss-changed"); }
      });
    }
    setConnection(true);
    resendAll();
  });
  document.addEventListener("htmx:sseError", function (evt) { drop(evt.detail.source, false); });
  document.addEventListener("htmx:beforeRequest", function (evt) {  // the polls wait while the stream beats
    var poll = evt.detail.elt.classList.contains("sync");
    if (stream && poll && !kept() && !document.body.classList.contains("offline")) { evt.preventDefault(); }
  });
  document.addEventListener("htmx:beforeSend", function (evt) {  // the answer's swap replaces the form: count here
    if (!evt.detail.elt.closest("form")) { return; }
    posting++;
    evt.detail.xhr.addEventListener("loadend", function () { if (!--posting && waiting) { var seq = waiting; waiting = 0; changed(seq); } });
  });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { syncTurn(); } });
  document.addEventListener("DOMContentLoaded", function () { syncTurn(); syncNav(); });
}());
