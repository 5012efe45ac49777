// Tool results: a Markdown text shows rendered, and its "Show raw" button
// switches between the rendered and the raw text.
(function () {
  "use strict";
  document.addEventListener("click", function (e) {
    var toggle = e.target.closest("[data-md-toggle]");
    if (!toggle) return;
    var box = toggle.closest("[data-md]");
    var rendered = box.querySelector("[data-md-rendered]");
    var raw = box.querySelector("[data-md-raw]");
    var showRaw = raw.hidden;
    raw.hidden = !showRaw;
    rendered.hidden = showRaw;
    toggle.textContent = showRaw ? "Show rendered" : "Show raw";
  });
})();
