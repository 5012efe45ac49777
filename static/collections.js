// Collections: add and remove the rows of the assertion, capture and
// environment editors. Each editor is a [data-rows=KEY] list of [data-row]
// rows, with a <template data-row-template=KEY> row and a
// [data-add-row=KEY] button; a row's [data-remove-row] button removes it.
// Inputs marked data-row-index (the secret checkboxes of environment rows)
// carry their row's index as value, renumbered after every change.
(function () {
  "use strict";
  function renumber(list) {
    list.querySelectorAll(":scope > [data-row]").forEach(function (row, i) {
      row.querySelectorAll("[data-row-index]").forEach(function (input) { input.value = String(i); });
    });
  }
  document.addEventListener("click", function (ev) {
    var add = ev.target.closest("[data-add-row]");
    if (add) {
      var key = add.getAttribute("data-add-row");
      var form = add.closest("form") || document;
      var list = form.querySelector('[data-rows="' + CSS.escape(key) + '"]');
      var tpl = form.querySelector('template[data-row-template="' + CSS.escape(key) + '"]');
      if (!list || !tpl) return;
      var row = tpl.content.firstElementChild.cloneNode(true);
      list.appendChild(row);
      renumber(list);
      var first = row.querySelector("input, select");
      if (first) first.focus();
      return;
    }
    var remove = ev.target.closest("[data-remove-row]");
    if (remove) {
      var r = remove.closest("[data-row]");
      var parent = r && r.parentElement;
      if (!r) return;
      r.remove();
      if (parent) renumber(parent);
    }
  });
})();
