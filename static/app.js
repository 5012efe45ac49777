// The dashboard's own script. The Content-Security-Policy allows no inline
// script and no event handler attributes, so every behaviour lives here.
(function () {
  "use strict";
  // A form with data-confirm asks the user before it is sent.
  document.addEventListener("submit", function (e) {
    var message = e.target.getAttribute("data-confirm");
    if (message && !window.confirm(message)) e.preventDefault();
  });

  // Traffic panel: opens at its newest frame and keeps the newest frame in
  // view while the user is at the bottom of the panel (older frames load at
  // its top); reports a lost live connection.
  function stickToBottom(panel) {
    var list = panel.querySelector("[data-frames]");
    if (!list) return;
    list.scrollTop = list.scrollHeight;
    var atBottom = true;
    list.addEventListener("scroll", function () {
      atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    });
    new MutationObserver(function () {
      if (atBottom) list.scrollTop = list.scrollHeight;
    }).observe(list, { childList: true });
  }
  document.addEventListener("htmx:wsOpen", function (e) {
    var panel = e.detail.elt.closest("[data-live-panel]");
    var status = panel && panel.querySelector("[data-ws-status]");
    if (status) { status.textContent = "live"; status.className = "ws-status ok"; }
  });
  document.addEventListener("htmx:wsClose", function (e) {
    var panel = e.detail.elt.closest("[data-live-panel]");
    var status = panel && panel.querySelector("[data-ws-status]");
    // After the session's end the stream has nothing more to say.
    if (status && !status.hasAttribute("data-ended")) {
      status.textContent = "disconnected — reload to resume"; status.className = "ws-status bad";
    }
  });
  // Tool cards: while a call runs, its form (htmx marks it htmx-request)
  // shows the time since it was sent; the live stream's progress messages
  // fill in its progress bar. A card swapped in by the answer starts over.
  var timers = new WeakMap();
  function isToolForm(elt) {
    return elt && elt.matches && elt.matches("form[data-call]");
  }
  document.addEventListener("htmx:beforeRequest", function (e) {
    var form = e.detail.elt;
    if (!isToolForm(form)) return;
    var elapsed = form.querySelector("[data-elapsed]");
    var bar = form.querySelector("[data-progress]");
    var text = form.querySelector("[data-progress-text]");
    if (bar) { bar.hidden = true; bar.removeAttribute("value"); }
    if (text) text.textContent = "";
    var start = Date.now();
    var tick = function () {
      if (elapsed) elapsed.textContent = ((Date.now() - start) / 1000).toFixed(1) + " s";
    };
    tick();
    clearInterval(timers.get(form));
    timers.set(form, setInterval(tick, 100));
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    var form = e.detail.elt;
    if (!isToolForm(form)) return;
    clearInterval(timers.get(form));
    timers.delete(form);
  });
  function showProgress(form, p) {
    var bar = form.querySelector("[data-progress]");
    var text = form.querySelector("[data-progress-text]");
    if (bar) {
      if (p.total > 0) { bar.max = p.total; bar.value = Math.min(p.progress, p.total); }
      else bar.removeAttribute("value");
      bar.hidden = false;
    }
    if (text) {
      var s = String(p.progress) + (p.total > 0 ? " / " + p.total : "");
      if (p.message) s += " — " + p.message;
      text.textContent = s;
    }
  }
  // The live stream's JSON messages are call progress; its HTML messages
  // are htmx's to swap.
  document.addEventListener("htmx:wsBeforeMessage", function (e) {
    var m = e.detail.message;
    if (typeof m !== "string" || m.charAt(0) !== "{") return;
    e.preventDefault();
    var p;
    try { p = JSON.parse(m).callProgress; } catch (err) { return; }
    if (!p) return;
    document.querySelectorAll("form[data-call]").forEach(function (form) {
      if (form.getAttribute("data-call") === p.call && form.classList.contains("htmx-request")) showProgress(form, p);
    });
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-live-panel]").forEach(stickToBottom);
  });
})();
