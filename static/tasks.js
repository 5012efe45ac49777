// Tasks: the live stream's taskStatus messages say how the task that a
// running tool call follows is doing; they are shown on the card whose
// call it is, while the call runs. (static/app.js handles the stream's
// other JSON messages and keeps htmx from swapping them.)
(function () {
  "use strict";
  document.addEventListener("htmx:wsBeforeMessage", function (e) {
    var m = e.detail.message;
    if (typeof m !== "string" || m.charAt(0) !== "{") return;
    var s;
    try { s = JSON.parse(m).taskStatus; } catch (err) { return; }
    if (!s) return;
    document.querySelectorAll("form[data-call]").forEach(function (form) {
      if (form.getAttribute("data-call") !== s.call || !form.classList.contains("htmx-request")) return;
      var slot = form.querySelector("[data-task-status]");
      if (!slot) return;
      slot.textContent = "Task " + s.task + " " + s.status + (s.message ? " — " + s.message : "");
      slot.setAttribute("data-state", s.status);
    });
  });
  // A card swapped in by the call's answer starts without a status; a new
  // call from the same card clears the old one.
  document.addEventListener("htmx:beforeRequest", function (e) {
    var form = e.detail.elt;
    if (!form || !form.matches || !form.matches("form[data-call]")) return;
    var slot = form.querySelector("[data-task-status]");
    if (slot) { slot.textContent = ""; slot.removeAttribute("data-state"); }
  });
})();
