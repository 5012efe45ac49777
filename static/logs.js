// The Logs panel follows its session live: whenever the session's live
// stream delivers something, each Logs panel of that session appends the
// entries after its newest row (after=0 when it has none), and drops its
// "no log messages" note once it has rows. One fetch per session runs at
// a time; messages meanwhile ask for one more.
(function () {
  "use strict";
  var state = {}; // by session id: {busy, again}
  function follow(id) {
    var panel = document.getElementById("logs-" + id);
    var s = state[id];
    if (!panel) { delete state[id]; return; }
    var rows = panel.querySelector("[data-log-rows]");
    var last = rows.querySelector("tr[data-log-id]:last-child");
    var after = last ? last.getAttribute("data-log-id") : "0";
    s.busy = true;
    s.again = false;
    htmx.ajax("GET", panel.getAttribute("data-logs-live") + "&after=" + after, { target: rows, swap: "beforeend" }).then(function () {
      var empty = panel.querySelector("[data-testid=logs-empty]");
      if (empty && rows.querySelector("tr[data-log-id]")) empty.remove();
    }).finally(function () {
      s.busy = false;
      if (s.again) later(id);
      else delete state[id];
    });
  }
  function later(id) {
    setTimeout(function () { follow(id); }, 150);
  }
  document.addEventListener("htmx:wsAfterMessage", function (e) {
    var src = e.detail.elt && e.detail.elt.getAttribute("ws-connect");
    var m = src && src.match(/^\/sessions\/(\d+)\/live/);
    if (!m || !document.getElementById("logs-" + m[1])) return;
    var s = state[m[1]];
    if (s) { s.again = true; return; } // a fetch is due or running
    state[m[1]] = { busy: false, again: false };
    later(m[1]);
  });
})();
