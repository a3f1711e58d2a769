/* The table page on a phone (works with htmx; without JavaScript the page is plain forms).
 *
 * - A change made on another phone re-renders the current view; what the player had open,
 *   typed or focused, and the scroll position, are carried over (nothing moves under them).
 * - #connection shows while the server cannot be reached; a tap made meanwhile is marked
 *   "not sent" with a Retry (its idempotency token makes a retry safe).
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

  function view() { return document.getElementById("view"); }
  function key(el) { return el && el.getAttribute("data-k"); }
  function esc(s) { return window.CSS && CSS.escape ? CSS.escape(s) : s.replace(/["\\]/g, "\\$&"); }
  function byKey(root, sel, k) { return root.querySelector(sel + '[data-k="' + esc(k) + '"]'); }

  function slotKey(slot) {
    var prev = slot.previousElementSibling;
    if (!prev) { return null; }
    var links = prev.matches("a") ? [prev] : prev.querySelectorAll("a[href]");
    return Array.prototype.map.call(links, function (a) { return a.getAttribute("href"); }).join(" ");
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
    if (keepScroll) { window.scrollTo(0, s.y); }
  }

  function markUnsent(form, message) {
    var k = key(form);
    if (k) { unsent[k] = form._rssSent || Array.from(new FormData(form).entries()); }
    var note = form.querySelector(".unsent");
    if (!note) {
      note = document.createElement("p");
      note.className = "unsent";
      note.setAttribute("role", "alert");
      note.innerHTML = '<span aria-hidden="true">⚠</span> <span class="msg"></span> <button type="button" class="retry">Retry</button>';
      form.insertBefore(note, form.firstChild);
    }
    note.querySelector(".msg").textContent = message;
  }

  function restoreUnsent(root) {
    Object.keys(unsent).forEach(function (k) {
      var f = byKey(root, "form", k);
      if (!f) {
        delete unsent[k];
        var last = root.querySelector("#c-actions");
        if (last) {
          var p = document.createElement("p");
          p.className = "unsent";
          p.setAttribute("role", "alert");
          p.textContent = "A tap made while offline was not sent, and the game has changed since: decide again.";
          last.insertBefore(p, last.children[1] || null);
        }
        return;
      }
      var d = f.closest("details");
      if (d) { d.open = true; }
      fill(f, unsent[k].map(function (e) { return [e[0], e[1], "", false]; }).filter(function (e) {
        return !/^(seq|token|csrf_token)$/.test(e[0]);
      }));
      markUnsent(f, "Not sent: there was no connection.");
    });
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

  function setConnection(ok, problem) {
    var c = document.getElementById("connection");
    if (!c) { return; }
    c.hidden = !!ok;
    c.classList.toggle("problem", !ok && !!problem);  // reached, but its database fails (503)
    document.body.classList.toggle("offline", !ok);
  }

  function syncTurn() {
    var turn = document.getElementById("turn");
    if (!turn) { return; }
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

  document.addEventListener("htmx:beforeSwap", function (evt) {
    if (evt.detail.target && evt.detail.target.id === "view") {
      var elt = evt.detail.requestConfig && evt.detail.requestConfig.elt;
      saved = {
        kind: elt && elt.id === "region" ? "refresh" : elt && elt.closest("form") ? "entry" : "navigate",
        state: snapshot(view())
      };
    }
  });

  document.addEventListener("htmx:afterSwap", function (evt) {
    if (evt.detail.target && evt.detail.target.id === "view" && saved) {
      var root = view();
      if (saved.kind !== "navigate") {
        restore(root, saved.state, true);
        restoreUnsent(root);
      }
      if (saved.kind === "entry") {
        // the buttons of the next step must not take a tap meant for the one just made
        root.classList.add("settling");
        window.setTimeout(function () { root.classList.remove("settling"); }, 700);
        entered = true;
      }
      saved = null;
    }
  });

  // htmx settles attributes of elements that keep their id (#turn, #c-last) after the swap:
  // read them once settled
  document.addEventListener("htmx:afterSettle", function (evt) {
    if (evt.detail.target && evt.detail.target.id === "view") {
      syncNav();
      if (entered) { entered = false; showResult(view()); }
    }
    syncTurn();
  });

  document.addEventListener("htmx:sendError", function (evt) { onFailure(evt, "Not sent: there is no connection to the server."); });
  document.addEventListener("htmx:timeout", function (evt) { onFailure(evt, "Not sent: the server did not answer."); });
  document.addEventListener("htmx:responseError", function (evt) {
    var form = evt.detail.elt && evt.detail.elt.closest && evt.detail.elt.closest("form");
    if (form && evt.detail.xhr && evt.detail.xhr.status >= 500) { markUnsent(form, "Not sent: the server failed (" + evt.detail.xhr.status + ")."); }
  });

  function onFailure(evt, message) {
    setConnection(false);
    var form = evt.detail.elt && evt.detail.elt.closest && evt.detail.elt.closest("form");
    if (form && form.method && form.method.toLowerCase() === "post") { markUnsent(form, message); }
  }

  document.addEventListener("htmx:afterRequest", function (evt) {
    var xhr = evt.detail.xhr;
    if (xhr && xhr.status > 0) {
      setConnection(xhr.status !== 503, xhr.status === 503);
      var form = evt.detail.elt && evt.detail.elt.closest && evt.detail.elt.closest("form");
      if (form && key(form) && xhr.status < 500) { delete unsent[key(form)]; }
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
    var retry = evt.target.closest && evt.target.closest("button.retry");
    if (!retry) { return; }
    var form = retry.closest("form");
    var note = retry.closest(".unsent");
    if (note) { note.remove(); }
    if (!form) { return; }
    (unsent[key(form)] || form._rssSent || []).forEach(function (e) {
      var fields = form.querySelectorAll('[name="' + esc(e[0]) + '"]:not(button)');
      if (!fields.length) {
        var h = document.createElement("input");
        h.type = "hidden"; h.name = e[0]; h.value = e[1];
        form.appendChild(h);
      }
    });
    htmx.trigger(form, "submit");
  });

  document.addEventListener("visibilitychange", function () { if (!document.hidden) { syncTurn(); } });
  document.addEventListener("DOMContentLoaded", function () { syncTurn(); syncNav(); });
}());
