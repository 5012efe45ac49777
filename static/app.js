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
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-live-panel]").forEach(stickToBottom);
  });
})();
