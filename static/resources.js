// Resources section: "Read again" on a resource's update notice reads it
// with the card's Read form; entries that a More control adds follow the
// list's search box like the first page.
(function () {
  "use strict";

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
