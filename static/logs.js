// The Logs panel follows its session live: whenever the session's live
// stream delivers something, each Logs panel of that session fetches the
// entries after its newest row (an empty panel reloads itself through its
// filter form, which also drops its "no log messages" note).
(function () {
  "use strict";
  var pending = {};
  function follow(panel) {
    var rows = panel.querySelector("[data-log-rows]");
    var last = rows.querySelector("tr[data-log-id]:last-child");
    if (!last) {
      htmx.trigger(panel.querySelector("form.logs-filter"), "change");
      return;
    }
    htmx.ajax("GET", panel.getAttribute("data-logs-live") + "&after=" + last.getAttribute("data-log-id"), { target: rows, swap: "beforeend" });
  }
  document.addEventListener("htmx:wsAfterMessage", function (e) {
    var src = e.detail.elt && e.detail.elt.getAttribute("ws-connect");
    var m = src && src.match(/^\/sessions\/(\d+)\/live/);
    if (!m || pending[m[1]]) return;
    var panel = document.getElementById("logs-" + m[1]);
    if (!panel) return;
    pending[m[1]] = true;
    setTimeout(function () {
      delete pending[m[1]];
      var p = document.getElementById("logs-" + m[1]);
      if (p) follow(p);
    }, 150);
  });
})();
