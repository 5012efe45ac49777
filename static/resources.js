// Resources section (views/resources.templ): a resourceUpdated message of
// the live stream shows on the resource's card ("Updated at HH:MM:SS —
// Read again") and marks its list entry; "Read again" reads the resource
// with the card's Read form; entries that a More control adds follow the
// list's search box like the first page.
(function () {
  "use strict";

  function forResource(selector, uri, fn) {
    document.querySelectorAll(selector).forEach(function (el) {
      if (el.dataset.resource === uri) fn(el);
    });
  }

  function updatedBadge() {
    var b = document.createElement("span");
    b.className = "badge small updated";
    b.title = "The server says it changed";
    b.textContent = "updated";
    return b;
  }

  function showUpdate(u) {
    var at = new Date(u.at);
    if (isNaN(at.getTime())) return;
    forResource("[data-resource-notice]", u.uri, function (notice) {
      var time = document.createElement("time");
      time.dateTime = u.at;
      time.dataset.testid = "updated-at";
      time.textContent = at.toTimeString().slice(0, 8);
      var again = document.createElement("button");
      again.type = "button";
      again.className = "link";
      again.dataset.reread = "";
      again.dataset.testid = "read-again";
      again.textContent = "Read again";
      notice.replaceChildren(updatedBadge(), " Updated at ", time, " — ", again);
    });
    forResource("[data-resource-marker]", u.uri, function (marker) {
      marker.replaceChildren(updatedBadge());
    });
  }

  // app.js keeps htmx from swapping JSON messages; this reads its own kind.
  document.addEventListener("htmx:wsBeforeMessage", function (e) {
    var m = e.detail.message;
    if (typeof m !== "string" || m.indexOf('{"resourceUpdated"') !== 0) return;
    e.preventDefault();
    try { showUpdate(JSON.parse(m).resourceUpdated); } catch (err) { /* not ours after all */ }
  });

  document.addEventListener("click", function (e) {
    var btn = e.target.closest && e.target.closest("[data-reread]");
    if (!btn) return;
    var card = btn.closest("[data-testid=resource]");
    var form = card && card.querySelector("form[data-read-form]");
    if (form) form.requestSubmit();
  });

  document.addEventListener("htmx:afterSettle", function () {
    document.querySelectorAll(".resource-list [data-item-filter]").forEach(function (input) {
      var q = input.value.trim().toLowerCase();
      if (q === "") return;
      input.closest("[data-testid=item-list]").querySelectorAll("[data-items] > li:not([data-more])").forEach(function (li) {
        li.hidden = li.textContent.toLowerCase().indexOf(q) < 0;
      });
    });
  });
})();
