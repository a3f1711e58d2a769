/* Keeping the screen on while a game is open, best effort (issue 19).
 *
 * - The Screen Wake Lock API where the browser offers it (https or localhost only), taken again
 *   when the page becomes visible (browsers release it when it is hidden).
 * - Elsewhere (plain http on the table's network, older browsers) a fallback started by the
 *   first tap: a tiny silent video (static/wake.*) playing in a loop, which phones treat as
 *   something being watched.
 * - The More view's switch turns it off (and on) for this phone; the choice is kept.
 * html[data-wake] says what runs: api, video, waiting (for the first tap), off, or blocked.
 */
(function () {
  "use strict";
  var KEY = "rss-wake";
  var script = document.currentScript;
  var SOURCES = (script && script.getAttribute("data-video")) || "";  // the video's files, webm then mp4
  var lock = null;
  var video = null;
  var armed = false;

  function wanted() {
    try { return window.localStorage.getItem(KEY) !== "off"; } catch (e) { return true; }
  }
  var WORDS = {
    api: "On: the browser keeps the screen on.",
    video: "On: a tiny silent video keeps the screen on.",
    waiting: "On from your first tap.",
    off: "Off: the screen dims as usual.",
    blocked: "This browser does not let a page keep the screen on."
  };
  function say(state) {
    document.documentElement.setAttribute("data-wake", state);
    var words = document.getElementById("wake-state");
    if (words) { words.textContent = WORDS[state] || ""; }
    var box = document.getElementById("wake-switch");
    if (box) { box.checked = state !== "off"; }
  }

  function viaVideo() {
    if (!video) {
      var src = SOURCES;
      video = document.createElement("video");
      video.setAttribute("playsinline", "");
      video.setAttribute("muted", "");
      video.setAttribute("aria-hidden", "true");
      video.setAttribute("tabindex", "-1");
      video.muted = true;
      video.loop = true;
      video.className = "wake-video";
      src.split(" ").forEach(function (url) {
        if (!url) { return; }
        var s = document.createElement("source");
        s.src = url;
        s.type = /\.webm$/.test(url) ? "video/webm" : "video/mp4";
        video.appendChild(s);
      });
      document.body.appendChild(video);
    }
    var played = video.play();
    if (played && played.then) {
      played.then(function () { if (wanted()) { say("video"); } }, function () { say("blocked"); });
    } else {
      say("video");
    }
  }

  function armFallback() {
    say("waiting");
    if (armed) { return; }
    armed = true;
    var go = function () {
      document.removeEventListener("pointerdown", go, true);
      document.removeEventListener("keydown", go, true);
      armed = false;
      if (wanted()) { viaVideo(); }
    };
    document.addEventListener("pointerdown", go, true);
    document.addEventListener("keydown", go, true);
  }

  function viaApi() {
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      say("api");
      l.addEventListener("release", function () { lock = null; });
    }, function () {
      armFallback();  // refused (no user activation yet, or a policy): the video after a tap
    });
  }

  function start() {
    if (!wanted()) { say("off"); return; }
    if ("wakeLock" in navigator && window.isSecureContext) { viaApi(); } else { armFallback(); }
  }

  function stop() {
    if (lock) { lock.release(); lock = null; }
    if (video) { video.pause(); }
    say("off");
  }

  document.addEventListener("visibilitychange", function () {
    if (document.hidden || !wanted()) { return; }
    if (video && !video.paused) { return; }
    if (video) { viaVideo(); } else if (!lock) { start(); }
  });
  document.addEventListener("change", function (evt) {
    if (!evt.target || evt.target.id !== "wake-switch") { return; }
    try { window.localStorage.setItem(KEY, evt.target.checked ? "on" : "off"); } catch (e) { /* kept for this page only */ }
    if (evt.target.checked) { if (lock || (video && !video.paused)) { say(lock ? "api" : "video"); } else if (video) { viaVideo(); } else { start(); } } else { stop(); }
  });
  // the More view comes and goes with htmx: show the switch as it is
  document.addEventListener("htmx:afterSettle", function () {
    say(document.documentElement.getAttribute("data-wake") || "waiting");
  });
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
}());
