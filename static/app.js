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

  // Server form: only the section of the chosen transport shows; the
  // others are hidden and disabled, so they are not sent either. Without
  // script every section stays visible, with a hint saying which counts.
  function followTransport(select) {
    var form = select.form;
    function show() {
      form.querySelectorAll("[data-transports]").forEach(function (section) {
        var on = section.getAttribute("data-transports").split(" ").indexOf(select.value) >= 0;
        section.hidden = !on;
        section.disabled = !on;
      });
    }
    form.querySelectorAll("[data-transport-hint]").forEach(function (hint) { hint.hidden = true; });
    select.addEventListener("change", show);
    show();
  }

  // A form re-rendered with errors puts the cursor in the first field in
  // error, where the user has to look.
  function focusFirstError(form) {
    var field = form.querySelector("[aria-invalid=true]");
    if (field) field.focus();
  }

  // Traffic panels swapped in anew (a filter reloads its panel) scroll
  // like those the page came with.
  document.addEventListener("htmx:load", function (e) {
    var elt = e.detail.elt;
    if (elt.matches && elt.matches("[data-live-panel]")) stickToBottom(elt);
  });

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-live-panel]").forEach(stickToBottom);
    document.querySelectorAll("select[data-transport-select]").forEach(followTransport);
    document.querySelectorAll("form[data-testid=server-form]").forEach(focusFirstError);
  });
})();
