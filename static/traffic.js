// The traffic panel shows a request and its response as one entry. The
// server pairs the frames of a page; a response that arrives later (live,
// or on a newer page than its request when older frames are loaded above
// it) comes as a row of its own saying which request it answers
// (data-answers). This moves such a row into its request's entry — as the
// entry's frame part (views.framePart), with the latency, the status badge
// and the response's clash and lint badges —
// whenever both are in the same panel; a response whose request is not
// there stays a row.
(function () {
  "use strict";
  var KEPT = ["id", "data-testid", "data-direction", "data-rpc-type", "data-method"];

  function restatus(el, status) {
    el.className = el.className.replace(/\bstatus-\S+/g, "").trim() + " status-" + status;
  }

  function graft(row) {
    var entry = document.getElementById("exchange-" + row.getAttribute("data-answers"));
    var content = row.querySelector(":scope > [data-frame-content]");
    if (!entry || !content || entry.closest("[data-frames]") !== row.closest("[data-frames]")) return;
    var part = document.createElement("div");
    part.className = "frame-part";
    KEPT.forEach(function (name) {
      if (row.hasAttribute(name)) part.setAttribute(name, row.getAttribute(name));
    });
    part.append.apply(part, Array.prototype.slice.call(content.childNodes));
    row.remove();
    entry.querySelector("[data-response-body]").replaceChildren(part);
    var status = row.getAttribute("data-status");
    entry.setAttribute("data-status", status);
    restatus(entry, status);
    var badge = entry.querySelector("[data-status-badge]");
    badge.textContent = row.getAttribute("data-status-label");
    restatus(badge, status);
    var latency = entry.querySelector("[data-latency]");
    latency.textContent = row.getAttribute("data-latency");
    row.querySelectorAll(":scope > summary [data-summary-badge]").forEach(function (b) { latency.before(b); });
  }

  function graftAll() {
    document.querySelectorAll("[data-frames] [data-answers]").forEach(graft);
  }

  var scheduled = false;
  new MutationObserver(function () {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(function () { scheduled = false; graftAll(); });
  }).observe(document.documentElement, { childList: true, subtree: true });

  document.addEventListener("DOMContentLoaded", graftAll);
})();
